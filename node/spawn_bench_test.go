package node_test

import (
	"strconv"
	"testing"

	"github.com/jsworker/jsworker/core"
)

// BenchmarkNodeWorkerFirstMessage: a main program spawns b.N Node-style workers one after the other, each
// requiring worker_threads and posting 'ready' on its parentPort, and waits for each first message (bench/node's
// spawn.js, sequential part). With -benchmem the figures include the main program's own start, once.
func BenchmarkNodeWorkerFirstMessage(b *testing.B) {
	src := `const { Worker } = require('worker_threads');
const CODE = "require('worker_threads').parentPort.postMessage('ready')";
(async () => {
	for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) {
		const w = new Worker(CODE, { eval: true });
		await new Promise((res) => w.once('message', res));
		await w.terminate();
	}
})();`
	b.ReportAllocs()
	b.ResetTimer()
	code, out, errOut := runProgramOpts(b, src, core.Options{})
	if code != 0 || out != "" || errOut != "" {
		b.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
