package core

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// Errors a host realm's entry into JavaScript returns when it was stopped
// (HostRealm.TerminateExecution, HostRealm.SetExecutionTimeLimit).
var (
	// ErrExecutionTerminated: TerminateExecution stopped the script. The
	// realm stays usable: the next entry runs normally.
	ErrExecutionTerminated = errors.New("jsworker: script execution terminated")

	// ErrExecutionTimeLimit: the realm's execution time limit stopped the
	// script. errors.Is(err, ErrExecutionTerminated) holds too.
	ErrExecutionTimeLimit = fmt.Errorf("%w: execution time limit exceeded", ErrExecutionTerminated)

	// ErrInternal: a fault inside the engine or a host function (a Go
	// runtime error: a nil dereference, an index out of range) ended the
	// entry. It is a bug to report; the realm stays usable.
	ErrInternal = errors.New("jsworker: internal error")
)

// entryGuard is a host realm's record of its top-level entries into
// JavaScript, which TerminateExecution and the time limit stop. Every field
// is guarded by mu: the owner enters and leaves, any goroutine terminates,
// the limit's timer fires on its own goroutine.
type entryGuard struct {
	mu       sync.Mutex
	depth    int           // nested entries running now; 0: no JavaScript runs
	stopped  error         // why the current entry was stopped; nil while it may run
	abort    chan struct{} // made on demand, closed when the current entry is stopped
	limit    time.Duration // 0: no limit
	should   func() bool   // the limit's callback; nil terminates
	timer    *time.Timer   // fires limitExpired; made when a limit is first set
	deadline time.Time     // when the current entry's period ends
}

// TerminateExecution stops the JavaScript running in the realm: it throws an
// uncatchable termination at its next instruction, which unwinds every
// frame (neither catch nor finally runs) to the top-level entry — RunScript,
// the callback RunPending was running, or Enter — which returns
// ErrExecutionTerminated. The realm stays usable: the next entry runs
// normally. Called while no JavaScript runs in the realm, it does nothing.
// A debugger pause or an Atomics.wait of the entry ends at once. It may be
// called from any goroutine.
//
// Native builtins are not interrupted mid-call (see docs/limits.md): the
// script stops right after the builtin returns.
func (h *HostRealm) TerminateExecution() {
	h.guard.mu.Lock()
	defer h.guard.mu.Unlock()
	h.stopLocked(ErrExecutionTerminated)
}

// stopLocked stops the current entry with why; guard.mu is held.
func (h *HostRealm) stopLocked(why error) {
	g := &h.guard
	if g.depth == 0 || g.stopped != nil {
		return
	}
	g.stopped = why
	h.rt.Interrupt(why)
	if g.abort != nil {
		close(g.abort)
	}
	select { // a debugger pause of the entry looks again (ServePaused)
	case h.pauseQ.wake <- struct{}{}:
	default:
	}
}

// SetExecutionTimeLimit limits every top-level entry into the realm's
// JavaScript — RunScript, each callback RunPending runs, each Enter — to
// limit. When an entry has run that long, shouldTerminate is asked: true
// (or a nil shouldTerminate) stops it as TerminateExecution does, and the
// entry returns ErrExecutionTimeLimit; false grants another period of the
// same length. A limit of 0 or less removes the limit. It applies from the
// next top-level entry on and may be called from any goroutine.
//
// shouldTerminate runs on a goroutine of the library's, not the realm's:
// goja cannot pause a running script to call out on its thread. It must not
// use the realm's runtime.
func (h *HostRealm) SetExecutionTimeLimit(limit time.Duration, shouldTerminate func() bool) {
	g := &h.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	if limit <= 0 {
		g.limit, g.should = 0, nil
		return
	}
	g.limit, g.should = limit, shouldTerminate
	if g.timer == nil {
		g.timer = time.AfterFunc(time.Hour, h.limitExpired)
		g.timer.Stop()
	}
}

// ClearExecutionTimeLimit removes the limit SetExecutionTimeLimit set; an
// entry running now is no longer stopped by it. Any goroutine.
func (h *HostRealm) ClearExecutionTimeLimit() {
	g := &h.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	g.limit, g.should = 0, nil
	if g.timer != nil {
		g.timer.Stop()
	}
}

// Enter runs fn as an entry into the realm's JavaScript on the owner's
// goroutine: TerminateExecution and the time limit stop what fn runs.
// Entries nest; only the outermost one is timed, and a stop unwinds to it.
// An error that is the stop itself comes back as ErrExecutionTerminated or
// ErrExecutionTimeLimit; a Go runtime error panicking out of fn (goja's
// or a host function's bug) comes back from the outermost entry as
// ErrInternal, the realm's record of its entries intact; other errors are
// fn's own.
func (h *HostRealm) Enter(fn func() error) (err error) {
	outer := h.beginEntry()
	defer func() {
		why := h.endEntry(outer)
		if p := recover(); p != nil {
			re, ok := p.(runtime.Error)
			if !ok || !outer {
				panic(p) // (an inner entry's: to the outermost, through goja's frames, which restore their state)
			}
			err = fmt.Errorf("%w: %v", ErrInternal, re)
			return
		}
		if why != nil && isInterrupt(err) {
			err = why
		}
	}()
	return fn()
}

// isInterrupt reports whether err is goja's uncatchable interruption.
func isInterrupt(err error) bool {
	var ie *goja.InterruptedError
	return errors.As(err, &ie)
}

// beginEntry records an entry and reports whether it is the outermost.
func (h *HostRealm) beginEntry() bool {
	g := &h.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	g.depth++
	if g.depth > 1 {
		return false
	}
	h.mem.entries.Add(1) // odd: a script runs (hostmemory.go)
	h.rt.ClearInterrupt()
	g.stopped, g.abort = nil, nil
	if g.limit > 0 {
		g.deadline = time.Now().Add(g.limit)
		g.timer.Reset(g.limit)
	}
	return true
}

// endEntry ends an entry. Leaving the outermost one clears the interrupt, so
// that a stop never carries over into the next entry, and returns why the
// entry was stopped (nil if it was not); an inner one returns the stop still
// unwinding, so that it reaches the outermost entry.
func (h *HostRealm) endEntry(outer bool) error {
	g := &h.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	g.depth--
	why := g.stopped
	if !outer {
		return why
	}
	if g.timer != nil {
		g.timer.Stop()
	}
	h.rt.ClearInterrupt()
	g.stopped, g.abort = nil, nil
	h.mem.entries.Add(1)
	h.mem.cp.Want.Store(false) // a measurement asked for the entry that ended is no longer wanted
	return why
}

// limitExpired runs on the timer's goroutine when the current entry's period
// may be over.
func (h *HostRealm) limitExpired() {
	g := &h.guard
	g.mu.Lock()
	if g.depth == 0 || g.stopped != nil || g.limit == 0 || time.Now().Before(g.deadline) {
		g.mu.Unlock() // a stale firing: the entry it timed has ended
		return
	}
	should, deadline := g.should, g.deadline
	g.mu.Unlock()
	terminate := should == nil || askShouldTerminate(should)
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.depth == 0 || g.stopped != nil || g.limit == 0 || !g.deadline.Equal(deadline) {
		return // the entry ended (or the limit changed) while the callback ran
	}
	if terminate {
		h.stopLocked(ErrExecutionTimeLimit)
		return
	}
	g.deadline = time.Now().Add(g.limit)
	g.timer.Reset(g.limit)
}

// askShouldTerminate calls a time limit's callback; one that panics
// terminates.
func askShouldTerminate(should func() bool) (terminate bool) {
	defer func() {
		if recover() != nil {
			terminate = true
		}
	}()
	return should()
}

// entryAbort returns a channel closed when the current entry is stopped:
// waits inside JavaScript (Atomics.wait) select on it. Outside an entry
// (a Go host calling the runtime directly) it is nil: nothing stops the
// wait. Owner goroutine.
func (h *HostRealm) entryAbort() <-chan struct{} {
	g := &h.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.depth == 0 {
		return nil
	}
	if g.abort == nil {
		g.abort = make(chan struct{})
		if g.stopped != nil {
			close(g.abort)
		}
	}
	return g.abort
}

// entryStopped reports whether the current entry was stopped.
func (h *HostRealm) entryStopped() bool {
	h.guard.mu.Lock()
	defer h.guard.mu.Unlock()
	return h.guard.stopped != nil
}
