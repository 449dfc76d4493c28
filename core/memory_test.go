package core_test

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// recorder collects a worker's error records.
type recorder struct {
	mu   sync.Mutex
	recs []core.ErrorRecord
}

func (r *recorder) add(rec core.ErrorRecord) {
	r.mu.Lock()
	r.recs = append(r.recs, rec)
	r.mu.Unlock()
}

func (r *recorder) kinds() []core.ErrorKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ks []core.ErrorKind
	for _, rec := range r.recs {
		ks = append(ks, rec.Kind)
	}
	return ks
}

// echo is a worker that answers every message with the same value.
const echo = `onmessage = function (e) { postMessage(e.data) }`

// roundTrips posts n messages to w and checks that every one comes back, in order.
func roundTrips(t *testing.T, w *core.Worker, n int) {
	t.Helper()
	rt := goja.New()
	for i := range n {
		if err := w.PostMessage(rt, rt.ToValue(i)); err != nil {
			t.Fatalf("post %d: %v", i, err)
		}
	}
	for i := range n {
		v, err := w.Receive(rt, 30*time.Second)
		if err != nil || v.ToInteger() != int64(i) {
			t.Fatalf("reply %d = %v, %v", i, v, err)
		}
	}
}

// A worker that grows past Options.MaxHeapBytes is terminated with one ErrorOutOfMemory record and Join returns
// ErrWorkerOutOfMemory, whether it grows through function calls (the depth guard's checkpoint), in a loop that
// calls no function (the monitor's fallback), or one message at a time (the checkpoint between tasks). What it
// posted before is still there to receive, and another worker goes on answering every message.
// spawnBudgeted spawns src with the memory budget and an error recorder, and beside it an echo worker with the same
// budget, which must go on answering while src's worker grows; both are released when the test ends.
func spawnBudgeted(t *testing.T, src string, budget int64) (w, other *core.Worker, rec *recorder) {
	t.Helper()
	other, err := core.Spawn(echo, core.Options{MaxHeapBytes: budget})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Release)
	rec = new(recorder)
	w, err = core.Spawn(src, core.Options{MaxHeapBytes: budget, OnError: rec.add})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Release)
	return w, other, rec
}

// joinOOM is how long TestWorker_MemoryBudget waits for a worker growing past its budget to be terminated.
const joinOOM = 5 * time.Minute

func TestWorker_MemoryBudget(t *testing.T) {
	const budget = 32 << 20
	cases := map[string]string{
		// Each call keeps a kilobyte string: a realm of few objects per MiB, which the measurements walk quickly
		// (with one small string a call, a 35 MiB realm took 13 s a walk under -race and load).
		"calls":   `postMessage("started"); var a = []; function add(i) { a.push({i: i, s: "x".repeat(1000) + i}) } for (var i = 0; ; i++) add(i)`,
		"loop":    `postMessage("started"); var a = [], i = 0; for (;;) { a[i] = {i: i}; i++ }`,
		"strings": `postMessage("started"); var a = []; for (;;) a.push("y".repeat(1000) + a.length)`,
		"messages": `postMessage("started"); var keep = [];
			onmessage = function () { var b = []; for (var i = 0; i < 20000; i++) b.push({i: i}); keep.push(b); postMessage(keep.length) }`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			w, other, rec := spawnBudgeted(t, src, budget)
			rt := goja.New()
			if v, err := w.Receive(rt, 30*time.Second); err != nil || v.String() != "started" {
				t.Fatalf("first message = %v, %v", v, err)
			}
			if name == "messages" {
				for i := 0; ; i++ {
					if err := w.PostMessage(rt, rt.ToValue(i)); err != nil {
						break // the worker was terminated: its inbox is closed
					}
					if _, err := w.Receive(rt, 30*time.Second); err != nil {
						break
					}
					if i > 10000 {
						t.Fatal("the worker was never stopped")
					}
				}
			}
			roundTrips(t, other, 50) // while the worker grows
			// The wait is bounded by the worker's own progress: growing past the budget takes several measurements
			// of its whole realm (gojainternal.ReachableBytes, each O(objects)), and under -race on a loaded machine
			// one walk of a 35 MiB realm of small objects took 13 s, the whole growth up to 225 s (load average 13-17,
			// a CPU burner beside, two cores).
			if err := w.Join(joinOOM); !errors.Is(err, core.ErrWorkerOutOfMemory) {
				t.Fatalf("Join = %v, want ErrWorkerOutOfMemory", err)
			}
			if ks := rec.kinds(); len(ks) != 1 || ks[0] != core.ErrorOutOfMemory {
				t.Fatalf("records = %v, want one ErrorOutOfMemory", ks)
			}
			rec.mu.Lock()
			msg := rec.recs[0].Message
			rec.mu.Unlock()
			if !strings.HasPrefix(msg, core.OutOfMemoryMessage) {
				t.Errorf("message = %q", msg)
			}
			size, ok := w.HeapEstimate()
			t.Logf("%s; estimate at the end %d MiB", msg, size>>20)
			if !ok || size <= budget {
				t.Errorf("estimate = %d, %v; want above the budget", size, ok)
			}
			roundTrips(t, other, 50) // and after
			if other.State() != core.StateRunning {
				t.Errorf("the other worker is %v", other.State())
			}
		})
	}
}

// A worker that holds a large structure below its budget, and churns garbage around it, is never terminated —
// also while another worker allocates and frees far more than the budget.
func TestWorker_MemoryBudgetNoFalseKill(t *testing.T) {
	const budget = 40 << 20
	var rec recorder
	w, err := core.Spawn(`
		var keep = []; for (var i = 0; i < 60000; i++) keep.push({i: i, s: "k" + i}); // about 12 MiB, for good
		onmessage = function (e) {
			var tmp = []; for (var i = 0; i < 20000; i++) tmp.push({i: i}); // garbage
			postMessage(e.data + keep.length - keep.length) }`,
		core.Options{MaxHeapBytes: budget, OnError: rec.add})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	churn, err := core.Spawn(`onmessage = function (e) { var t = []; for (var i = 0; i < 200000; i++) t.push({i: i}); postMessage(e.data) }`,
		core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer churn.Release()
	done := make(chan struct{})
	go func() {
		defer close(done)
		roundTrips(t, churn, 10)
	}()
	roundTrips(t, w, 40)
	<-done
	runtime.GC()
	roundTrips(t, w, 10)
	if ks := rec.kinds(); len(ks) != 0 || w.State() != core.StateRunning {
		t.Fatalf("records %v, state %v", ks, w.State())
	}
	size, ok := w.HeapEstimate()
	t.Logf("estimate %d MiB (budget %d MiB)", size>>20, budget>>20)
	if !ok || size < 4<<20 || size > budget {
		t.Errorf("estimate = %d, %v", size, ok)
	}
}

// With a process-wide cap, the largest contributor is terminated as the heap nears it — not a smaller worker
// holding memory for good, not an idle one — and the host keeps its own memory.
func TestSetMemoryLimit_LargestContributor(t *testing.T) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	limit := int64(ms.HeapAlloc) + 160<<20
	hostHeld := make([]byte, 16<<20) // the host's own memory: never the worker's
	for i := range hostHeld {
		hostHeld[i] = byte(i)
	}

	small, err := core.Spawn(`var keep = []; for (var i = 0; i < 100000; i++) keep.push({i: i}); `+echo, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer small.Release()
	idle, err := core.Spawn(echo, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Release()
	roundTrips(t, small, 1) // its structure is built
	var rec recorder
	big, err := core.Spawn(`var a = []; function add(i) { a.push({i: i}) } for (var i = 0; ; i++) add(i)`,
		core.Options{OnError: rec.add})
	if err != nil {
		t.Fatal(err)
	}

	core.SetMemoryLimit(limit)
	defer core.SetMemoryLimit(0)
	err = big.Join(60 * time.Second)
	sizeBig, _ := big.HeapEstimate()
	// The host lets go of the worker: a realm stays in memory while its *Worker is reachable, and the monitor
	// would otherwise go on to the next largest.
	big.Release()
	big = nil
	if !errors.Is(err, core.ErrWorkerOutOfMemory) {
		t.Fatalf("Join = %v, want ErrWorkerOutOfMemory", err)
	}
	if ks := rec.kinds(); len(ks) != 1 || ks[0] != core.ErrorOutOfMemory {
		t.Fatalf("records = %v", ks)
	}
	roundTrips(t, small, 20)
	roundTrips(t, idle, 20)
	if hostHeld[12345] != byte(12345%256) {
		t.Fatal("host memory changed")
	}
	sizeSmall, _ := small.HeapEstimate()
	t.Logf("cap %d MiB: big ended at about %d MiB, small measured %d MiB", limit>>20, sizeBig>>20, sizeSmall>>20)
	if core.MemoryLimit() != limit {
		t.Errorf("MemoryLimit = %d", core.MemoryLimit())
	}
	runtime.KeepAlive(hostHeld)
}
