package capi

import (
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
)

// The Debugger domain of a main context (JSGlobalContextSetInspectable). Scripts evaluated while the context is
// inspectable are compiled instrumented. A pause happens inside the library call that runs the JavaScript, on the
// owner thread: the context then serves its sessions until one of them resumes. The messages of the pause reach
// the session callbacks on the owner thread, and a callback may dispatch Debugger.resume (or a step) right there.
// While paused, ZJSInspectorSessionDispatch is also accepted from any other thread: the command is queued, and the
// paused owner thread runs it and delivers the answer through the callback.

// pauseQueue holds the commands other threads dispatched to a paused context.
type pauseQueue struct {
	mu     sync.Mutex
	on     bool // the context is paused in the debugger
	closed bool // the context was destroyed: nothing is accepted any more
	tasks  []func(*goja.Runtime)
	wake   chan struct{} // capacity 1
}

// enqueue queues fn for the owner thread: a command dispatched from another thread (dispatchToPaused, or a session
// of the DevTools endpoint). A paused owner runs it at once; otherwise it runs at the owner's next
// ZJSContextRunPendingEvents or library call that delivers inspector messages (runLate).
func (q *pauseQueue) enqueue(fn func(*goja.Runtime)) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.wake == nil || q.closed { // no debugger (never paused), or the context is gone
		return false
	}
	q.tasks = append(q.tasks, fn)
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return true
}

// close stops the queue for good and drops what it holds (the context is being destroyed).
func (q *pauseQueue) close() {
	q.mu.Lock()
	q.closed, q.tasks = true, nil
	q.mu.Unlock()
}

// paused reports whether the context is paused in the debugger.
func (q *pauseQueue) paused() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.on
}

// runLate runs, on the owner thread, the commands that arrived from other threads just as a pause ended.
func (c *context) runLate() {
	if c.dbg == nil {
		return
	}
	for _, fn := range c.pauseQ.take(false) {
		fn(c.rt)
	}
}

// take removes and returns the queued tasks; with stop, the queue also stops accepting more.
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

// enableDebugger gives c its Debugger (once, on the owner thread): from now on JSEvaluateScript compiles
// instrumented while c is inspectable.
func (c *context) enableDebugger() error {
	if c.dbg != nil {
		return nil
	}
	d := inspector.NewDebugger()
	if err := d.Install(c.rt, contextTarget{c}); err != nil {
		return err
	}
	c.dbg = d
	c.pauseQ.mu.Lock()
	c.pauseQ.wake = make(chan struct{}, 1)
	c.pauseQ.mu.Unlock()
	return nil
}

// runScript evaluates src, instrumented when c is inspectable.
func (c *context) runScript(name, src string) (goja.Value, error) {
	if !c.inspectable || c.dbg == nil {
		prg, err := core.CompileScript(name, src, false) // functions guarded: catchable stack overflow
		if err != nil {
			return c.rt.RunScript(name, src) // a syntax error, reported as RunScript reports it
		}
		return c.rt.RunProgram(prg)
	}
	prg, err := c.dbg.Compile(name, src)
	if err != nil {
		// A syntax error: RunScript reports it exactly as for a plain context (a SyntaxError exception).
		return c.rt.RunScript(name, src)
	}
	defer c.dbg.TaskDone()
	return c.rt.RunProgram(prg)
}

// Debugger returns the context's Debugger: nil until the context was made inspectable.
func (t contextTarget) Debugger() *inspector.Debugger { return t.c.dbg }

// ServePaused is the owner thread's loop while the context's JavaScript is paused: it delivers the sessions'
// messages to their callbacks (which may resume at once) and runs the commands other threads dispatched, until
// resumed reports true or the context is destroyed by a callback.
func (t contextTarget) ServePaused(resumed func() bool) {
	c := t.c
	q := &c.pauseQ
	q.mu.Lock()
	q.on = true
	q.mu.Unlock()
	defer func() {
		for _, fn := range q.take(true) { // dispatched just before the resume: still answered
			fn(c.rt)
		}
		c.flushInspector()
	}()
	for {
		c.flushInspector()
		if resumed() || c.closed {
			return
		}
		if tasks := q.take(false); len(tasks) > 0 {
			for _, fn := range tasks {
				fn(c.rt)
			}
			continue
		}
		<-q.wake
	}
}
