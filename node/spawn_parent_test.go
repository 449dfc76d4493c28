package node_test

import "testing"

// The parent's side of a Node-style spawn made cheaper (n20: N.spawn's arguments, process.env's snapshot, threadId
// from Go, 'online' and 'exit' without listeners not emitted): what a program sees is as before, and as node's
// where the two agree.

// TestWorkerEnv_SnapshotLikeNode: a worker gets process.env as it is at its spawn, whatever changed since the last
// spawn — a value (of the same or another length), a name deleted or added back, a change between two spawns in one
// turn, a non-ASCII value — while workers spawned with nothing changed share its bytes (envframe.go). With node
// (names sorted: node lists its environment in its own order).
func TestWorkerEnv_SnapshotLikeNode(t *testing.T) {
	const src = `const { Worker } = require('worker_threads');
const code = "const { parentPort } = require('worker_threads'); parentPort.postMessage(Object.keys(process.env).sort()" +
  ".filter((k) => k.startsWith('N20_')).map((k) => k + '=' + process.env[k]).join(','));";
const run = () => new Promise((res) => new Worker(code, { eval: true }).once('message', res));
(async () => {
  const out = [];
  process.env.N20_A = 'a'; process.env.N20_B = 'b';
  out.push(await run(), await run());
  process.env.N20_A = 'x'; out.push(await run());
  process.env.N20_A = 'xyz'; out.push(await run());
  delete process.env.N20_A; out.push(await run());
  process.env.N20_A = 'a'; out.push(await run());
  process.env.N20_C = 'c'; out.push(await run());
  const p1 = run(); process.env.N20_C = 'd'; const p2 = run(); process.env.N20_C = 'é'; const p3 = run();
  out.push(await p1, await p2, await p3);
  console.log(out.join('|'));
})();
`
	compareWithNode(t, src, "N20_A=a,N20_B=b|N20_A=a,N20_B=b|N20_A=x,N20_B=b|N20_A=xyz,N20_B=b|N20_B=b|N20_A=a,N20_B=b|"+
		"N20_A=a,N20_B=b,N20_C=c|N20_A=a,N20_B=b,N20_C=c|N20_A=a,N20_B=b,N20_C=d|N20_A=a,N20_B=b,N20_C=é\n")
}

// TestWorkerEnv_SnapshotAsBefore: what node's process.env cannot hold (ours is a plain object until SHARE_ENV) is
// sent as before: a process.env replaced by another object, an accessor (read at every spawn), an object value
// changed inside, a number and then another kind of value, -0 and 0, a property made enumerable later. The lines
// are the base build's (4f9315e), which serialized process.env at every spawn.
func TestWorkerEnv_SnapshotAsBefore(t *testing.T) {
	const src = `const { Worker } = require('worker_threads');
const code = "const { parentPort } = require('worker_threads'); parentPort.postMessage(Object.keys(process.env)" +
  ".filter((k) => k.startsWith('N20_')).map((k) => { const v = process.env[k]; return k + '=' + (Object.is(v, -0) ? '-0' : JSON.stringify(v)) + ':' + typeof v; }).join(','));";
const run = () => new Promise((res) => new Worker(code, { eval: true }).once('message', res));
(async () => {
  const out = [];
  process.env.N20_A = 'a';
  out.push(await run());
  process.env = Object.assign({}, process.env, { N20_R: 'r' }); out.push(await run(), await run());
  let n = 0;
  Object.defineProperty(process.env, 'N20_G', { get() { return 'g' + (++n); }, enumerable: true, configurable: true });
  out.push(await run(), await run());
  delete process.env.N20_G;
  process.env.N20_O = { v: 1 }; out.push(await run());
  process.env.N20_O.v = 2; out.push(await run());
  delete process.env.N20_O;
  process.env.N20_N = 1; out.push(await run());
  process.env.N20_N = 1.5; out.push(await run());
  process.env.N20_N = '1.5'; out.push(await run());
  process.env.N20_N = -0; out.push(await run());
  process.env.N20_N = 0; out.push(await run());
  Object.defineProperty(process.env, 'N20_H', { value: 'hidden', enumerable: false, configurable: true }); out.push(await run());
  Object.defineProperty(process.env, 'N20_H', { enumerable: true }); out.push(await run());
  console.log(out.join('\n'));
})();
`
	const want = `N20_A="a":string
N20_A="a":string,N20_R="r":string
N20_A="a":string,N20_R="r":string
N20_A="a":string,N20_R="r":string,N20_G="g1":string
N20_A="a":string,N20_R="r":string,N20_G="g2":string
N20_A="a":string,N20_R="r":string,N20_O={"v":1}:object
N20_A="a":string,N20_R="r":string,N20_O={"v":2}:object
N20_A="a":string,N20_R="r":string,N20_N=1:number
N20_A="a":string,N20_R="r":string,N20_N=1.5:number
N20_A="a":string,N20_R="r":string,N20_N="1.5":string
N20_A="a":string,N20_R="r":string,N20_N=-0:number
N20_A="a":string,N20_R="r":string,N20_N=0:number
N20_A="a":string,N20_R="r":string,N20_N=0:number
N20_A="a":string,N20_R="r":string,N20_N=0:number,N20_H="hidden":string
`
	if code, out, errOut := runProgram(t, src); code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// TestWorkerOptions_AsBefore: the options are read in the same order and as often as before (a Proxy counts the
// reads), the Worker's own symbol properties have the same attributes, threadId is -1 once the worker has exited
// (also after a compile error) but on a frozen Worker, the option errors are the same, and a Worker whose options
// have getters still starts. The lines are the base build's (4f9315e).
func TestWorkerOptions_AsBefore(t *testing.T) {
	const src = `const { Worker } = require('worker_threads');
const once = (w, e) => new Promise((res) => w.once(e, res));
(async () => {
  const reads = [];
  const target = { eval: true, name: 'n', argv: [1, 'b'], workerData: { a: 1 }, resourceLimits: { stackSizeMb: 2, maxOldGenerationSizeMb: 64 }, type: 'classic' };
  const opts = new Proxy(target, { get(t, k, r) { reads.push(String(k)); return Reflect.get(t, k, r); } });
  const w = new Worker("require('worker_threads').parentPort.postMessage([process.argv.slice(2), require('worker_threads').workerData])", opts);
  console.log(reads.join(','));
  console.log(Object.getOwnPropertySymbols(w).map((s) => s.toString() + JSON.stringify(Object.getOwnPropertyDescriptor(w, s),
    (k, v) => k === 'value' && typeof v === 'number' ? 'num' : v)).join(' '), Object.keys(w).length, typeof w.threadId, w.threadId > 0);
  console.log('message', JSON.stringify(await once(w, 'message')));
  console.log('exit', await once(w, 'exit'), w.threadId);
  const w2 = new Worker('process.exit(3)', { eval: true });
  console.log('exit', await once(w2, 'exit'), w2.threadId);
  const w3 = new Worker('process.exit(4)', { eval: true });
  const e3 = once(w3, 'exit');
  Object.freeze(w3);
  console.log('frozen exit', await e3, w3.threadId > 0);
  const w4 = new Worker('syntax error here', { eval: true });
  console.log(typeof w4.threadId, w4.threadId);
  console.log('error', (await once(w4, 'error')).name, w4.threadId);
  for (const [f, o] of [['', { eval: true, argv: 5 }], ['', { eval: true, env: 5 }], ['', 5], [5, { eval: true }]]) {
    try { new Worker(f, o); } catch (e) { console.log(e.name, e.message); }
  }
  const w5 = new Worker('', { get eval() { return true; }, get argv() { return ['x']; } });
  console.log(typeof w5.threadId, await once(w5, 'exit'));
})();
`
	const want = `env,env,argv,argv,resourceLimits,eval,name,name,argv,argv,env,workerData,workerData,transferList,type,type
Symbol(kLimits){"value":{"stackSizeMb":2,"maxOldGenerationSizeMb":64},"writable":false,"enumerable":false,"configurable":false} Symbol(kThreadId){"value":"num","writable":true,"enumerable":false,"configurable":false} 0 number true
message [["1","b"],{"a":1}]
exit 0 -1
exit 3 -1
frozen exit 4 true
number -1
error SyntaxError -1
TypeError The "options.argv" property must be an array.
TypeError The "options.env" property must be of type object.
TypeError The "options" argument must be of type object.
TypeError The "filename" argument must be a string when options.eval is true.
number 0
`
	if code, out, errOut := runProgram(t, src); code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// TestWorkerEvents_WithoutListeners: 'online' and 'exit' are not emitted when nobody listens (n20: the parent
// skips the emit), which a program sees only as the same order as before and as node's: listeners added before
// the first drain get 'online', one added for 'exit' after 'online' gets it, a worker with no listeners at all ends
// without trouble, and 'error' without a listener is still an uncaught exception of the parent. With node.
func TestWorkerEvents_WithoutListeners(t *testing.T) {
	const src = `const { Worker } = require('worker_threads');
const ev = [];
const a = new Worker("require('worker_threads').parentPort.postMessage('hi')", { eval: true });
a.on('online', () => { ev.push('online'); a.on('exit', (c) => { ev.push('exit ' + c); next(); }); });
a.on('message', (m) => ev.push('message ' + m));
function next() {
  const b = new Worker('', { eval: true }); // no listener at all
  const c = new Worker('', { eval: true });
  c.on('exit', (code) => { ev.push('c exit ' + code); last(); });
}
function last() {
  process.on('uncaughtException', (e) => { console.log(ev.join(','), '|', e.message); });
  new Worker("throw new Error('boom')", { eval: true });
}
`
	compareWithNode(t, src, "online,message hi,exit 0,c exit 0 | boom\n")
}
