package loop

import (
	"container/heap"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// recorder is a loop's log of callbacks, in the order they ran.
type recorder struct{ log []string }

func (r *recorder) fn(s string) func() error { return func() error { r.add(s); return nil } }
func (r *recorder) add(s string)             { r.log = append(r.log, s) }
func (r *recorder) String() string           { return strings.Join(r.log, ",") }

// waitFor polls cond with a generous deadline (no sleeps to order events: the
// condition is what the test waits for).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// One turn runs tasks, then messages, then due timers, then immediates; what
// a phase's callbacks add waits for the next turn.
func TestTurnPhaseOrder(t *testing.T) {
	var r recorder
	var l *Loop
	msgs := 0
	l = New(Config{Messages: func() int {
		if msgs == 0 {
			msgs++
			r.add("message")
			return 1
		}
		return 0
	}})
	l.SetImmediate(func() error {
		r.add("imm1")
		l.SetImmediate(r.fn("imm-next-turn"))
		return nil
	})
	l.SetTimeout(func() error {
		r.add("t0")
		l.SetTimeout(r.fn("t0-next-turn"), 0)
		return nil
	}, 0)
	l.Post(func() {
		r.add("task1")
		l.Post(func() { r.add("task-next-turn") })
	})
	// Make sure the zero-delay timers are due when the turn begins.
	waitFor(t, "the timer deadline", func() bool { d, _ := l.nextTimer(); return d == 0 })
	if n := l.Turn(); n != 4 {
		t.Fatalf("first turn ran %d callbacks, want 4 (%s)", n, &r)
	}
	if got, want := r.String(), "task1,message,t0,imm1"; got != want {
		t.Fatalf("first turn: %s, want %s", got, want)
	}
	r.log = nil
	waitFor(t, "the second timer deadline", func() bool { d, _ := l.nextTimer(); return d == 0 })
	l.Turn()
	if got, want := r.String(), "task-next-turn,t0-next-turn,imm-next-turn"; got != want {
		t.Fatalf("second turn: %s, want %s", got, want)
	}
}

// With ImmediatesFirst (a host realm) the immediates run before the due timers.
func TestTurnImmediatesFirst(t *testing.T) {
	var r recorder
	l := New(Config{ImmediatesFirst: true})
	l.SetTimeout(r.fn("t0"), 0)
	l.SetImmediate(r.fn("imm"))
	waitFor(t, "the timer deadline", func() bool { d, _ := l.nextTimer(); return d == 0 })
	l.Turn()
	if got := r.String(); got != "imm,t0" {
		t.Fatalf("got %s, want imm,t0", got)
	}
}

// With NodeOrder (Node-style workers, the main program) a turn runs the due timers, then the tasks and messages
// (poll), then the immediates (check): a timeout and an immediate a message handler queues run immediate first.
func TestTurnNodeOrder(t *testing.T) {
	var r recorder
	var l *Loop
	msgs := 0
	l = New(Config{NodeOrder: true, Messages: func() int {
		if msgs > 0 {
			return 0
		}
		msgs++
		r.add("message")
		l.SetTimeout(r.fn("t-from-message"), 0)
		l.SetImmediate(r.fn("imm-from-message"))
		return 1
	}})
	l.SetTimeout(r.fn("t0"), 0)
	l.SetImmediate(r.fn("imm0"))
	l.Post(func() { r.add("task") })
	waitFor(t, "the timer deadline", func() bool { d, _ := l.nextTimer(); return d == 0 })
	l.Turn()
	if got, want := r.String(), "t0,task,message,imm0,imm-from-message"; got != want {
		t.Fatalf("first turn: %s, want %s", got, want)
	}
	r.log = nil
	waitFor(t, "the second timer deadline", func() bool { d, _ := l.nextTimer(); return d == 0 })
	l.Turn()
	if got, want := r.String(), "t-from-message"; got != want {
		t.Fatalf("second turn: %s, want %s", got, want)
	}
}

// Timers fire in deadline order; equal deadlines in creation order.
func TestTimerOrder(t *testing.T) {
	var r recorder
	l := New(Config{})
	l.SetTimeout(r.fn("30ms"), 30*time.Millisecond)
	l.SetTimeout(r.fn("10ms"), 10*time.Millisecond)
	l.SetTimeout(r.fn("20ms"), 20*time.Millisecond)
	l.SetTimeout(r.fn("negative"), -time.Second) // as 0
	if l.RunPending(-1, nil) {
		t.Fatal("RunPending(-1) returned alive with nothing left")
	}
	if got, want := r.String(), "negative,10ms,20ms,30ms"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}

	// Equal deadlines: the heap breaks ties by creation.
	r.log = nil
	when := time.Now().Add(-time.Millisecond)
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		id := l.SetTimeout(r.fn(name), 0)
		l.timers.byID[id].when = when
	}
	l.timers.heap.Swap(0, 4) // out of order, then the heap is rebuilt from the edited deadlines
	l.timers.heap.Swap(1, 3)
	heap.Init(&l.timers.heap)
	if n := l.RunDueTimers(); n != 5 {
		t.Fatalf("ran %d, want 5", n)
	}
	if got := r.String(); got != "a,b,c,d,e" {
		t.Fatalf("equal deadlines ran %s, want creation order", got)
	}
}

// An interval repeats until a callback clears it, its own included; a
// callback may clear a timer due in the same phase and an immediate queued
// behind it.
func TestIntervalAndClearFromCallback(t *testing.T) {
	var r recorder
	l := New(Config{})
	n := 0
	var iv int64
	iv = l.SetInterval(func() error {
		n++
		r.add(fmt.Sprint("iv", n))
		if n == 3 {
			l.Clear(iv)
		}
		return nil
	}, time.Millisecond)

	var victim, victimImm int64
	l.SetTimeout(func() error {
		r.add("killer")
		l.Clear(victim)
		l.Clear(victimImm)
		return nil
	}, 5*time.Millisecond)
	victim = l.SetTimeout(r.fn("victim"), 5*time.Millisecond) // same deadline or just after: due in the same phase
	victimImm = l.SetImmediate(r.fn("victim-immediate"))
	l.Clear(victimImm) // cleared before its phase
	l.Clear(12345)     // unknown: ignored

	if l.RunPending(-1, nil) {
		t.Fatal("alive after every timer ran")
	}
	got := r.String()
	if strings.Contains(got, "victim") || !strings.Contains(got, "killer") {
		t.Fatalf("clear from a callback failed: %s", got)
	}
	if strings.Count(got, "iv") != 3 || !strings.Contains(got, "iv3") {
		t.Fatalf("the interval did not run exactly 3 times: %s", got)
	}
	if l.TimersPending() {
		t.Fatal("timers still pending")
	}
}

// Referenced ignores unref'd timers but never immediates.
func TestRefAndUnref(t *testing.T) {
	l := New(Config{})
	id := l.SetTimeout(func() error { return nil }, time.Hour)
	if !l.Referenced() {
		t.Fatal("a fresh timer is not referenced")
	}
	l.SetRef(id, false)
	if l.Referenced() || !l.TimersPending() {
		t.Fatal("unref'd timer: want pending but not referenced")
	}
	imm := l.SetImmediate(func() error { return nil })
	l.SetRef(imm, false)
	if !l.Referenced() {
		t.Fatal("an immediate does not keep the loop referenced")
	}
	l.Clear(imm)
	l.RunImmediates()
	l.SetRef(id, true)
	if !l.Referenced() {
		t.Fatal("ref() again did not count")
	}
	l.StopTimers()
	if l.TimersPending() || l.Referenced() {
		t.Fatal("StopTimers left timers")
	}
}

// Macrotask sees every callback and its error; Stopped ends a phase at once;
// HoldTimers keeps timers pending.
func TestConfigHooks(t *testing.T) {
	var errs []error
	stop := false
	calls := 0
	l := New(Config{
		Macrotask: func(fn func() error) {
			calls++
			if err := fn(); err != nil {
				errs = append(errs, err)
			}
		},
		Stopped: func() bool { return stop },
	})
	boom := errors.New("boom")
	l.SetImmediate(func() error { return boom })
	l.SetImmediate(func() error { stop = true; return nil })
	l.SetImmediate(func() error { t.Error("ran after Stopped"); return nil })
	l.Turn()
	if calls != 2 || len(errs) != 1 || errs[0] != boom {
		t.Fatalf("calls=%d errs=%v", calls, errs)
	}

	held := true
	var r recorder
	h := New(Config{HoldTimers: func() bool { return held }})
	h.SetTimeout(r.fn("t"), 0)
	h.SetImmediate(r.fn("imm"))
	h.Turn()
	if len(r.log) != 0 {
		t.Fatalf("held timers ran: %s", &r)
	}
	held = false
	waitFor(t, "the deadline", func() bool { d, _ := h.nextTimer(); return d == 0 })
	h.Turn()
	if r.String() != "t,imm" {
		t.Fatalf("released timers: %s", &r)
	}
}

// RunPending: timeout 0 runs what is ready and reports alive; a timeout
// returns with a far timer still pending; negative runs until not alive.
func TestRunPendingSemantics(t *testing.T) {
	var r recorder
	l := New(Config{})
	far := l.SetTimeout(r.fn("far"), time.Hour)
	l.SetImmediate(r.fn("imm"))
	if !l.RunPending(0, nil) {
		t.Fatal("RunPending(0) with a pending timer reported not alive")
	}
	if r.String() != "imm" {
		t.Fatalf("RunPending(0) ran %s", &r)
	}
	start := time.Now()
	if !l.RunPending(20*time.Millisecond, nil) {
		t.Fatal("RunPending(timeout) with a pending timer reported not alive")
	}
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Fatalf("RunPending(20ms) returned after %v", el)
	}
	l.Clear(far)
	if l.RunPending(-1, nil) {
		t.Fatal("nothing alive, yet RunPending(-1) said alive")
	}
	// A custom alive: a task from another goroutine ends the wait.
	var done atomic.Bool
	go func() { l.Post(func() { done.Store(true) }) }()
	l.RunPending(-1, func() bool { return !done.Load() })
	if !done.Load() {
		t.Fatal("the posted task did not run")
	}
}

// Post from many goroutines: every task runs exactly once, on the owner.
func TestPostFromManyGoroutines(t *testing.T) {
	const goroutines, each = 16, 200
	l := New(Config{})
	var ran [goroutines * each]int32
	total := 0
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				k := g*each + i
				if !l.Post(func() { ran[k]++; total++ }) {
					t.Error("Post refused on an open loop")
				}
			}
		}()
	}
	finished := false // owner only: set by the task posted after every other
	go func() {
		wg.Wait()
		l.Post(func() { finished = true })
	}()
	if l.RunPending(-1, func() bool { return !finished }) {
		t.Fatal("RunPending(-1) returned alive")
	}
	if total != goroutines*each {
		t.Fatalf("ran %d tasks, want %d", total, goroutines*each)
	}
	for k, n := range ran {
		if n != 1 {
			t.Fatalf("task %d ran %d times", k, n)
		}
	}
}

// Close wakes a RunPending, a Sleep and a WaitWake; Post refuses afterwards
// and queued tasks are dropped.
func TestCloseWakesWaiters(t *testing.T) {
	l := New(Config{})
	l.Post(func() { t.Error("a task queued before Close ran") })
	l.Close()
	if l.Post(func() { t.Error("ran after Close") }) {
		t.Fatal("Post accepted after Close")
	}
	if !l.Closed() || l.HasTasks() {
		t.Fatal("Close left the queue open or full")
	}
	l.Sleep(nil)    // returns at once
	l.WaitWake(nil) // returns at once
	l.Close()       // idempotent

	for _, wait := range []struct {
		name string
		run  func(l *Loop)
	}{
		{"RunPending", func(l *Loop) { l.RunPending(-1, func() bool { return true }) }},
		{"Sleep", func(l *Loop) { l.SetTimeout(func() error { return nil }, time.Hour); l.Sleep(nil) }},
		{"WaitWake", func(l *Loop) { l.WaitWake(nil) }},
	} {
		l := New(Config{})
		returned := make(chan struct{})
		started := make(chan struct{})
		go func() {
			close(started)
			wait.run(l)
			close(returned)
		}()
		<-started
		l.Close()
		select {
		case <-returned:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s did not return after Close", wait.name)
		}
	}
}

// Wake ends a Sleep; stop ends a WaitWake.
func TestWakeAndStop(t *testing.T) {
	l := New(Config{})
	l.SetTimeout(func() error { return nil }, time.Hour)
	returned := make(chan struct{})
	go func() { l.Sleep(nil); close(returned) }()
	l.Wake()
	select {
	case <-returned:
	case <-time.After(20 * time.Second):
		t.Fatal("Wake did not end Sleep")
	}
	stop := make(chan struct{})
	returned = make(chan struct{})
	go func() {
		// Drain a wake-up left over from the first Sleep's race, then wait.
		for {
			select {
			case <-stop:
				close(returned)
				return
			default:
			}
			l.WaitWake(stop)
		}
	}()
	close(stop)
	select {
	case <-returned:
	case <-time.After(20 * time.Second):
		t.Fatal("stop did not end WaitWake")
	}
}
