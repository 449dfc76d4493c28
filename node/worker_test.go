package node_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Port-style tests: each is modelled on one of Node's own
// test/parallel/test-worker-* or test-*message*port* tests and runs as a
// main program; it prints one line that the test compares.

func expectProgram(t *testing.T, src string, wantCode int, wantOut string) {
	t.Helper()
	code, out, errOut := runProgram(t, src)
	if code != wantCode || out != wantOut {
		t.Fatalf("exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q", code, out, errOut, wantCode, wantOut)
	}
}

// test-worker-message-port-message-order / test-worker-messageport-*: both
// directions keep FIFO order.
func TestWorkerThreads_MessageOrder(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const N = 2000;
const w = new Worker("const { parentPort } = require('worker_threads');" +
	"let next = 0; parentPort.on('message', (m) => { if (m !== next++) throw new Error('order ' + m); " +
	"if (next === 2000) { for (let i = 0; i < 2000; i++) parentPort.postMessage(i); parentPort.close(); } });", { eval: true });
let next = 0;
w.on('message', (m) => { if (m !== next++) throw new Error('out of order: ' + m); });
w.on('exit', (c) => console.log('got', next, 'exit', c));
for (let i = 0; i < N; i++) w.postMessage(i);
`, 0, "got 2000 exit 0\n")
}

// test-worker-workerdata-*: workerData is a structured clone.
func TestWorkerThreads_WorkerData(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const data = { m: new Map([[1, 'one']]), d: new Date(5), a: [1, , 3], big: 10n, nested: { self: null } };
data.nested.self = data.nested;
const w = new Worker("const { workerData: d, parentPort } = require('worker_threads');" +
	"parentPort.postMessage([d.m.get(1), d.d.getTime(), 1 in d.a, d.a.length, typeof d.big, d.nested.self === d.nested].join());", { eval: true, workerData: data });
w.on('message', (m) => console.log(m));
`, 0, "one,5,false,3,bigint,true\n")
}

// test-worker-message-transfer / test-worker-workerdata-messageport: an
// ArrayBuffer moves, in postMessage and in workerData's transferList.
func TestWorkerThreads_TransferArrayBuffer(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const a = new Uint8Array([1, 2, 3]).buffer, b = new Uint8Array([9]).buffer;
const w = new Worker("const { workerData, parentPort } = require('worker_threads');" +
	"parentPort.once('message', (m) => { parentPort.postMessage([new Uint8Array(workerData)[0], new Uint8Array(m)[2], m.byteLength], [m]); parentPort.close(); });",
	{ eval: true, workerData: b, transferList: [b] });
w.postMessage(a, [a]);
const sent = [a.byteLength, b.byteLength];
w.on('message', (m) => console.log(sent.join(), m.join(), new Uint8Array(m.buffer || []).length));
`, 0, "0,0 9,3,3 0\n")
}

// test-worker-message-port-transfer-*: a MessagePort travels to a worker and
// on to a nested worker; messages posted while it travels arrive in order.
func TestWorkerThreads_TransferPortToNestedWorker(t *testing.T) {
	expectProgram(t, `
const { Worker, MessageChannel } = require('worker_threads');
const inner = "const { parentPort } = require('worker_threads');" +
	"parentPort.once('message', ({ port }) => { port.on('message', (m) => { port.postMessage('echo ' + m); if (m === 'last') port.close(); }); parentPort.close(); });";
const outer = "const { Worker, parentPort } = require('worker_threads');" +
	"parentPort.once('message', ({ port, inner }) => { const w = new Worker(inner, { eval: true }); w.postMessage({ port }, [port]); parentPort.close(); });";
const { port1, port2 } = new MessageChannel();
const w = new Worker(outer, { eval: true });
w.postMessage({ port: port2, inner }, [port2]);
for (const m of ['a', 'b', 'c', 'last']) port1.postMessage(m);
const got = [];
port1.on('message', (m) => got.push(m));
port1.on('close', () => console.log(got.join('|')));
`, 0, "echo a|echo b|echo c|echo last\n")
}

// test-worker-terminate-*: terminate() resolves with exit code 1 and 'exit'
// fires with it.
func TestWorkerThreads_TerminateExitCode(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker("require('worker_threads').parentPort.postMessage('up'); for (;;) {}", { eval: true });
let exitEvent;
w.on('exit', (c) => { exitEvent = c; });
w.once('message', async () => { const c = await w.terminate(); console.log('terminate', c, 'exit', exitEvent, w.threadId); });
`, 0, "terminate 1 exit 1 -1\n")
}

// test-worker-uncaught-exception: the error event carries the error, then
// exit with code 1.
func TestWorkerThreads_ErrorEventAndExitCode1(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker("require('worker_threads').parentPort.postMessage('before'); throw new TypeError('worker boom');", { eval: true });
const ev = [];
w.on('message', (m) => ev.push(m));
w.on('error', (e) => ev.push(e instanceof Error, e.name, e.message));
w.on('exit', (c) => { ev.push(c); console.log(ev.join(',')); });
`, 0, "before,true,TypeError,worker boom,1\n")
}

// test-worker-syntax-error: a script that does not compile is an 'error'.
func TestWorkerThreads_SyntaxErrorIsAnErrorEvent(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker("let let = ;", { eval: true });
w.on('error', (e) => console.log(e.name));
w.on('exit', (c) => console.log('exit', c));
`, 0, "SyntaxError\nexit 1\n")
}

// An 'error' no listener takes is the parent's uncaught exception.
func TestWorkerThreads_UnhandledErrorEventEndsTheProgram(t *testing.T) {
	code, _, errOut := runProgram(t, `
const { Worker } = require('worker_threads');
new Worker("throw new Error('nobody listens')", { eval: true });
`)
	if code != 1 || !strings.Contains(errOut, "nobody listens") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

// test-worker-exit-code: process.exit(n) in a worker ends it with n.
func TestWorkerThreads_ProcessExitInWorker(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker("setTimeout(() => {}, 100000); process.exit(3); require('worker_threads').parentPort.postMessage('not sent');", { eval: true });
w.on('message', (m) => console.log(m));
w.on('exit', (c) => console.log('exit', c));
`, 0, "exit 3\n")
}

// test-worker-exit-event-order / test-worker-onmessage: online, then
// messages, then exit.
func TestWorkerThreads_EventOrder(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker("const { parentPort } = require('worker_threads'); parentPort.postMessage(1); parentPort.postMessage(2);", { eval: true });
const ev = [];
for (const e of ['online', 'message', 'error', 'exit']) w.on(e, (x) => { ev.push(e + (x === undefined ? '' : ' ' + x)); if (e === 'exit') console.log(ev.join(',')); });
`, 0, "online,message 1,message 2,exit 0\n")
}

// test-broadcastchannel: every other channel of the name gets the message,
// the sender does not.
func TestWorkerThreads_BroadcastChannelFanOut(t *testing.T) {
	expectProgram(t, `
const { Worker, BroadcastChannel } = require('worker_threads');
const code = "const { parentPort, workerData } = require('worker_threads');" +
	"const bc = new BroadcastChannel('news');" +
	"bc.onmessage = (e) => { parentPort.postMessage(workerData + ':' + e.data); bc.close(); };" +
	"parentPort.postMessage('ready');";
const bc = new BroadcastChannel('news');
const other = new BroadcastChannel('other');
let own = 0;
bc.onmessage = () => { own++; };
other.onmessage = () => { own++; };
const got = [];
let ready = 0;
const ws = [1, 2, 3].map((i) => {
	const w = new Worker(code, { eval: true, workerData: i });
	w.on('message', (m) => {
		if (m === 'ready') { if (++ready === 3) bc.postMessage('hello'); return; }
		got.push(m);
		if (got.length === 3) { bc.close(); other.close(); console.log(got.sort().join(' '), own); }
	});
	return w;
});
`, 0, "1:hello 2:hello 3:hello 0\n")
}

// test-worker-message-port-receive-message: receiveMessageOnPort reads
// synchronously, in order.
func TestWorkerThreads_ReceiveMessageOnPort(t *testing.T) {
	expectProgram(t, `
const { MessageChannel, receiveMessageOnPort } = require('worker_threads');
const { port1, port2 } = new MessageChannel();
port1.postMessage({ a: 1 });
port1.postMessage(2);
const r1 = receiveMessageOnPort(port2), r2 = receiveMessageOnPort(port2), r3 = receiveMessageOnPort(port2);
console.log(JSON.stringify([r1, r2, r3 === undefined]));
port1.close();
`, 0, "[{\"message\":{\"a\":1}},{\"message\":2},true]\n")
}

// test-worker-sharedarraybuffer-from-worker / Atomics: four workers add to
// one counter.
func TestWorkerThreads_SharedArrayBufferCounter(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const sab = new SharedArrayBuffer(4);
const ia = new Int32Array(sab);
let exited = 0;
for (let i = 0; i < 4; i++) {
	const w = new Worker("const { workerData } = require('worker_threads'); const ia = new Int32Array(workerData);" +
		"for (let i = 0; i < 10000; i++) Atomics.add(ia, 0, 1);", { eval: true, workerData: sab });
	w.on('exit', () => { if (++exited === 4) console.log(Atomics.load(ia, 0)); });
}
`, 0, "40000\n")
}

// test-worker-unref: an unref'd worker does not keep the program alive.
func TestWorkerThreads_UnrefLetsTheProgramEnd(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker("require('worker_threads').parentPort.on('message', () => {});", { eval: true });
w.unref();
console.log('main done');
`, 0, "main done\n")
}

// test-worker-message-port-close: close fires on both ends; posting on a
// closed port does nothing.
func TestWorkerThreads_PortCloseBothEnds(t *testing.T) {
	expectProgram(t, `
const { MessageChannel } = require('worker_threads');
const { port1, port2 } = new MessageChannel();
const ev = [];
const done = () => { if (ev.length === 3) console.log(ev[0], ev.slice(1).sort().join()); };
port1.on('close', () => { ev.push('close1'); done(); });
port2.on('close', () => { ev.push('close2'); done(); });
port2.on('message', (m) => ev.push(m));
port1.postMessage('m');
port1.close();
port1.postMessage('dropped');
`, 0, "m close1,close2\n")
}

// test-worker-environmentdata, SHARE_ENV, env, argv.
func TestWorkerThreads_EnvironmentDataEnvArgv(t *testing.T) {
	expectProgram(t, `
const { Worker, setEnvironmentData, getEnvironmentData, SHARE_ENV } = require('worker_threads');
setEnvironmentData('k', { v: 7 });
const w = new Worker("const { getEnvironmentData, parentPort } = require('worker_threads');" +
	"parentPort.postMessage([getEnvironmentData('k').v, process.env.JSWORKER_TEST, process.env.OWN, process.argv.slice(2).join('+')].join());",
	{ eval: true, env: { JSWORKER_TEST: 'child', OWN: 'x' }, argv: ['a', 1] });
w.on('message', (m) => console.log(m, getEnvironmentData('k').v));
`, 0, "7,child,x,a+1 7\n")
}

// SHARE_ENV: the worker's process.env is its parent's (what either sets or deletes the other sees); without it the
// worker gets a copy; values become strings, as in Node.
func TestWorkerThreads_ShareEnv(t *testing.T) {
	expectProgram(t, `
const { Worker, SHARE_ENV } = require('worker_threads');
process.env.FROM_MAIN = 'm';
const src = "const { parentPort } = require('worker_threads');" +
	"parentPort.postMessage(process.env.FROM_MAIN); process.env.FROM_WORKER = 42; delete process.env.FROM_MAIN;" +
	"parentPort.postMessage('set');";
const shared = new Worker(src, { eval: true, env: SHARE_ENV });
shared.on('message', (m) => console.log('shared', m));
shared.on('exit', () => {
	console.log(process.env.FROM_WORKER, typeof process.env.FROM_WORKER, 'FROM_MAIN' in process.env);
	process.env.FROM_MAIN = 'again';
	const copy = new Worker(src, { eval: true });
	copy.on('message', (m) => console.log('copy', m, process.env.FROM_MAIN));
});
`, 0, "shared m\nshared set\n42 string false\ncopy again again\ncopy set again\n")
}

// A worker file by path (__filename, relative require of a CommonJS file),
// and a DataCloneError for a port not in the transfer list.
func TestWorkerThreads_WorkerFromFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lib.js"), []byte(`module.exports = { twice: (x) => 2 * x };`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "w.js")
	if err := os.WriteFile(file, []byte(`const { parentPort } = require('worker_threads');
const { twice } = require('./lib.js');
parentPort.postMessage([twice(21), __filename.endsWith('w.js')].join());`), 0o644); err != nil {
		t.Fatal(err)
	}
	expectProgram(t, `
const { Worker, MessageChannel } = require('worker_threads');
const { port1 } = new MessageChannel();
try { new Worker(`+"`"+`0`+"`"+`, { eval: true }).postMessage(port1); } catch (e) { console.log(e.name); }
const w = new Worker(`+"`"+file+"`"+`);
w.on('message', (m) => console.log(m));
try { new Worker('relative.js'); } catch (e) { console.log(e.name); }
port1.close();
`, 0, "DataCloneError\nTypeError\n42,true\n")
}

// resourceLimits.stackSizeMb: 4 MB gives about node's depth (node v20: 41,417 frames of f(k) = 1 + f(k - 1),
// 55,223 of g() { g(); }): a recursion 40,000 deep fits, 60,000 deep does not, under node and here.
func TestWorkerThreads_StackSizeMb(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const src = "const { parentPort, workerData } = require('worker_threads');" +
	"function f(k) { return k === 0 ? 0 : 1 + f(k - 1); } parentPort.postMessage(f(workerData));";
const fits = new Worker(src, { eval: true, workerData: 40000, resourceLimits: { stackSizeMb: 4 } });
fits.on('message', (d) => console.log('depth', d));
fits.on('exit', () => {
	const deep = new Worker(src, { eval: true, workerData: 60000, resourceLimits: { stackSizeMb: 4 } });
	deep.on('message', (d) => console.log('too deep ran', d));
	deep.on('error', (e) => console.log(e.name, e.message));
});
`, 0, "depth 40000\nRangeError Maximum call stack size exceeded\n")
}

// expectTerminatedInside runs a program whose worker runs body (JavaScript source text, as a JS string expression)
// after posting 'up' from inside its long native call; the parent terminates it on that first message, and the
// termination must be prompt.
func expectTerminatedInside(t *testing.T, body string) {
	t.Helper()
	expectProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker("const { parentPort } = require('worker_threads');" + `+body+`, { eval: true });
const got = [];
w.on('message', (m) => got.push(m));
w.once('message', async () => {
	const t0 = Date.now();
	const c = await w.terminate();
	console.log('terminate', c, got.join(), 'prompt', Date.now() - t0 < 2000);
});
`, 0, "terminate 1 up prompt true\n")
}

// terminate() stops a worker inside one long JSON.parse call (a 100 MB text): promptly, where goja's own parse,
// which never looked at the interrupt flag, ran to its end first (about half a minute here).
func TestWorkerThreads_TerminateInsideJSONParse(t *testing.T) {
	expectTerminatedInside(t, `"const big = '[' + ('\"' + 'x'.repeat(1000) + '\",').repeat(100000) + '1]';" +
	"parentPort.postMessage('up'); JSON.parse(big); parentPort.postMessage('parsed');"`)
}

// terminate() stops a worker in the middle of a long Array walk (an array-like of length 2**53 − 1, walked by
// internal/arraybuiltin; the getter at index 100,000 posts 'up' from inside the walk).
func TestWorkerThreads_TerminateInsideArrayWalk(t *testing.T) {
	expectTerminatedInside(t, `"Array.prototype.forEach.call({length: 2**53 - 1, get 100000() { parentPort.postMessage('up') }}, x => x);" +
	"parentPort.postMessage('walked');"`)
}

// terminate() stops a worker spreading a huge array (%ArrayIteratorPrototype%.next polls), as Node's does (node
// v20 prints the same line for the same program).
func TestWorkerThreads_TerminateInsideSpread(t *testing.T) {
	expectTerminatedInside(t, `"Object.defineProperty(Array.prototype, 100000, {get() { parentPort.postMessage('up') }});" +
	"const all = [...new Array(2**32 - 1)]; parentPort.postMessage('spread');"`)
}
