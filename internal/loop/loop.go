// Package loop is jsworker's one event loop, the one workers and host realms
// (main contexts) both run on: a macrotask queue any goroutine may post to,
// timers (timeouts and intervals in a heap by deadline, then creation) and
// immediates, and the turn that runs them in a fixed phase order.
//
// A turn runs, in order:
//
//  1. the tasks posted before the turn began (Post), one at a time;
//  2. the owner's messages phase (Config.Messages: a worker delivers its
//     inbox there, in bounded batches);
//  3. the timers due now that existed when the phase began, in deadline
//     order, equal deadlines in creation order;
//  4. the immediates queued before the phase began.
//
// Phases 3 and 4 are skipped while Config.HoldTimers says so (a closing
// worker). With Config.NodeOrder a turn follows Node's phases instead:
// timers, then tasks and messages (poll), then immediates (check). With Config.ImmediatesFirst they run the other way round: the
// immediates, then the timers due (a host realm, whose host starts every
// turn, so what its own call queued runs first, deterministically). Every callback runs through Config.Macrotask, which fences panics
// and reports errors; microtasks have run when a callback returns (goja
// drains its job queue when the outermost call into JavaScript returns).
// The loop knows nothing of JavaScript: package web installs the timer
// globals over it.
//
// Post, Wake, Close, Closed and HasTasks may be called from any goroutine;
// everything else only on the goroutine that owns the loop (the realm's).
package loop

import (
	"sync"
	"time"
)

// Config is what the owner of a loop supplies. The zero value is ready to
// use: callbacks run bare and their errors are dropped.
type Config struct {
	// Macrotask runs one callback of the loop (a task, a timer, an
	// immediate): the owner fences panics and reports the error fn returns.
	// Nil calls fn and drops its error.
	Macrotask func(fn func() error)

	// Stopped, if not nil, is asked before every callback: once it reports
	// true the current phase stops at once (a terminated worker).
	Stopped func() bool

	// Messages, if not nil, is the phase between the tasks and the timers
	// of a turn; it returns how many callbacks it ran.
	Messages func() int

	// HoldTimers, if not nil, reports that timers and immediates must not
	// run now (they stay pending): asked after the messages phase, and by
	// Sleep.
	HoldTimers func() bool

	// ImmediatesFirst runs the immediates phase before the timers phase.
	ImmediatesFirst bool

	// NodeOrder runs a turn in Node's phase order instead: the timers due,
	// then the tasks and the messages (Node's pending and poll phases), then
	// the immediates (its check phase). So an immediate a message handler
	// queues runs before a timeout it queues, as in Node.
	NodeOrder bool
}

// A Loop is one realm's event loop. Make it with New.
type Loop struct {
	cfg Config

	mu      sync.Mutex
	tasks   []func()
	closed  bool
	closedC chan struct{} // closed by Close: waits end at once
	wake    chan struct{} // capacity 1: "look again"

	timers timerSet    // owner goroutine only (timers.go)
	clock  *time.Timer // owner goroutine only: fires at the next timer deadline
}

// New returns an empty, open loop.
func New(cfg Config) *Loop {
	return &Loop{cfg: cfg, closedC: make(chan struct{}), wake: make(chan struct{}, 1)}
}

// Post queues fn to run in the tasks phase of a coming turn and wakes the
// loop. It may be called from any goroutine. It returns false, and fn will
// never run, once the loop is closed.
func (l *Loop) Post(fn func()) bool {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return false
	}
	l.tasks = append(l.tasks, fn)
	l.mu.Unlock()
	l.Wake()
	return true
}

// Wake makes a sleeping loop look for work again (a message arrived, say).
// It may be called from any goroutine and never blocks.
func (l *Loop) Wake() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// Close closes the queue: Post refuses from now on, the tasks still queued
// are dropped, and every wait of the loop ends at once. Timers stay until the
// owner calls StopTimers. Close may be called from any goroutine and is
// idempotent.
func (l *Loop) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	l.tasks = nil
	close(l.closedC)
}

// Closed reports whether Close was called.
func (l *Loop) Closed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

// HasTasks reports whether a posted task waits.
func (l *Loop) HasTasks() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tasks) > 0
}

// RunTasks runs the tasks queued when it starts (later ones wait for the
// next turn) and returns how many ran. It takes them one at a time, so a
// task that blocks in a nested loop (a debugger pause) may run the rest
// itself.
func (l *Loop) RunTasks() int {
	l.mu.Lock()
	n := len(l.tasks)
	l.mu.Unlock()
	ran := 0
	for range n {
		if l.stopped() {
			break
		}
		fn := l.pop()
		if fn == nil {
			break
		}
		l.macrotask(func() error { fn(); return nil })
		ran++
	}
	return ran
}

func (l *Loop) pop() func() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.tasks) == 0 {
		return nil
	}
	fn := l.tasks[0]
	l.tasks[0] = nil
	l.tasks = l.tasks[1:]
	return fn
}

// Turn runs one turn: tasks, messages, due timers, immediates (see the
// package doc). It returns how many callbacks ran.
func (l *Loop) Turn() int {
	if l.cfg.NodeOrder {
		return l.nodeTurn()
	}
	ran := l.RunTasks()
	if l.cfg.Messages != nil && !l.stopped() {
		ran += l.cfg.Messages()
	}
	switch {
	case l.holdTimers():
	case l.cfg.ImmediatesFirst:
		ran += l.RunImmediates()
		ran += l.RunDueTimers()
	default:
		ran += l.RunDueTimers()
		ran += l.RunImmediates()
	}
	return ran
}

// nodeTurn is a turn in Node's order (Config.NodeOrder): timers, tasks and
// messages, immediates.
func (l *Loop) nodeTurn() int {
	ran := 0
	if !l.holdTimers() {
		ran += l.RunDueTimers()
	}
	ran += l.RunTasks()
	if l.cfg.Messages != nil && !l.stopped() {
		ran += l.cfg.Messages()
	}
	if !l.holdTimers() {
		ran += l.RunImmediates()
	}
	return ran
}

// Sleep waits until the loop is woken or closed, the next timer is due, or
// stop is closed. It returns at once when an immediate or a due timer waits;
// while timers are held it waits for a wake-up only.
func (l *Loop) Sleep(stop <-chan struct{}) {
	l.wait(stop, nil)
}

// WaitWake waits until the loop is woken or closed, or stop is closed,
// regardless of timers: the nested loop of a debugger pause.
func (l *Loop) WaitWake(stop <-chan struct{}) {
	select {
	case <-l.wake:
	case <-l.closedC:
	case <-stop:
	}
}

// wait is Sleep with a deadline; it reports whether the deadline passed.
func (l *Loop) wait(stop <-chan struct{}, deadline <-chan time.Time) (expired bool) {
	var due <-chan time.Time
	if !l.holdTimers() {
		if len(l.timers.immediates) > 0 {
			return false
		}
		if d, ok := l.nextTimer(); ok {
			if d <= 0 {
				return false
			}
			if l.clock == nil {
				l.clock = time.NewTimer(d)
			} else {
				l.clock.Reset(d)
			}
			due = l.clock.C
			defer l.clock.Stop()
		}
	}
	select {
	case <-l.wake:
	case <-due:
	case <-l.closedC:
	case <-stop:
	case <-deadline:
		return true
	}
	return false
}

// RunPending runs turns on the calling goroutine, which must own the loop.
// With timeout 0 it runs what is ready and returns. Otherwise it goes on
// running callbacks as they become ready, sleeping when none is, until alive
// reports false and no task is queued, or timeout has passed; a negative
// timeout waits as long as alive reports true. A nil alive means
// TimersPending. It returns whether more work may come: alive, or a task
// queued.
func (l *Loop) RunPending(timeout time.Duration, alive func() bool) bool {
	if alive == nil {
		alive = l.TimersPending
	}
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	for {
		ran := l.Turn()
		if !alive() && !l.HasTasks() {
			return false
		}
		if ran > 0 || l.HasTasks() {
			if timeout == 0 {
				continue
			}
			select {
			case <-deadline:
				return alive() || l.HasTasks()
			default:
				continue
			}
		}
		if timeout == 0 {
			return true
		}
		if l.wait(nil, deadline) {
			l.Turn()
			return alive() || l.HasTasks()
		}
		if l.Closed() {
			return alive() || l.HasTasks()
		}
	}
}

func (l *Loop) macrotask(fn func() error) {
	if l.cfg.Macrotask != nil {
		l.cfg.Macrotask(fn)
		return
	}
	_ = fn()
}

func (l *Loop) stopped() bool { return l.cfg.Stopped != nil && l.cfg.Stopped() }

func (l *Loop) holdTimers() bool { return l.cfg.HoldTimers != nil && l.cfg.HoldTimers() }
