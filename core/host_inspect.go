package core

import (
	"slices"
	"strconv"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector"
)

// The inspector of a host realm: its sessions, its Debugger and the queue
// of commands that arrive from other goroutines.
//
// A host realm has no thread of its own, so a command of one of its sessions
// runs on the owner's goroutine when the owner is in the realm:
//   - while the realm is paused in the debugger (inside RunScript, RunPending
//     or any call into its JavaScript), at once: the paused owner serves the
//     queue until a session resumes;
//   - otherwise at the owner's next RunPending, or as RunScript or
//     ServeInspector returns;
//   - and, with HostRealmOptions.IsOwner, inside Dispatch itself when
//     Dispatch is called on the owner's thread (the C ABI's synchronous
//     sessions).
//
// Scripts run with RunScript while the realm is inspectable are compiled
// instrumented; a pause happens inside the call that runs the JavaScript, on
// the owner's goroutine.

// hostInspector is the inspector state of a HostRealm.
type hostInspector struct {
	inspectable bool                // owner goroutine only: SetInspectable(true) in force
	dbg         *inspector.Debugger // owner goroutine only: made by the first SetInspectable(true)

	pauseQ pauseQueue // commands from other goroutines

	inspMu   sync.Mutex
	ended    bool                 // Close ran: no new sessions
	targetID uint64               // the execution context's id, from NextTargetID on first need
	sessions []*inspector.Session // attached, in attach order
}

// pauseQueue holds the commands other goroutines dispatched to a host realm.
type pauseQueue struct {
	mu     sync.Mutex
	on     bool // the realm is paused in the debugger
	closed bool // the realm was closed: nothing is accepted any more
	tasks  []func(*goja.Runtime)
	wake   chan struct{} // capacity 1
}

// enqueue queues fn for the owner. It reports false once the realm closed.
func (q *pauseQueue) enqueue(fn func(*goja.Runtime)) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return false
	}
	q.tasks = append(q.tasks, fn)
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// close stops the queue for good and drops what it holds.
func (q *pauseQueue) close() {
	q.mu.Lock()
	q.closed, q.tasks = true, nil
	q.mu.Unlock()
}

// paused reports whether the realm is paused in the debugger.
func (q *pauseQueue) paused() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.on
}

// take removes and returns the queued tasks; with stop, the pause ends.
func (q *pauseQueue) take(stop bool) []func(*goja.Runtime) {
	q.mu.Lock()
	defer q.mu.Unlock()
	t := q.tasks
	q.tasks = nil
	if stop {
		q.on = false
	}
	return t
}

// hostTarget is the inspector's view of a host realm.
type hostTarget struct{ h *HostRealm }

// Run runs fn at once when called on the owner's thread (HostRealmOptions.IsOwner) while the realm lives;
// otherwise it queues fn for the owner and, unless the realm is paused (the paused owner serves the queue), posts
// a task that runs the queue to the realm's loop, which wakes a RunPending waiting for events.
func (t hostTarget) Run(fn func(rt *goja.Runtime)) bool {
	h := t.h
	if h.opts.IsOwner != nil && h.opts.IsOwner() {
		if h.closed {
			return false
		}
		fn(h.rt)
		return true
	}
	if !h.pauseQ.enqueue(fn) {
		return false
	}
	if !h.pauseQ.paused() {
		h.ev.Post(func() { h.ServeInspector() })
	}
	return true
}

// Context describes the realm: its id comes from the worker id sequence, so no two execution contexts in the
// process share one.
func (t hostTarget) Context() inspector.ContextInfo {
	id := t.h.TargetID()
	s := strconv.FormatUint(id, 10)
	return inspector.ContextInfo{ID: int(id), Name: "main context " + s, UniqueID: "jsworker-context-" + s}
}

// Debugger returns the realm's Debugger: nil until the realm was made inspectable.
func (t hostTarget) Debugger() *inspector.Debugger { return t.h.dbg }

// ServePaused is the owner's loop while the realm's JavaScript is paused: it runs the commands dispatched from
// other goroutines (HostRealmOptions.OnInspectorIdle hands out the sessions' messages in between) until resumed
// reports true or the realm was closed by one of them.
func (t hostTarget) ServePaused(resumed func() bool) {
	h := t.h
	q := &h.pauseQ
	q.mu.Lock()
	q.on = true
	q.mu.Unlock()
	defer func() {
		for _, fn := range q.take(true) { // dispatched just before the resume: still answered
			fn(h.rt)
		}
		h.inspectorIdle()
	}()
	for {
		h.inspectorIdle()
		if resumed() || h.closed || h.entryStopped() { // TerminateExecution ends a pause too
			return
		}
		if tasks := q.take(false); len(tasks) > 0 {
			for _, fn := range tasks {
				fn(h.rt)
			}
			continue
		}
		<-q.wake
	}
}

func (h *HostRealm) inspectorIdle() {
	if h.opts.OnInspectorIdle != nil {
		h.opts.OnInspectorIdle()
	}
}

// TargetID returns the realm's execution-context id for the inspector and the DevTools endpoint: taken from the
// worker id sequence (NextTargetID) when first needed, then fixed. It may be called from any goroutine.
func (h *HostRealm) TargetID() uint64 {
	h.inspMu.Lock()
	defer h.inspMu.Unlock()
	if h.targetID == 0 {
		h.targetID = NextTargetID()
	}
	return h.targetID
}

// SetInspectable makes the realm inspectable or not. Inspectable, it is listed for DevTools endpoints
// (LiveHostRealms) and the scripts RunScript runs from now on are compiled for the Debugger domain; the first
// call installs the realm's Debugger, and fails, leaving the realm uninspectable, if the realm refuses its hooks
// (a frozen global object). Uninspectable, it is no longer listed and new scripts run plain; sessions already
// attached stay. It returns ErrClosed once the realm is closed. Owner goroutine only.
func (h *HostRealm) SetInspectable(on bool) error {
	if h.closed {
		return ErrClosed
	}
	if !on {
		h.inspectable = false
		unregisterHostRealm(h)
		return nil
	}
	if h.dbg == nil {
		d := inspector.NewDebugger()
		if err := d.Install(h.rt, hostTarget{h}); err != nil {
			return err
		}
		h.dbg = d
	}
	h.inspectable = true
	registerHostRealm(h)
	return nil
}

// Inspectable reports whether SetInspectable(true) is in force. Owner goroutine only.
func (h *HostRealm) Inspectable() bool { return h.inspectable }

// InspectorSession attaches a new Chrome DevTools Protocol session to the realm (see package inspector and
// docs/inspector.md). Its commands run on the owner's goroutine when the owner is in the realm (see
// ServeInspector, RunPending, RunScript); the Debugger domain is there once the realm is inspectable. Console
// calls become Runtime events while Runtime is enabled. Several sessions may attach at once. Close it with
// DetachInspectorSession; when the realm is closed, every session is told. It may be called from any goroutine,
// and returns ErrClosed once the realm is closed.
func (h *HostRealm) InspectorSession() (*inspector.Session, error) {
	h.inspMu.Lock()
	ended := h.ended
	h.inspMu.Unlock()
	if ended {
		return nil, ErrClosed
	}
	s := inspector.NewSession(hostTarget{h}) // calls Context, which takes inspMu
	h.inspMu.Lock()
	if h.ended { // closed meanwhile: endInspector did not see s
		h.inspMu.Unlock()
		s.Close()
		return nil, ErrClosed
	}
	h.sessions = append(h.sessions, s)
	h.inspMu.Unlock()
	return s, nil
}

// DetachInspectorSession closes s and stops sending it the realm's events. It may be called from any goroutine.
func (h *HostRealm) DetachInspectorSession(s *inspector.Session) {
	h.inspMu.Lock()
	h.sessions = slices.DeleteFunc(h.sessions, func(x *inspector.Session) bool { return x == s })
	h.inspMu.Unlock()
	s.Close()
}

// ServeInspector runs, on the owner's goroutine, the inspector commands other goroutines dispatched while the
// owner was outside the realm (RunPending and RunScript run them too). A host that calls into the realm's
// JavaScript by other means calls it afterwards, so that an evaluation awaiting a promise gets its answer.
func (h *HostRealm) ServeInspector() {
	for _, fn := range h.pauseQ.take(false) {
		fn(h.rt)
	}
}

// onConsole is the realm's console observer: every session is sent the call (those with Runtime enabled queue
// Runtime.consoleAPICalled), then HostRealmOptions.OnConsole sees it.
func (h *HostRealm) onConsole(level string, args []goja.Value) {
	h.inspMu.Lock()
	list := slices.Clone(h.sessions)
	h.inspMu.Unlock()
	for _, s := range list {
		s.ConsoleAPICalled(h.rt, level, args)
	}
	if h.opts.OnConsole != nil {
		h.opts.OnConsole(level, args)
	}
}

// endInspector unlists the realm and tells every session that it ends (Runtime.executionContextDestroyed if
// enabled, Inspector.detached); commands still queued are answered with an error by the sessions. On the owner's
// goroutine, as the realm is closed.
func (h *HostRealm) endInspector() {
	unregisterHostRealm(h)
	h.inspMu.Lock()
	h.ended = true
	list := h.sessions
	h.sessions = nil
	h.inspMu.Unlock()
	h.pauseQ.close()
	for _, s := range list {
		s.TargetClosed()
	}
}

// Paused reports whether the realm's JavaScript is paused in the debugger, its owner serving the inspector. It
// may be called from any goroutine.
func (h *HostRealm) Paused() bool { return h.pauseQ.paused() }
