package core

import (
	"container/heap"
	"math"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// Timers: the setTimeout / setInterval / setImmediate bookkeeping a worker's
// loop and a host realm's loop share. A timerSet belongs to the goroutine
// that owns its realm; the loops decide when timers run.

// A timer is a setTimeout, setInterval or setImmediate entry.
type timer struct {
	id    int64
	when  time.Time
	seq   uint64        // creation order: equal deadlines fire in this order
	every time.Duration // > 0 for setInterval
	fn    goja.Callable
	args  []goja.Value
	index int // position in the heap, -1 when not in it
	gone  bool
	unref bool // Timeout.unref(): does not keep a Node-style loop alive
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].when.Equal(h[j].when) {
		return h[i].when.Before(h[j].when)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

// A timerSet holds a realm's pending timers: the heap by (deadline,
// creation), the immediates in order, and every live timer by id. IDs are
// positive integers shared by all three kinds.
type timerSet struct {
	timers      timerHeap
	timerByID   map[int64]*timer
	lastTimerID int64
	timerSeq    uint64
	immediates  []*timer
}

func (ts *timerSet) newTimer(fn goja.Callable, args []goja.Value) *timer {
	if ts.timerByID == nil {
		ts.timerByID = make(map[int64]*timer)
	}
	ts.lastTimerID++
	ts.timerSeq++
	t := &timer{id: ts.lastTimerID, seq: ts.timerSeq, fn: fn, args: args, index: -1}
	ts.timerByID[t.id] = t
	return t
}

func (ts *timerSet) schedule(t *timer, delay time.Duration) {
	t.when = time.Now().Add(delay)
	heap.Push(&ts.timers, t)
}

func (ts *timerSet) clearTimer(id int64) {
	t := ts.timerByID[id]
	if t == nil {
		return
	}
	delete(ts.timerByID, id)
	t.gone = true
	if t.index >= 0 {
		heap.Remove(&ts.timers, t.index)
	}
}

// popDue removes and returns the earliest timer due at now among those
// created up to lastSeq (timers a callback creates wait for the next turn),
// or nil. A one-shot timer is forgotten; an interval is re-armed by rearm
// once it ran.
func (ts *timerSet) popDue(now time.Time, lastSeq uint64) *timer {
	if len(ts.timers) == 0 {
		return nil
	}
	t := ts.timers[0]
	if t.when.After(now) || t.seq > lastSeq {
		return nil
	}
	heap.Pop(&ts.timers)
	if t.every == 0 {
		delete(ts.timerByID, t.id)
		t.gone = true
	}
	return t
}

// rearm schedules an interval that just ran again, unless it was cleared.
func (ts *timerSet) rearm(t *timer) {
	if t.every > 0 && !t.gone {
		ts.timerSeq++
		t.seq = ts.timerSeq
		ts.schedule(t, t.every)
	}
}

// takeImmediates returns the immediates queued so far; claim says whether
// one is still to run when its turn comes (an earlier one may clear it).
func (ts *timerSet) takeImmediates() []*timer {
	batch := ts.immediates
	ts.immediates = nil
	return batch
}

// claim forgets t and reports whether it is still to run.
func (ts *timerSet) claim(t *timer) bool {
	if t.gone {
		return false
	}
	delete(ts.timerByID, t.id)
	t.gone = true
	return true
}

// reset drops every pending timer; none fires afterwards.
func (ts *timerSet) reset() { *ts = timerSet{} }

// installTimerGlobals defines setTimeout, setInterval, setImmediate and
// their clear functions on g, backed by ts; added, if not nil, runs after a
// timer is created (a host loop wakes up to look at it).
func installTimerGlobals(rt *goja.Runtime, g *goja.Object, ts *timerSet, added func()) {
	callback := func(name string, v goja.Value) goja.Callable {
		fn, ok := goja.AssertFunction(v)
		if !ok {
			panic(rt.NewTypeError("%s: the callback must be a function", name))
		}
		return fn
	}
	created := func(t *timer) goja.Value {
		if added != nil {
			added()
		}
		return rt.ToValue(t.id)
	}
	add := func(name string, repeat bool) {
		jsutil.DefineFunc(rt, g, name, 1, func(call goja.FunctionCall) goja.Value {
			t := ts.newTimer(callback(name, call.Argument(0)), extraArgs(call.Arguments, 2))
			delay := timerDelay(call.Argument(1))
			if repeat {
				t.every = max(delay, time.Millisecond)
			}
			ts.schedule(t, delay)
			return created(t)
		})
	}
	add("setTimeout", false)
	add("setInterval", true)
	jsutil.DefineFunc(rt, g, "setImmediate", 1, func(call goja.FunctionCall) goja.Value {
		t := ts.newTimer(callback("setImmediate", call.Argument(0)), extraArgs(call.Arguments, 1))
		ts.immediates = append(ts.immediates, t)
		return created(t)
	})
	clear := func(call goja.FunctionCall) goja.Value {
		if id := call.Argument(0).ToFloat(); id > 0 && id == math.Trunc(id) {
			ts.clearTimer(int64(id))
		}
		return goja.Undefined()
	}
	for _, name := range []string{"clearTimeout", "clearInterval", "clearImmediate"} {
		jsutil.DefineFunc(rt, g, name, 1, clear)
	}
}

func extraArgs(args []goja.Value, from int) []goja.Value {
	if len(args) <= from {
		return nil
	}
	return append([]goja.Value(nil), args[from:]...)
}

// timerDelay converts a JavaScript delay in milliseconds the way browsers
// do: NaN, negative and out-of-range (over 2^31-1 ms) delays become 0.
func timerDelay(v goja.Value) time.Duration {
	ms := v.ToFloat()
	if math.IsNaN(ms) || ms < 0 || ms > math.MaxInt32 {
		return 0
	}
	return time.Duration(ms * float64(time.Millisecond))
}
