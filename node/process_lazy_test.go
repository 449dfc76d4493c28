package node_test

import (
	"os/exec"
	"testing"
)

// lazyProcessProgram looks at process the way a program could tell it was made late: its descriptor before the
// first use, nextTick after the program replaced queueMicrotask, a worker's process.env after the parent changed
// its own, and an exit listener added from a worker that touched process only then.
const lazyProcessProgram = `
const d = Object.getOwnPropertyDescriptor(globalThis, 'process');
const kinds = [typeof d.get, typeof d.set, d.enumerable, d.configurable].join(' ');
const realQM = queueMicrotask;
globalThis.queueMicrotask = () => { throw new Error('user queueMicrotask used'); };
process.nextTick(() => {
	globalThis.queueMicrotask = realQM;
	console.log('descriptor', kinds);
	console.log('nextTick ran', require('process') === process);
	process.env.LAZY_CHECK = 'from-parent';
	const { Worker } = require('worker_threads');
	const w = new Worker("const { parentPort } = require('worker_threads');" +
		"parentPort.once('message', () => { parentPort.postMessage(process.env.LAZY_CHECK); });", { eval: true });
	w.once('message', (m) => { console.log('child env', m); w.terminate(); });
	w.postMessage('go');
	process.on('exit', (c) => console.log('exit', c));
});
`

// TestProcess_Lazy: the process global, made on first use, behaves as Node's does for all of the above.
func TestProcess_Lazy(t *testing.T) {
	const want = "descriptor function function false true\nnextTick ran true\nchild env from-parent\nexit 0\n"
	code, out, errOut := runProgram(t, lazyProcessProgram)
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want 0, %q", code, out, errOut, want)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed: compared with the expected text only")
	}
	b, err := exec.Command("node", "-e", lazyProcessProgram).CombinedOutput()
	if err != nil || string(b) != want {
		t.Fatalf("node printed %q (%v); want %q", b, err, want)
	}
}
