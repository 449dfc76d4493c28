package core_test

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// threadModes runs a benchmark for both kinds of worker thread.
var threadModes = []struct {
	name      string
	dedicated bool
}{{"goroutine", false}, {"dedicated", true}}

// BenchmarkSpawnFirstMessage measures spawn → first message received by the
// host → release: Node's "sequential spawn→first msg" (20.5 ms here).
func BenchmarkSpawnFirstMessage(b *testing.B) {
	for _, m := range threadModes {
		b.Run(m.name, func(b *testing.B) {
			rt := goja.New()
			for b.Loop() {
				w, err := core.Spawn(`postMessage("ready")`, core.Options{DedicatedThread: m.dedicated})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := w.Receive(rt, long); err != nil {
					b.Fatal(err)
				}
				w.Release()
			}
		})
	}
}

// BenchmarkIdleWorkerMemory keeps many idle workers alive (each has run a
// script that installed a message handler) and reports the memory each one
// holds: Go heap + goroutine stacks after GC, and the growth of the
// process's resident set. Node: 8.18 MiB RSS per idle worker.
func BenchmarkIdleWorkerMemory(b *testing.B) {
	for _, m := range threadModes {
		b.Run(m.name, func(b *testing.B) {
			const n = 200
			rt := goja.New()
			var perHeap, perRSS float64
			for b.Loop() {
				heap0, rss0 := memNow()
				ws := make([]*core.Worker, n)
				for i := range ws {
					w, err := core.Spawn(`var state = {hits: 0}; onmessage = function (e) { state.hits++; postMessage(e.data); };`,
						core.Options{DedicatedThread: m.dedicated})
					if err != nil {
						b.Fatal(err)
					}
					ws[i] = w
					w.PostMessage(rt, rt.ToValue(i)) // every worker is fully started and has served a message
				}
				for _, w := range ws {
					if _, err := w.Receive(rt, long); err != nil {
						b.Fatal(err)
					}
				}
				heap1, rss1 := memNow()
				perHeap = float64(heap1-heap0) / n
				perRSS = float64(rss1-rss0) / n
				for _, w := range ws {
					w.Release()
				}
			}
			b.ReportMetric(perHeap/(1<<20), "heap-MiB/worker")
			b.ReportMetric(perRSS/(1<<20), "rss-MiB/worker")
		})
	}
}

func memNow() (heap, rss int64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap = int64(ms.HeapInuse + ms.StackInuse)
	if data, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := strings.Fields(string(data)); len(f) > 1 {
			pages, _ := strconv.ParseInt(f[1], 10, 64)
			rss = pages * int64(os.Getpagesize())
		}
	}
	return heap, rss
}

// BenchmarkRoundTrip measures one small message main → worker → main:
// Node's parentPort round trip (50.6 µs median here).
func BenchmarkRoundTrip(b *testing.B) {
	for _, m := range threadModes {
		b.Run(m.name, func(b *testing.B) {
			rt := goja.New()
			w, err := core.Spawn(`onmessage = function (e) { postMessage(e.data); };`, core.Options{DedicatedThread: m.dedicated})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Release()
			i := 0
			for b.Loop() {
				if err := w.PostMessage(rt, rt.ToValue(i)); err != nil {
					b.Fatal(err)
				}
				if _, err := w.Receive(rt, long); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkRoundTripWorkerToWorker measures a round trip between two
// workers whose outboxes feed each other's inboxes directly (the notify hook
// forwards frames on the sender's thread; no host thread is involved).
func BenchmarkRoundTripWorkerToWorker(b *testing.B) {
	for _, m := range threadModes {
		b.Run(m.name, func(b *testing.B) {
			rt := goja.New()
			done := make(chan struct{})
			pinger, err := core.Spawn(`var last;
				onmessage = function (e) {
					if (typeof e.data === "object") { last = e.data.n; postMessage(0); return; }
					if (e.data >= last) finished(); else postMessage(e.data + 1);
				};`, core.Options{DedicatedThread: m.dedicated, Setup: func(w *core.Worker, rt *goja.Runtime) error {
				return rt.Set("finished", func() { done <- struct{}{} })
			}})
			if err != nil {
				b.Fatal(err)
			}
			defer pinger.Release()
			ponger, err := core.Spawn(`onmessage = function (e) { postMessage(e.data + 1); };`, core.Options{DedicatedThread: m.dedicated})
			if err != nil {
				b.Fatal(err)
			}
			defer ponger.Release()
			forward := func(from, to *core.Worker) func() {
				return func() {
					for {
						f, err := from.ReceiveFrame(0)
						if err != nil {
							return
						}
						to.PostFrame(f)
					}
				}
			}
			pinger.SetNotify(forward(pinger, ponger))
			ponger.SetNotify(forward(ponger, pinger))
			start := rt.NewObject()
			start.Set("n", 2*b.N-1)
			b.ResetTimer()
			if err := pinger.PostMessage(rt, start); err != nil {
				b.Fatal(err)
			}
			<-done
		})
	}
}

// BenchmarkThroughput posts small {i, s} messages one way as fast as the
// sender can: Node's main→worker 604k msg/s and worker→main 564k msg/s.
func BenchmarkThroughput(b *testing.B) {
	for _, m := range threadModes {
		big := core.ChannelLimits{MaxQueuedMessages: 1 << 22, MaxQueuedBytes: 1 << 30}
		b.Run("main-to-worker/"+m.name, func(b *testing.B) {
			rt := goja.New()
			w, err := core.Spawn(`var got = 0; onmessage = function (e) { if (e.data.i < 0) postMessage(got); else got++; };`,
				core.Options{DedicatedThread: m.dedicated, Inbox: big})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Release()
			msg := rt.NewObject()
			msg.Set("s", "hello")
			for i := 0; b.Loop(); i++ {
				msg.Set("i", i)
				if err := w.PostMessage(rt, msg); err != nil {
					b.Fatal(err)
				}
			}
			msg.Set("i", -1)
			w.PostMessage(rt, msg)
			v, err := w.Receive(rt, time.Minute)
			if err != nil || v.ToInteger() != int64(b.N) {
				b.Fatalf("worker got %v messages (%v), want %d", v, err, b.N)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
		b.Run("worker-to-main/"+m.name, func(b *testing.B) {
			rt := goja.New()
			w, err := core.Spawn(`onmessage = function (e) { for (var i = 0; i < e.data; i++) postMessage({i: i, s: "hello"}); };`,
				core.Options{DedicatedThread: m.dedicated, Outbox: big})
			if err != nil {
				b.Fatal(err)
			}
			defer w.Release()
			b.ResetTimer()
			w.PostMessage(rt, rt.ToValue(b.N))
			for i := range b.N {
				v, err := w.Receive(rt, time.Minute)
				if err != nil {
					b.Fatal(err)
				}
				if i == b.N-1 && v.(*goja.Object).Get("i").ToInteger() != int64(i) {
					b.Fatal(fmt.Sprint("last message out of order: ", v.Export()))
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}
