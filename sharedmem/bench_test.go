package sharedmem

import (
	"fmt"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// The JavaScript below is the same as Node's in testdata/node/ (run them
// with `node testdata/node/pingpong.js` and `node testdata/node/add4.js`).

// Two realms on two goroutines, as two workers: one round trip is realm 0
// handing the turn to realm 1 and getting it back, each side sleeping in
// Atomics.wait until notified. Reports ns per round trip.
func BenchmarkWaitNotifyPingPong(b *testing.B) {
	blk, err := NewBlock(8, -1)
	if err != nil {
		b.Fatal(err)
	}
	defer blk.Release()
	ls := loops(b, 2, RealmOptions{CanBlock: true})
	for _, l := range ls {
		l.share(b, "sab", blk)
		if _, err := l.Eval(`
			var ia = new Int32Array(sab);
			function ping(ia, n) {        // realm 0
				for (let i = 0; i < n; i++) {
					Atomics.store(ia, 0, 1);
					Atomics.notify(ia, 0);
					while (Atomics.load(ia, 0) === 1) Atomics.wait(ia, 0, 1);
				}
			}
			function pong(ia, n) {        // realm 1
				for (let i = 0; i < n; i++) {
					while (Atomics.load(ia, 0) === 0) Atomics.wait(ia, 0, 0);
					Atomics.store(ia, 0, 0);
					Atomics.notify(ia, 0);
				}
			}`); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	c1 := ls[1].Go(fmt.Sprintf("pong(ia, %d)", b.N))
	c0 := ls[0].Go(fmt.Sprintf("ping(ia, %d)", b.N))
	if r := <-c0; r.err != nil {
		b.Fatal(r.err)
	}
	if r := <-c1; r.err != nil {
		b.Fatal(r.err)
	}
}

// Four realms on four goroutines each do 1,000,000 Atomics.add on the same
// counter; one op is the whole run (wall time until all four are done).
func BenchmarkAtomicsAdd4x1e6(b *testing.B) {
	bench4x1e6(b, "Atomics.add(ia, 0, 1)", true)
}

// The floor of BenchmarkAtomicsAdd4x1e6 in goja: the same loop calling an
// empty Go function the same way (a method of the Atomics object), so that
// the difference is what Atomics.add itself costs.
func BenchmarkHostCallFloor4x1e6(b *testing.B) {
	bench4x1e6(b, "Atomics.nop(ia, 0, 1)", false)
}

func bench4x1e6(b *testing.B, call string, check bool) {
	const perRealm = 1_000_000
	blk, err := NewBlock(8, -1)
	if err != nil {
		b.Fatal(err)
	}
	defer blk.Release()
	ls := loops(b, 4, RealmOptions{CanBlock: true})
	for _, l := range ls {
		l.share(b, "sab", blk)
		l.Do(func(rt *goja.Runtime) {
			rt.Get("Atomics").(*goja.Object).Set("nop", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
		})
		if _, err := l.Eval(`var ia = new Int32Array(sab);
			function work(ia, n) { for (let i = 0; i < n; i++) ` + call + `; }`); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for range b.N {
		var chans []<-chan result
		for _, l := range ls {
			chans = append(chans, l.Go(fmt.Sprintf("work(ia, %d)", perRealm)))
		}
		for _, ch := range chans {
			if r := <-ch; r.err != nil {
				b.Fatal(r.err)
			}
		}
	}
	b.StopTimer()
	if check {
		if v, _ := ls[0].Eval(`Atomics.load(ia, 0)`); v != int64(4*perRealm*b.N) {
			b.Fatalf("total %v, want %d", v, 4*perRealm*b.N)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
}

// One realm: the cost of one Atomics.add call inside a JavaScript loop,
// next to the loop with a plain increment and with an empty host function.
func BenchmarkAtomicsCall(b *testing.B) {
	for _, c := range []struct{ name, body string }{
		{"Atomics.add", "Atomics.add(ia, 0, 1)"},
		{"Atomics.load", "Atomics.load(ia, 0)"},
		{"Atomics.add/Int8", "Atomics.add(i8, 1, 1)"},
		{"Atomics.add/BigInt64", "Atomics.add(i64, 1, 1n)"},
		{"ia[0]++", "ia[0]++"},
		{"noop", "noop(ia, 0, 1)"},
	} {
		b.Run(c.name, func(b *testing.B) {
			rt := goja.New()
			if err := Install(rt, RealmOptions{}); err != nil {
				b.Fatal(err)
			}
			defer Uninstall(rt)
			rt.Set("noop", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
			prog := goja.MustCompile("bench", fmt.Sprintf(`(function (n) {
				const sab = new SharedArrayBuffer(16), ia = new Int32Array(sab), i8 = new Int8Array(sab), i64 = new BigInt64Array(sab);
				for (let i = 0; i < n; i++) %s;
			})`, c.body), false)
			fv, err := rt.RunProgram(prog)
			if err != nil {
				b.Fatal(err)
			}
			f, _ := goja.AssertFunction(fv)
			b.ResetTimer()
			if _, err := f(nil, rt.ToValue(b.N)); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// The cost Install adds to every worker realm. core's realm setup has
// already made Error and RangeError by then (goja creates intrinsics on
// first use), so the runtimes here have them too, outside the timer.
func BenchmarkInstall(b *testing.B) {
	for range b.N {
		b.StopTimer()
		rt := goja.New()
		rt.GlobalObject().Get("Error")
		rt.GlobalObject().Get("RangeError")
		b.StartTimer()
		if err := Install(rt, RealmOptions{CanBlock: true}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		Uninstall(rt)
		b.StartTimer()
	}
}

// Wake-up latency of a blocked wait after Interrupt closes.
func BenchmarkInterruptWake(b *testing.B) {
	blk, err := NewBlock(8, -1)
	if err != nil {
		b.Fatal(err)
	}
	defer blk.Release()
	var total time.Duration
	for range b.N {
		l := newLoop(b, RealmOptions{CanBlock: true})
		l.share(b, "sab", blk)
		ch := l.Go(`Atomics.wait(new Int32Array(sab), 0, 0)`)
		for blk.waiterCount(0) == 0 {
			time.Sleep(10 * time.Microsecond)
		}
		start := time.Now()
		l.Interrupt()
		<-ch
		total += time.Since(start)
		l.Close()
	}
	b.ReportMetric(float64(total.Microseconds())/float64(b.N), "µs/wake")
}
