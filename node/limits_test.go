package node_test

import "testing"

// A worker_threads worker asking for more than any machine has gets a catchable RangeError with V8's message, as in
// Node, and lives on; so does the main program (issue 16: a Go fatal out-of-memory is never reachable from
// JavaScript).
func TestWorkerThreads_HugeAllocationsThrow(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const probe = "const out = [];" +
	"for (const f of [() => new ArrayBuffer(2**40), () => new Uint8Array(2**40), () => 'x'.repeat(2**30), () => new Array(2**32 - 1).fill(0)]) {" +
	"  try { f(); out.push('no error'); } catch (e) { out.push(e.constructor.name + ': ' + e.message); } }" +
	"out.join('; ')";
const w = new Worker("const { parentPort } = require('worker_threads'); parentPort.postMessage(eval(" + JSON.stringify(probe) + "));", { eval: true });
w.on('message', (m) => { console.log(m); console.log('main:', eval(probe).length > 0); });
w.on('exit', (c) => console.log('exit', c));
`, 0, "RangeError: Array buffer allocation failed; RangeError: Invalid typed array length: 1099511627776; "+
		"RangeError: Invalid string length; RangeError: Invalid array length\nmain: true\nexit 0\n")
}
