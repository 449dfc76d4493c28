package node_test

import (
	"os/exec"
	"testing"
)

// oomProgram runs a worker_threads Worker that grows without bound under resourceLimits beside one that echoes
// messages: the first ends as in Node (its message first, then an 'error' event with ERR_WORKER_OUT_OF_MEMORY and
// Node's message, then exit code 1); the other answers every message, sent before and after, in order.
const oomProgram = `const { Worker } = require('worker_threads');
const grow = new Worker('const { parentPort } = require("worker_threads"); parentPort.postMessage("started");' +
	' const a = []; for (;;) a.push({x: a.length, s: "y".repeat(10) + a.length})',
	{ eval: true, resourceLimits: { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 8 } });
const echo = new Worker('const { parentPort } = require("worker_threads"); parentPort.on("message", (m) => parentPort.postMessage(m))',
	{ eval: true, resourceLimits: { maxOldGenerationSizeMb: 64 } });
let got = 0;
echo.on('message', (m) => { if (m !== got++) console.log('out of order', m); if (got === 200) { console.log('echo answered', got); echo.terminate(); } });
for (let i = 0; i < 100; i++) echo.postMessage(i);
grow.on('message', (m) => console.log('message', m));
grow.on('error', (e) => console.log('error', e.name, e.code, e.message, e instanceof Error, Object.keys(e).join(), e.stack.split('\n')[0]));
grow.on('exit', (c) => { console.log('exit', c); for (let i = 100; i < 200; i++) echo.postMessage(i); });
`

const oomOutput = "message started\n" +
	"error Error ERR_WORKER_OUT_OF_MEMORY Worker terminated due to reaching memory limit: JS heap out of memory true code " +
	"Error [ERR_WORKER_OUT_OF_MEMORY]: Worker terminated due to reaching memory limit: JS heap out of memory\n" +
	"exit 1\necho answered 200\n"

func TestWorkerThreads_ResourceLimitsOutOfMemory(t *testing.T) {
	expectProgram(t, oomProgram, 0, oomOutput)
}

// The same program under node prints the same (skipped when node is not installed).
func TestWorkerThreads_ResourceLimitsOutOfMemoryNode(t *testing.T) {
	if testing.Short() {
		t.Skip("runs node")
	}
	path, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	out, err := exec.Command(path, "-e", oomProgram).Output()
	if err != nil || string(out) != oomOutput {
		t.Fatalf("node: %v, stdout %q", err, out)
	}
}

// A budget that is never reached never fires: a worker holding a structure well below its resourceLimits
// exits normally.
func TestWorkerThreads_ResourceLimitsNotReached(t *testing.T) {
	expectProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker('const { parentPort } = require("worker_threads"); const keep = [];' +
	' for (let i = 0; i < 20000; i++) keep.push({i}); parentPort.postMessage(keep.length)',
	{ eval: true, resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 } });
w.on('message', (m) => console.log('kept', m));
w.on('error', (e) => console.log('error', e.code));
w.on('exit', (c) => console.log('exit', c));
`, 0, "kept 20000\nexit 0\n")
}
