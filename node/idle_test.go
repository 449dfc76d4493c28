package node_test

import (
	"encoding/json"
	"runtime"
	"strconv"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// idleBudgetKiB bounds the live Go heap an idle Node-style worker costs (worker and parent side together) in
// TestIdleWorkers_Budget. It guards against regressions; bench/node/idle_many.js measures the resident figure
// (docs/benchmarks.md, issue 17). Measured 2026-12-01: 396 KiB before the lazy process, console and worker APIs, 323 KiB after;
// 251 KiB with the lazy allocation guard and the Function constructors guarded in place; 134 KiB with the lazy
// classes (a18); 122 KiB with the Node timers made on first touch and no Symbol constructor (e18); 52 KiB with the
// depth guard's, the Node install's, worker_threads' and ports.js's parts made on first touch and AsyncFunction and
// GeneratorFunction made only for code that makes one (f19, g19, h19, j19, k19); 50 KiB with no web worker globals
// made only to be deleted (o20; budget: that + 10 %).
const idleBudgetKiB = 55

// TestIdleWorkers_Budget starts n Node-style workers that each answer one message, as bench/node/idle_many.js
// does, and measures the live Go heap they hold while idle (after a collection, from inside the program so that
// the workers are alive): every worker must answer and each may cost at most idleBudgetKiB.
func TestIdleWorkers_Budget(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 60
	}
	const src = `
const { Worker } = require('worker_threads');
const CODE = "const { parentPort } = require('worker_threads');\n" +
	"parentPort.on('message', (m) => parentPort.postMessage(m + 1));";
function answered(w, i) {
	return new Promise((res, rej) => {
		w.once('message', (m) => (m === i + 1 ? res(w) : rej(new Error('worker ' + i + ' answered ' + m))));
		w.once('error', rej);
		w.postMessage(i);
	});
}
(async () => {
	const base = liveHeap();
	const ps = [];
	for (let i = 0; i < N; i++) ps.push(answered(new Worker(CODE, { eval: true }), i));
	const ws = await Promise.all(ps);
	const held = liveHeap();
	await Promise.all(ws.map((w) => w.terminate()));
	console.log(JSON.stringify({ workers: ws.length, perWorkerKiB: (held - base) / N / 1024 }));
})();
`
	code, out, errOut := runProgramOpts(t, "const N = "+strconv.Itoa(n)+";\n"+src, core.Options{Setup: func(w *core.Worker, rt *goja.Runtime) error {
		return rt.Set("liveHeap", func() float64 {
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return float64(ms.HeapAlloc)
		})
	}})
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	var r struct {
		Workers      int
		PerWorkerKiB float64
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Workers != n {
		t.Fatalf("output %q (%v); want %d workers", out, err, n)
	}
	t.Logf("%d idle Node-style workers: %.0f KiB of live Go heap each", n, r.PerWorkerKiB)
	if r.PerWorkerKiB > idleBudgetKiB {
		t.Errorf("an idle worker holds %.0f KiB of live Go heap; the budget is %d KiB", r.PerWorkerKiB, idleBudgetKiB)
	}
}
