package core

import (
	"errors"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/loop"
)

// deliveryBatch bounds how many messages one loop turn delivers before it
// looks at timers again, so a flood of messages cannot starve timers.
const deliveryBatch = 64

// loopState is the part of a Worker that only its own goroutine touches.
type loopState struct {
	timeOrigin time.Time

	rejections []*goja.Promise // rejected with no handler yet, in order

	listeners       []*listener
	dispatchScratch []*listener
	messageType     goja.Value
	handlers        [2]*listener // the onmessage / onmessageerror entries
	eventProto      *goja.Object // made on first use (messageEventProto)
	freeze          goja.Value   // Object.freeze, as it was at setup
	global          *goja.Object
	errorCtor       *goja.Object // the realm's original Error and RangeError, once needed (errorctors.go)
	rangeError      *goja.Object

	debuggerReleased bool // Options.WaitForDebugger: runIfWaitingForDebugger came

	// deliverFn is the task that delivers nextFrame, made once (deliverTask)
	// so that a message costs no closure.
	deliverFn func() error
	nextFrame *clone.Frame
}

// newLoop makes the worker's event loop (package internal/loop): every
// callback is a macrotask of the worker, a Terminate stops the current phase,
// the messages phase delivers the inbox, and timers are held once Close was
// asked for.
func (w *Worker) newLoop() *loop.Loop {
	lo, _ := w.ext.(LoopOrder)
	return loop.New(loop.Config{
		Macrotask:  w.macrotask,
		Stopped:    w.isTerminating,
		Messages:   w.deliverMessages,
		HoldTimers: w.closeRequested.Load,
		NodeOrder:  lo != nil && lo.NodeOrder(),
	})
}

// loop serves the worker until it is terminated, or closed and drained.
// Each turn (loop.Loop.Turn): host tasks, then up to deliveryBatch messages,
// then due timers, then immediates; it sleeps only when none of these has
// work.
func (w *Worker) loop() {
	for {
		if w.isTerminating() {
			return
		}
		w.ev.Turn()
		if w.isTerminating() {
			return
		}
		closing := w.closeRequested.Load()
		queued, _ := w.inbox.Len()
		if w.ext != nil && !w.ext.Accepting() {
			queued = 0 // e.g. a Node-style worker's parentPort is not started: messages wait
		}
		if closing && queued == 0 && !w.ev.HasTasks() {
			return
		}
		if queued > 0 || w.ev.HasTasks() || (!closing && w.ev.HasImmediates()) {
			continue
		}
		if w.ext != nil && !w.HasRefs() {
			if w.ext.Idle() { // e.g. Node's 'beforeExit' listeners scheduled more work
				continue
			}
			return // an extension's loop ends when nothing ref'd is left
		}
		w.ev.Sleep(w.terminating) // a wake-up, the next timer deadline, or Terminate
	}
}

// deliverMessages is the messages phase of a turn: it delivers up to
// deliveryBatch queued messages and returns how many.
func (w *Worker) deliverMessages() int {
	if w.ext != nil && !w.ext.Accepting() {
		return 0
	}
	n := 0
	for range deliveryBatch {
		if w.isTerminating() {
			break
		}
		f, ok := w.inbox.Pop(0)
		if !ok {
			break
		}
		w.nextFrame = f
		w.runTask(w.deliverTask())
		if w.nextFrame != nil { // the task did not run (it was interrupted first)
			w.nextFrame.Release()
			w.nextFrame = nil
		}
		n++
	}
	return n
}

// deliverTask returns the macrotask that delivers w.nextFrame, wrapped as
// macrotask wraps any task, made once per worker. It takes the frame before
// delivering it, so that a task nested in it delivers its own.
func (w *Worker) deliverTask() func() error {
	if w.deliverFn == nil {
		fn := func() error {
			f := w.nextFrame
			w.nextFrame = nil
			return w.deliver(f)
		}
		w.deliverFn = w.wrapTask(fn)
	}
	return w.deliverFn
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
func (w *Worker) macrotask(fn func() error) { w.runTask(w.wrapTask(fn)) }

// wrapTask gives fn to the extension's CallbackRunner, if it has one.
func (w *Worker) wrapTask(fn func() error) func() error {
	if cr, ok := w.ext.(CallbackRunner); ok {
		return func() error { return cr.RunCallback(fn) }
	}
	return fn
}

// runTask is macrotask of a task already wrapped by wrapTask.
func (w *Worker) runTask(fn func() error) {
	w.taskBegin()
	defer w.taskEnd()
	w.memTaskBegin()
	defer w.memTaskEnd()
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
			// Termination (or a time limit, or a stack overflow) that reached Go code asking goja for a property
			// JavaScript makes (a lazy property: gojainternal.DefineLazy) arrives as a panic instead of a returned
			// error: the same.
			var ie *goja.InterruptedError
			var so *goja.StackOverflowError
			if e, ok := r.(error); ok && (errors.As(e, &ie) || errors.As(e, &so)) {
				err = e
				return
			}
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
		if w.dbg != nil {
			w.dbg.Rejected(p) // a promiseRejection pause, as V8's for Promise.reject() and reject()
		}
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
		rec := w.recordFromValue(ErrorUnhandledRejection, p.Result())
		rec.promise = w.rt.ToValue(p)
		w.report(rec)
	}
	w.rejections = nil
}
