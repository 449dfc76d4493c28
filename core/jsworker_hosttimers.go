package core

import (
	"time"

	"github.com/dop251/goja"
)

// Timers of a host realm: setTimeout, setInterval, setImmediate and their clear functions, as in a worker (the same
// timerSet), except that they fire only while the host runs the realm's loop (HostLoop.RunPending, the C ABI's
// ZJSContextRunPendingEvents). A pending timer keeps the loop alive. Owner goroutine only.

// installHostTimers defines the timer globals of l's realm.
func (l *HostLoop) installHostTimers() {
	installTimerGlobals(l.rt, l.rt.GlobalObject(), &l.timers, l.poke)
}

// poke wakes a RunPending waiting for events, so that it looks at a timer created meanwhile.
func (l *HostLoop) poke() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// timersPending reports whether a timer or an immediate is waiting.
func (l *HostLoop) timersPending() bool {
	return len(l.timers.timers) > 0 || len(l.timers.immediates) > 0
}

// nextTimer returns how long until the earliest timer is due, and false when there is none.
func (l *HostLoop) nextTimer() (time.Duration, bool) {
	ts := &l.timers
	if len(ts.immediates) > 0 {
		return 0, true
	}
	if len(ts.timers) == 0 {
		return 0, false
	}
	return max(time.Until(ts.timers[0].when), 0), true
}

// runTimers runs the immediates queued before it began, then the timers due now that existed when it began, in
// deadline order; it returns how many callbacks ran.
func (l *HostLoop) runTimers() int {
	ts := &l.timers
	ran := 0
	for _, t := range ts.takeImmediates() {
		if ts.claim(t) {
			l.runCallback(t)
			ran++
		}
	}
	now, lastSeq := time.Now(), ts.timerSeq
	for t := ts.popDue(now, lastSeq); t != nil; t = ts.popDue(now, lastSeq) {
		l.runCallback(t)
		ran++
		ts.rearm(t)
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
