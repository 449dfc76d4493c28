package inspector

import (
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// overheadSrc is core's BenchmarkInspectable workload, without the worker.
const overheadSrc = `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function loop(n) { var s = 0; for (var i = 0; i < n; i++) { s += i; } return s; }
function sort(n) { var a = []; for (var i = 0; i < n; i++) a.push({ k: (i * 7919) % n }); a.sort((x, y) => x.k - y.k); return a.length; }`

// BenchmarkOverhead measures what instrumentation costs with no session
// attached, the plain (depth-guarded, as core compiles it) and the instrumented program run alternately in two
// runtimes (so that a busy machine slows both alike). It reports, per
// workload, the ratio of the fastest instrumented run to the fastest plain
// one (x-fib, x-loop, x-sort); ns/op is one round of all six runs.
func BenchmarkOverhead(b *testing.B) {
	plain, inst := goja.New(), goja.New()
	if err := depthguard.Ensure(plain); err != nil { // both pay the depth guard, as in core
		b.Fatal(err)
	}
	plainPrg, err := depthguard.Compile("bench.js", overheadSrc, false)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := plain.RunProgram(plainPrg); err != nil {
		b.Fatal(err)
	}
	d := NewDebugger()
	if err := d.Install(inst, nil); err != nil {
		b.Fatal(err)
	}
	prg, err := d.Compile("bench.js", overheadSrc)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := inst.RunProgram(prg); err != nil {
		b.Fatal(err)
	}
	works := []struct{ name, call string }{{"fib", "fib(20)"}, {"loop", "loop(100000)"}, {"sort", "sort(10000)"}}
	best := make([][2]time.Duration, len(works))
	for i := range best {
		best[i] = [2]time.Duration{time.Hour, time.Hour}
	}
	progs := make([]*goja.Program, len(works))
	for i, w := range works {
		progs[i] = goja.MustCompile("call.js", w.call, false)
	}
	for b.Loop() {
		for i := range works {
			for k, rt := range []*goja.Runtime{plain, inst} {
				start := time.Now()
				if _, err := rt.RunProgram(progs[i]); err != nil {
					b.Fatal(err)
				}
				best[i][k] = min(best[i][k], time.Since(start))
			}
		}
	}
	for i, w := range works {
		b.ReportMetric(float64(best[i][1])/float64(best[i][0]), "x-"+w.name)
	}
}
