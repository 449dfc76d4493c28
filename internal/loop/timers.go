package loop

import (
	"container/heap"
	"time"
)

// Timers: the setTimeout / setInterval / setImmediate bookkeeping. They
// belong to the loop's owner goroutine; the phases of a turn decide when they
// run.

// A timer is a timeout, interval or immediate.
type timer struct {
	id    int64
	when  time.Time
	seq   uint64        // creation order: equal deadlines fire in this order
	every time.Duration // > 0 for an interval
	fn    func() error
	index int  // position in the heap, -1 when not in it
	gone  bool // cleared, or a one-shot that ran
	unref bool // does not keep a Node-style loop alive (SetRef)
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

// timerSet holds the pending timers: the heap by (deadline, creation), the
// immediates in order, and every live timer by id. IDs are positive integers
// shared by the three kinds and never reused.
type timerSet struct {
	heap       timerHeap
	byID       map[int64]*timer
	lastID     int64
	seq        uint64
	immediates []*timer
}

func (ts *timerSet) add(fn func() error) *timer {
	if ts.byID == nil {
		ts.byID = make(map[int64]*timer)
	}
	ts.lastID++
	ts.seq++
	t := &timer{id: ts.lastID, seq: ts.seq, fn: fn, index: -1}
	ts.byID[t.id] = t
	return t
}

func (ts *timerSet) schedule(t *timer, delay time.Duration) {
	t.when = time.Now().Add(delay)
	heap.Push(&ts.heap, t)
}

func (ts *timerSet) clear(id int64) {
	t := ts.byID[id]
	if t == nil {
		return
	}
	delete(ts.byID, id)
	t.gone = true
	if t.index >= 0 {
		heap.Remove(&ts.heap, t.index)
	}
}

// popDue removes and returns the earliest timer due at now among those
// created up to lastSeq (timers a callback creates wait for the next turn),
// or nil. A one-shot timer is forgotten; an interval is re-armed by rearm
// once it ran.
func (ts *timerSet) popDue(now time.Time, lastSeq uint64) *timer {
	if len(ts.heap) == 0 {
		return nil
	}
	t := ts.heap[0]
	if t.when.After(now) || t.seq > lastSeq {
		return nil
	}
	heap.Pop(&ts.heap)
	if t.every == 0 {
		delete(ts.byID, t.id)
		t.gone = true
	}
	return t
}

// rearm schedules an interval that just ran again, unless it was cleared.
func (ts *timerSet) rearm(t *timer) {
	if t.every > 0 && !t.gone {
		ts.seq++
		t.seq = ts.seq
		ts.schedule(t, t.every)
	}
}

// claim forgets the immediate t and reports whether it is still to run (an
// earlier callback may have cleared it).
func (ts *timerSet) claim(t *timer) bool {
	if t.gone {
		return false
	}
	delete(ts.byID, t.id)
	t.gone = true
	return true
}

// SetTimeout schedules fn to run once, delay from now, and returns the
// timer's id. Owner goroutine only.
func (l *Loop) SetTimeout(fn func() error, delay time.Duration) int64 {
	t := l.timers.add(fn)
	l.timers.schedule(t, max(delay, 0))
	return t.id
}

// SetInterval schedules fn to run every interval (at least a millisecond,
// the first time one interval from now) until cleared, and returns its id.
// Owner goroutine only.
func (l *Loop) SetInterval(fn func() error, every time.Duration) int64 {
	t := l.timers.add(fn)
	t.every = max(every, time.Millisecond)
	l.timers.schedule(t, t.every)
	return t.id
}

// SetImmediate queues fn for the immediates phase of the current turn (or,
// from inside that phase, of the next one) and returns its id. Owner
// goroutine only.
func (l *Loop) SetImmediate(fn func() error) int64 {
	t := l.timers.add(fn)
	l.timers.immediates = append(l.timers.immediates, t)
	return t.id
}

// Clear cancels the timeout, interval or immediate with the given id; an
// unknown or finished id is ignored. A callback may clear any timer,
// including itself and ones due in the same phase. Owner goroutine only.
func (l *Loop) Clear(id int64) { l.timers.clear(id) }

// SetRef marks the pending timer id as keeping the loop alive (ref, the
// default) or not (Node's timeout.unref()): see Referenced. Owner goroutine
// only.
func (l *Loop) SetRef(id int64, ref bool) {
	if t := l.timers.byID[id]; t != nil {
		t.unref = !ref
	}
}

// TimersPending reports whether a timeout, interval or immediate waits.
// Owner goroutine only.
func (l *Loop) TimersPending() bool {
	return len(l.timers.heap) > 0 || len(l.timers.immediates) > 0
}

// Referenced reports whether an immediate, or a timer that was not unref'd,
// waits: what keeps a Node-style loop alive. Owner goroutine only.
func (l *Loop) Referenced() bool {
	if len(l.timers.immediates) > 0 {
		return true
	}
	for _, t := range l.timers.heap {
		if !t.unref {
			return true
		}
	}
	return false
}

// HasImmediates reports whether an immediate waits. Owner goroutine only.
func (l *Loop) HasImmediates() bool { return len(l.timers.immediates) > 0 }

// StopTimers drops every pending timer; none fires afterwards. IDs are not
// reused. Owner goroutine only.
func (l *Loop) StopTimers() {
	for _, t := range l.timers.byID {
		t.gone = true // an interval running now is not re-armed
	}
	l.timers.heap, l.timers.byID, l.timers.immediates = nil, nil, nil
	if l.clock != nil {
		l.clock.Stop()
	}
}

// RunDueTimers runs, in deadline order (creation order for equal deadlines),
// the timers due now that existed when the phase began; timers they create
// wait for the next turn. It returns how many callbacks ran.
func (l *Loop) RunDueTimers() int {
	ts := &l.timers
	now, lastSeq := time.Now(), ts.seq
	ran := 0
	for !l.stopped() {
		t := ts.popDue(now, lastSeq)
		if t == nil {
			break
		}
		l.macrotask(t.fn)
		ran++
		ts.rearm(t)
	}
	return ran
}

// RunImmediates runs the immediates queued before the phase began, in
// order, skipping those cleared meanwhile; immediates they queue wait for
// the next turn. It returns how many callbacks ran.
func (l *Loop) RunImmediates() int {
	ts := &l.timers
	batch := ts.immediates
	ts.immediates = nil
	ran := 0
	for _, t := range batch {
		if l.stopped() {
			break
		}
		if !ts.claim(t) {
			continue
		}
		l.macrotask(t.fn)
		ran++
	}
	return ran
}

// nextTimer returns how long until the earliest timeout or interval is due,
// and false when there is none.
func (l *Loop) nextTimer() (time.Duration, bool) {
	if len(l.timers.heap) == 0 {
		return 0, false
	}
	return max(time.Until(l.timers.heap[0].when), 0), true
}
