package core

import (
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// deliveryBatch bounds how many messages one loop turn delivers before it
// looks at timers again, so a flood of messages cannot starve timers.
const deliveryBatch = 64

// loopState is the part of a Worker that only its own goroutine touches.
type loopState struct {
	timeOrigin time.Time
	clock      *time.Timer // fires at the earliest timer deadline

	timerSet // timers.go

	rejections []*goja.Promise // rejected with no handler yet, in order

	listeners       []*listener
	dispatchScratch []*listener
	messageType     goja.Value
	handlers        [2]*listener // the onmessage / onmessageerror entries
	eventProto      *goja.Object
	global          *goja.Object
	errorCtor       *goja.Object // the realm's original Error and RangeError
	rangeError      *goja.Object

	debuggerReleased bool // Options.WaitForDebugger: runIfWaitingForDebugger came
}

// loop serves the worker until it is terminated, or closed and drained.
// Each turn: host tasks, then up to deliveryBatch messages, then due timers,
// then immediates; it sleeps only when none of these has work.
func (w *Worker) loop() {
	for {
		if w.isTerminating() {
			return
		}
		w.runTasks()
		w.deliverMessages()
		closing := w.closeRequested.Load()
		if !closing {
			w.runDueTimers()
			w.runImmediates()
		}
		if w.isTerminating() {
			return
		}
		queued, _ := w.inbox.Len()
		if w.ext != nil && !w.ext.Accepting() {
			queued = 0 // e.g. a Node-style worker's parentPort is not started: messages wait
		}
		if closing && queued == 0 && !w.hasTasks() {
			return
		}
		if queued > 0 || w.hasTasks() || (!closing && len(w.immediates) > 0) {
			continue
		}
		if w.ext != nil && !w.HasRefs() {
			if w.ext.Idle() { // e.g. Node's 'beforeExit' listeners scheduled more work
				continue
			}
			return // an extension's loop ends when nothing ref'd is left
		}
		w.sleep(closing)
	}
}

// sleep waits for a wake-up, the next timer deadline, or Terminate.
func (w *Worker) sleep(closing bool) {
	var due <-chan time.Time
	if !closing && len(w.timers) > 0 {
		d := time.Until(w.timers[0].when)
		if d <= 0 {
			return
		}
		w.clock.Reset(d)
		due = w.clock.C
		defer w.clock.Stop()
	}
	select {
	case <-w.wake:
	case <-due:
	case <-w.terminating:
	}
}

func (w *Worker) hasTasks() bool {
	w.tasksMu.Lock()
	defer w.tasksMu.Unlock()
	return len(w.tasks) > 0
}

// runTasks runs the tasks queued when it starts (later ones wait for the
// next turn). It takes them one at a time: a task that pauses in the
// debugger serves the rest from its nested loop (ServePaused).
func (w *Worker) runTasks() {
	w.tasksMu.Lock()
	n := len(w.tasks)
	w.tasksMu.Unlock()
	for range n {
		if w.isTerminating() {
			return
		}
		fn := w.popTask()
		if fn == nil {
			return
		}
		w.macrotask(func() error { fn(w.rt); return nil })
	}
}

func (w *Worker) popTask() func(*goja.Runtime) {
	w.tasksMu.Lock()
	defer w.tasksMu.Unlock()
	if len(w.tasks) == 0 {
		return nil
	}
	fn := w.tasks[0]
	w.tasks[0] = nil
	w.tasks = w.tasks[1:]
	return fn
}

func (w *Worker) deliverMessages() {
	if w.ext != nil && !w.ext.Accepting() {
		return
	}
	for range deliveryBatch {
		if w.isTerminating() {
			return
		}
		f, ok := w.inbox.Pop(0)
		if !ok {
			return
		}
		w.macrotask(func() error { return w.deliver(f) })
	}
}

// deliver deserializes one frame into the worker realm and dispatches it as
// a message event, or as a messageerror event when it cannot be read.
func (w *Worker) deliver(f *clone.Frame) error {
	if w.ext != nil {
		return w.ext.Deliver(f) // e.g. to a Node-style worker's parentPort
	}
	v, err := clone.Deserialize(w.rt, f)
	if err != nil {
		return w.dispatch(evMessageError, goja.Null())
	}
	return w.dispatch(evMessage, v)
}

// macrotask runs one task of the event loop with a panic fence, reports what
// it threw, and then reports promises it left rejected with no handler.
// Microtasks have already run: goja drains its job queue when the outermost
// call into JavaScript returns.
func (w *Worker) macrotask(fn func() error) {
	if err := w.guard(fn); err != nil {
		w.reportErr(err)
	}
	w.reportRejections()
	if w.dbg != nil {
		w.dbg.TaskDone()
	}
}

// guard runs fn, turning a Go panic into an internal error.
func (w *Worker) guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = nil
			w.fatal = w.internalError(r)
		}
	}()
	return fn()
}

func (w *Worker) trackRejection(p *goja.Promise, op goja.PromiseRejectionOperation) {
	switch op {
	case goja.PromiseRejectionReject:
		w.rejections = append(w.rejections, p)
	case goja.PromiseRejectionHandle:
		for i, q := range w.rejections {
			if q == p {
				w.rejections = append(w.rejections[:i], w.rejections[i+1:]...)
				break
			}
		}
	}
}

func (w *Worker) reportRejections() {
	for len(w.rejections) > 0 {
		p := w.rejections[0]
		w.rejections = w.rejections[1:]
		if w.isTerminating() {
			continue
		}
		w.report(w.recordFromValue(ErrorUnhandledRejection, p.Result()))
	}
	w.rejections = nil
}

// runDueTimers fires, in deadline order, the timers due now that existed
// when the phase began; timers they create wait for the next turn.
func (w *Worker) runDueTimers() {
	now, lastSeq := time.Now(), w.timerSeq
	for !w.isTerminating() {
		t := w.popDue(now, lastSeq)
		if t == nil {
			return
		}
		w.macrotask(func() error {
			_, err := t.fn(goja.Undefined(), t.args...)
			return err
		})
		w.rearm(t)
	}
}

func (w *Worker) runImmediates() {
	for _, t := range w.takeImmediates() {
		if w.isTerminating() {
			return
		}
		if !w.claim(t) {
			continue
		}
		w.macrotask(func() error {
			_, err := t.fn(goja.Undefined(), t.args...)
			return err
		})
	}
}

// stopTimers drops every pending timer; none fires afterwards.
func (w *Worker) stopTimers() {
	if w.clock != nil {
		w.clock.Stop()
	}
	w.reset()
}
