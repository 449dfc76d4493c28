package core

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// An Extension adapts a worker's realm and event loop for a layer above core. The Node layer (package node) gives
// every Node-style worker and the main program one: Node's globals, messages delivered to parentPort, a loop that
// ends once nothing ref'd is left, uncaught errors that end the worker with an exit code. core never knows what
// the layer is. Every method runs on the worker's thread.
type Extension interface {
	// Setup runs after the standard globals are installed and before Options.Setup and the script. An error ends
	// the worker before its script runs, as an Options.Setup error does.
	Setup(w *Worker, rt *goja.Runtime) error
	// Accepting reports whether inbox messages are delivered now; while it is false they wait in the inbox.
	Accepting() bool
	// Deliver receives each inbox message instead of the worker global's 'message' event; it owns f and returns
	// what a listener threw.
	Deliver(f *clone.Frame) error
	// Idle runs when the loop has run dry: no task, message, timer or immediate is ready and no ref'd handle is
	// left (Worker.HasRefs). It returns true if it scheduled more work (the loop goes on) and false to end the
	// worker.
	Idle() bool
	// Uncaught is offered every uncaught exception and unhandled rejection first; true means it took care of it
	// (the record goes no further).
	Uncaught(rec ErrorRecord) bool
	// Builtin returns the exports of a built-in module a module worker imports (for example "node:os"), or false.
	Builtin(specifier string) (*goja.Object, bool)
	// End runs as the loop ends, before the worker's Realm ends and its outbox closes.
	End()
}

// A LoopOrder is an Extension that may ask for Node's event-loop phase order (timers, then host tasks and
// messages, then immediates) instead of the HTML one core uses by default (tasks, messages, timers, immediates).
// It is asked once, as the worker is made.
type LoopOrder interface {
	NodeOrder() bool
}

// A WebGlobalsOmitter is an Extension whose realm has none of the web worker's own globals: self, name,
// postMessage, close, addEventListener, removeEventListener, onmessage and onmessageerror (a Node-style worker has
// none). core does not define them when OmitWebGlobals answers true (asked once, at setup): defining them only to
// have the Extension delete them made each (a delete makes a lazy property first) — about 9 KiB of garbage a realm.
type WebGlobalsOmitter interface {
	OmitWebGlobals() bool
}

// A CallbackRunner is an Extension that runs every callback of the worker's loop itself (the script, a timer, an
// immediate, a message, a host task): RunCallback calls fn and returns its error. Node's layer runs fn inside a
// JavaScript call that then drains process.nextTick's queue, so ticks run before the promise jobs fn queued.
// Worker thread only.
type CallbackRunner interface {
	RunCallback(fn func() error) error
}

// HasRefs reports whether the worker still has a ref'd handle that may produce work: a ref'd timer, an immediate,
// or a ref'd child worker, started port or listening BroadcastChannel of its Realm. Worker thread only.
func (w *Worker) HasRefs() bool {
	if w.js != nil && w.js.refs > 0 {
		return true
	}
	return w.ev.Referenced()
}

// SetTimerRef marks the timer with the given id ref'd (on) or not: an unref'd timer does not keep an Extension's
// loop alive (Node's timeout.unref()). Worker thread only.
func (w *Worker) SetTimerRef(id int64, on bool) { w.ev.SetRef(id, on) }

// RunTask runs fn now, on the worker's thread, as a macrotask of its loop: what it returns or throws is reported
// as an uncaught exception, then unhandled rejections are reported. Worker thread only.
func (w *Worker) RunTask(fn func() error) { w.macrotask(fn) }

// Stopping reports whether Terminate was called.
func (w *Worker) Stopping() bool { return w.isTerminating() }

// Err returns the error that ends the worker abnormally so far (a Setup error, an internal error), or nil.
// Worker thread only, or after Done.
func (w *Worker) Err() error { return w.fatal }

// Wake makes the worker's loop look for work again (for example after an Extension starts accepting messages).
func (w *Worker) Wake() { w.wakeup() }

// Options returns the options the worker was started with.
func (w *Worker) Options() Options { return w.opts }

// Filename returns the name the worker's script or entry module shows in stacks.
func (w *Worker) Filename() string { return w.filename }

// PostTo clones v out of rt into a frame and pushes it to c. Transferred buffers are detached in the sender only
// once the channel accepted the frame: a refused post leaves them intact. It fails as Worker.PostMessage does.
func PostTo(c *Channel, rt *goja.Runtime, v goja.Value, transfer []goja.Value) error {
	f, commit, err := clone.SerializeTransfer(rt, v, clone.Options{MaxBytes: c.limits.MaxFrameBytes, Transfer: transfer})
	if err != nil {
		return err
	}
	if err := c.Push(f); err != nil {
		return err
	}
	commit()
	return nil
}

// ClearTimer cancels the timer or immediate with the given id, as clearTimeout does (Node's timeout.close()); an
// unknown or finished id is ignored. Worker thread only.
func (w *Worker) ClearTimer(id int64) { w.ev.Clear(id) }
