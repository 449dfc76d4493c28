package core

import (
	"fmt"
	"sync/atomic"
	"time"
)

// taskClock times a worker's tasks against Options.ExecutionTimeLimit. One
// timer per worker is reset at the start of every outermost task and
// stopped at its end; it costs a clock read and a timer reset per task, and
// nothing when no limit is set.
type taskClock struct {
	depth    int          // worker goroutine only: nested macrotasks (a debugger pause runs tasks inside one)
	timer    *time.Timer  // worker goroutine only, except that it fires on its own
	deadline atomic.Int64 // when the current task's time is up, in Unix nanoseconds; 0 while no task runs
	hit      atomic.Bool  // the limit terminated the worker
}

// taskBegin starts timing a task (the outermost of nested ones).
func (w *Worker) taskBegin() {
	limit := w.opts.ExecutionTimeLimit
	if limit <= 0 {
		return
	}
	c := &w.clock
	if c.depth++; c.depth > 1 {
		return
	}
	// The deadline first: a firing of the previous task's timer that is
	// late finds a deadline in the future and does nothing.
	c.deadline.Store(time.Now().Add(limit).UnixNano())
	if c.timer == nil {
		c.timer = time.AfterFunc(limit, w.taskExpired)
	} else {
		c.timer.Reset(limit)
	}
}

// taskEnd stops timing a task.
func (w *Worker) taskEnd() {
	if w.opts.ExecutionTimeLimit <= 0 {
		return
	}
	c := &w.clock
	if c.depth--; c.depth > 0 {
		return
	}
	c.deadline.Store(0)
	c.timer.Stop()
}

// taskExpired runs on the timer's goroutine: if the task it timed still
// runs past its deadline, the worker is terminated.
func (w *Worker) taskExpired() {
	d := w.clock.deadline.Load()
	if d == 0 || time.Now().UnixNano() < d {
		return // the task ended, or a later one runs
	}
	w.clock.hit.Store(true)
	w.Terminate()
}

// reportTimeLimit records, as the worker ends, that the time limit ended it.
func (w *Worker) reportTimeLimit() {
	if !w.clock.hit.Load() {
		return
	}
	if w.fatal == nil {
		w.fatal = ErrTimeLimit
	}
	w.report(ErrorRecord{Kind: ErrorTimeLimit, Name: "Error", Message: fmt.Sprintf(
		"execution time limit exceeded: a task ran longer than %v", w.opts.ExecutionTimeLimit)})
}
