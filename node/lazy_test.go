package node_test

import (
	"os/exec"
	"testing"
)

// compareWithNode runs src as a main program, expects exit code 0 and exactly want on stdout, then runs it under
// node (when installed) and expects the same.
func compareWithNode(t *testing.T, src, want string) {
	t.Helper()
	code, out, errOut := runProgram(t, src)
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 0, %q", code, out, errOut, want)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed: compared with the expected text only")
	}
	b, err := exec.Command("node", "-e", src).CombinedOutput()
	if err != nil || string(b) != want {
		t.Fatalf("node printed %q (%v); want %q", b, err, want)
	}
}

// TestLazyProcess: the process global is made on its first read; a program cannot tell, except by the accessor
// descriptor Node's process has too. nextTick works although the program replaced queueMicrotask before touching
// process, the tick order around promise jobs is Node's, a worker that reads process only late still gets its
// parent's environment, and 'exit' listeners added late run.
func TestLazyProcess(t *testing.T) {
	const src = `
const d = Object.getOwnPropertyDescriptor(globalThis, 'process');
const kinds = [typeof d.get, typeof d.set, d.enumerable, d.configurable].join(' ');
const realQM = queueMicrotask;
globalThis.queueMicrotask = () => { throw new Error('the program queueMicrotask was used'); };
Promise.resolve().then(() => console.log('promise 1'));
process.nextTick(() => console.log('tick 1'));
Promise.resolve().then(() => { console.log('promise 2'); process.nextTick(() => console.log('tick from promise')); });
process.nextTick(() => {
	globalThis.queueMicrotask = realQM;
	console.log('tick 2', kinds, require('process') === process);
	process.env.E17_LAZY = 'parent-value';
	const { Worker } = require('worker_threads');
	const w = new Worker("const { parentPort } = require('worker_threads');" +
		"parentPort.once('message', () => parentPort.postMessage(process.env.E17_LAZY + ' ' + typeof process.nextTick));",
		{ eval: true });
	w.once('message', (m) => { console.log('worker saw', m); w.terminate(); });
	w.postMessage('go');
	process.on('exit', (c) => console.log('exit', c));
});
`
	compareWithNode(t, src,
		"tick 1\ntick 2 function function false true true\npromise 1\npromise 2\ntick from promise\nworker saw parent-value function\nexit 0\n")
}

// TestLazyProcess_Replaced: assigning the global replaces what it reads, as in Node; the library's own uses of
// process (exit code, 'exit') are unaffected.
func TestLazyProcess_Replaced(t *testing.T) {
	compareWithNode(t, `const p = process; globalThis.process = 5; console.log(typeof process, typeof p.nextTick);
p.on('exit', () => console.log('exit seen'));`, "number function\nexit seen\n")
}

// TestLazyWorkerThreadsExports: Worker, MessageChannel and BroadcastChannel, made on first read, are ordinary data
// properties once read, keep their place among the exports, can be replaced before they are read, and work in a
// worker that reads them late.
func TestLazyWorkerThreadsExports(t *testing.T) {
	const src = `
const wt = require('worker_threads');
const names = Object.keys(wt);
console.log(['Worker', 'MessageChannel', 'MessagePort', 'BroadcastChannel'].every((k) => names.includes(k)));
const d = Object.getOwnPropertyDescriptor(wt, (wt.Worker, 'Worker'));
console.log(typeof d.value, d.writable, d.enumerable, d.configurable, wt.Worker === require('worker_threads').Worker);
console.log(typeof wt.MessageChannel, new wt.MessageChannel().port1 instanceof wt.MessagePort);
const w = new wt.Worker("const wt = require('worker_threads');" +
	"const { port1, port2 } = new wt.MessageChannel();" +
	"port2.once('message', (m) => { wt.parentPort.postMessage([m, typeof wt.BroadcastChannel, typeof wt.Worker].join(' ')); port2.close(); });" +
	"port1.postMessage('through a channel');", { eval: true });
w.once('message', (m) => { console.log(m); w.terminate(); });
`
	compareWithNode(t, src, "true\nfunction true true true true\nfunction true\nthrough a channel function function\n")
}
