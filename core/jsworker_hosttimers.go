package core

import (
	"container/heap"
	"math"
	"time"

	"github.com/dop251/goja"
)

// Timers of a host realm: setTimeout, setInterval, setImmediate and their clear functions, as in a worker, except
// that they fire only while the host runs the realm's loop (HostLoop.RunPending, the C ABI's
// ZJSContextRunPendingEvents). A pending timer keeps the loop alive. Owner goroutine only.
type hostTimers struct {
	heap       timerHeap
	byID       map[int64]*timer
	lastID     int64
	seq        uint64
	immediates []*timer
}

// installHostTimers defines the timer globals of l's realm.
func (l *HostLoop) installHostTimers() {
	rt, g, ts := l.rt, l.rt.GlobalObject(), &l.timers
	ts.byID = make(map[int64]*timer)
	callback := func(name string, v goja.Value) goja.Callable {
		fn, ok := goja.AssertFunction(v)
		if !ok {
			panic(rt.NewTypeError("%s: the callback must be a function", name))
		}
		return fn
	}
	newTimer := func(fn goja.Callable, args []goja.Value) *timer {
		ts.lastID++
		ts.seq++
		t := &timer{id: ts.lastID, seq: ts.seq, fn: fn, args: args, index: -1}
		ts.byID[t.id] = t
		return t
	}
	add := func(name string, repeat bool) {
		defineFunc(rt, g, name, 1, func(call goja.FunctionCall) goja.Value {
			t := newTimer(callback(name, call.Argument(0)), extraArgs(call.Arguments, 2))
			delay := timerDelay(call.Argument(1))
			if repeat {
				t.every = max(delay, time.Millisecond)
			}
			t.when = time.Now().Add(delay)
			heap.Push(&ts.heap, t)
			l.poke()
			return rt.ToValue(t.id)
		})
	}
	add("setTimeout", false)
	add("setInterval", true)
	defineFunc(rt, g, "setImmediate", 1, func(call goja.FunctionCall) goja.Value {
		t := newTimer(callback("setImmediate", call.Argument(0)), extraArgs(call.Arguments, 1))
		ts.immediates = append(ts.immediates, t)
		l.poke()
		return rt.ToValue(t.id)
	})
	clear := func(call goja.FunctionCall) goja.Value {
		id := call.Argument(0).ToFloat()
		if id <= 0 || id != math.Trunc(id) {
			return goja.Undefined()
		}
		if t := ts.byID[int64(id)]; t != nil {
			delete(ts.byID, t.id)
			t.gone = true
			if t.index >= 0 {
				heap.Remove(&ts.heap, t.index)
			}
		}
		return goja.Undefined()
	}
	for _, name := range []string{"clearTimeout", "clearInterval", "clearImmediate"} {
		defineFunc(rt, g, name, 1, clear)
	}
}

// poke wakes a RunPending waiting for events, so that it looks at a timer created meanwhile.
func (l *HostLoop) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// pendingTimers reports whether a timer or an immediate is waiting.
func (ts *hostTimers) pending() bool { return len(ts.heap) > 0 || len(ts.immediates) > 0 }

// next returns how long until the earliest timer is due, and false when there is none.
func (ts *hostTimers) next() (time.Duration, bool) {
	if len(ts.immediates) > 0 {
		return 0, true
	}
	if len(ts.heap) == 0 {
		return 0, false
	}
	return max(time.Until(ts.heap[0].when), 0), true
}

// runTimers runs the immediates queued before it began, then the timers due now that existed when it began, in
// deadline order (an interval is rescheduled after it ran); it returns how many callbacks ran.
func (l *HostLoop) runTimers() int {
	ts := &l.timers
	ran := 0
	batch := ts.immediates
	ts.immediates = nil
	for _, t := range batch {
		if t.gone {
			continue
		}
		delete(ts.byID, t.id)
		t.gone = true
		l.runCallback(t)
		ran++
	}
	now, lastSeq := time.Now(), ts.seq
	for len(ts.heap) > 0 {
		t := ts.heap[0]
		if t.when.After(now) || t.seq > lastSeq {
			break
		}
		heap.Pop(&ts.heap)
		if t.every == 0 {
			delete(ts.byID, t.id)
			t.gone = true
		}
		l.runCallback(t)
		ran++
		if t.every > 0 && !t.gone {
			ts.seq++
			t.seq = ts.seq
			t.when = time.Now().Add(t.every)
			heap.Push(&ts.heap, t)
		}
	}
	return ran
}

// runCallback calls a timer's function; what it throws is reported as a listener's exception is.
func (l *HostLoop) runCallback(t *timer) {
	l.runTask(func(*goja.Runtime) {
		if _, err := t.fn(goja.Undefined(), t.args...); err != nil {
			l.reportErr(err)
		}
	})
}
