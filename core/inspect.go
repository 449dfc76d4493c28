package core

import (
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector"
)

// NextTargetID returns a new process-wide target identifier from the same
// sequence as worker IDs: non-zero and never reused. Hosts that expose their
// own realms to the inspector (the C ABI's main contexts) number them with
// it, so that no two execution contexts in the process share an ID.
func NextTargetID() uint64 { return lastWorkerID.Add(1) }

// inspectorSessions is a worker's set of attached inspector sessions.
type inspectorSessions struct {
	mu    sync.Mutex
	ended bool                          // the worker ended: no new sessions
	list  map[*inspector.Session]func() // session → stop observing
}

// workerTarget is the inspector's view of a worker: commands run on the
// worker's event loop, between macrotasks.
type workerTarget struct{ w *Worker }

func (t workerTarget) Run(fn func(rt *goja.Runtime)) bool { return t.w.RunOnLoop(fn) }

// Debugger returns the worker's Debugger, nil unless it is inspectable.
func (t workerTarget) Debugger() *inspector.Debugger { return t.w.dbg }

// ServePaused is the worker's nested loop while its JavaScript is paused in
// the debugger: on the worker's own thread, it runs queued tasks (inspector
// commands of every session) until resumed reports true, and returns at once
// when Terminate is called. Messages and timers wait for the resume.
func (t workerTarget) ServePaused(resumed func() bool) {
	w := t.w
	for !resumed() {
		if w.isTerminating() {
			return
		}
		if w.ev.HasTasks() {
			w.ev.RunTasks()
			continue
		}
		w.ev.WaitWake(w.terminating)
	}
}

// RunIfWaiting releases a worker held by Options.WaitForDebugger. It runs on
// the worker's thread (an inspector command) and reports whether the worker
// was waiting.
func (t workerTarget) RunIfWaiting() bool {
	w := t.w
	if !w.opts.WaitForDebugger || w.debuggerReleased {
		return false
	}
	w.debuggerReleased = true
	return true
}

// BreaksOnStart reports whether Runtime.runIfWaitingForDebugger should pause the released script at its first
// statement: for Options.WaitForDebugger (--inspect-brk), not for a worker held by its creator's session
// (HoldNewChildren), as Node's workers are not (inspector.BreakOnStartTarget).
func (t workerTarget) BreaksOnStart() bool { return !t.w.opts.childHold }

// waitForDebugger holds the worker before its script runs, serving inspector
// commands, until a session sends Runtime.runIfWaitingForDebugger or the
// worker is terminated (Options.WaitForDebugger).
func (w *Worker) waitForDebugger() {
	if w.opts.WaitForDebugger {
		workerTarget{w}.ServePaused(func() bool { return w.debuggerReleased })
	}
}

// waitForDisconnect is Options.WaitForDisconnect, once the loop ended.
func (w *Worker) waitForDisconnect() {
	if !w.opts.WaitForDisconnect || w.isTerminating() || !w.hasInspectorSessions() {
		return
	}
	var out io.Writer = os.Stderr
	if w.opts.Stderr != nil {
		out = w.opts.Stderr
	}
	_, _ = io.WriteString(out, "Waiting for the debugger to disconnect...\n")
	// A detach (DetachInspectorSession) queues the session's Close on the
	// loop, which wakes this wait.
	workerTarget{w}.ServePaused(func() bool { return !w.hasInspectorSessions() })
}

func (w *Worker) hasInspectorSessions() bool {
	w.insp.mu.Lock()
	defer w.insp.mu.Unlock()
	return len(w.insp.list) > 0
}

func (t workerTarget) Context() inspector.ContextInfo {
	name := t.w.name
	if name == "" {
		name = t.w.filename
	}
	return inspector.ContextInfo{
		ID:       int(t.w.id),
		Name:     name,
		UniqueID: "jsworker-worker-" + strconv.FormatUint(t.w.id, 10),
	}
}

// InspectorSession attaches a new Chrome DevTools Protocol session to the
// worker (see package inspector and docs/inspector.md). Commands dispatched
// to it run on the worker's thread between macrotasks; console calls and
// uncaught errors become Runtime events while Runtime is enabled. Several
// sessions may attach at once. The caller closes the session with
// DetachInspectorSession (or Session.Close); when the worker ends, every
// session is told (its queue then drains and Next reports PumpClosed).
// It returns ErrClosed for a worker that has ended or is terminating.
func (w *Worker) InspectorSession() (*inspector.Session, error) {
	w.insp.mu.Lock()
	defer w.insp.mu.Unlock()
	if w.insp.ended || w.isTerminating() {
		return nil, ErrClosed
	}
	s := inspector.NewSession(workerTarget{w})
	stop := w.Observe(&Observer{
		Console: func(rt *goja.Runtime, level string, args []goja.Value) { s.ConsoleAPICalled(rt, level, args) },
		Error: func(rt *goja.Runtime, rec ErrorRecord, thrown goja.Value) {
			if thrown == nil {
				return
			}
			text := "Uncaught"
			if rec.Kind == ErrorUnhandledRejection {
				text = "Uncaught (in promise)"
			}
			s.ExceptionThrown(rt, thrown, text, rec.Filename, rec.Line, rec.Column)
		},
	})
	if w.insp.list == nil {
		w.insp.list = make(map[*inspector.Session]func())
	}
	w.insp.list[s] = stop
	return s, nil
}

// DetachInspectorSession closes s and stops sending it the worker's events.
// It returns without waiting; s.Dropped() is closed once the worker has
// dropped every object the session held.
func (w *Worker) DetachInspectorSession(s *inspector.Session) {
	w.insp.mu.Lock()
	stop, ok := w.insp.list[s]
	delete(w.insp.list, s)
	w.insp.mu.Unlock()
	if ok {
		stop()
	}
	s.Close()
}

// endInspectorSessions tells every attached session that the worker ended.
// It runs on the worker's thread as the loop finishes, so tasks the loop
// dropped are answered and held objects are released.
func (w *Worker) endInspectorSessions() {
	w.insp.mu.Lock()
	w.insp.ended = true
	list := w.insp.list
	w.insp.list = nil
	w.insp.mu.Unlock()
	for s, stop := range list {
		stop()
		s.TargetClosed()
	}
}
