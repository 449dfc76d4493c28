package core

import (
	"errors"
	"math"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// The parent side of workers created from JavaScript — the web Worker (webworker.go) and, in the Node layer,
// worker_threads' Worker. Each is an ordinary core Worker behind a JavaScript object of the parent realm; its
// outbox's notify hook schedules a drain on the parent realm's loop, which emits the worker's messages on the object
// in order and, once the outbox is closed and empty, ends the child.

// Channel limits of JS-created workers, in both directions, and of ports: Node and browsers put no bound on queued
// messages, so neither do we beyond memory-safety caps.
const (
	jsMaxFrameBytes  = 512 << 20
	jsMaxQueuedBytes = 4 << 30
)

// JSLimits are the channel limits of workers created from JavaScript, in both directions (SpawnFile).
var JSLimits = ChannelLimits{MaxFrameBytes: jsMaxFrameBytes, MaxQueuedBytes: jsMaxQueuedBytes, MaxQueuedMessages: math.MaxInt32}

// ChildHooks are what a kind of JavaScript worker object adds to a Child. They run on the parent realm's thread.
type ChildHooks interface {
	// BeforeMessages runs at the start of every drain, before the child's messages are emitted (the web Worker
	// dispatches its error events there, worker_threads its 'online'); true stops the drain.
	BeforeMessages(c *Child) (stop bool)
	// Exited runs once, when the child's worker has ended and every message it sent was emitted (or when it never
	// started); the worker has been released.
	Exited(c *Child)
}

// A Child is a worker created from JavaScript, as its parent realm sees it.
type Child struct {
	realm *Realm
	obj   *goja.Object
	w     *Worker // nil when the worker never started (a script that did not compile)
	hooks ChildHooks

	scheduled atomic.Bool
	drainTask func(*goja.Runtime) // the loop task that drains (made once: Schedule runs twice or more per child)

	// Parent realm thread only.
	refWanted bool
	counted   bool
	exited    bool
}

// AddChild makes obj, a JavaScript object of the realm, the parent side of w (nil for a worker that could not
// start: the child ends at the next drain) and starts delivering w's messages as 'message' and 'messageerror'
// events of obj. The child is ref'd. Realm thread only.
func (r *Realm) AddChild(obj *goja.Object, w *Worker, hooks ChildHooks) *Child {
	c := &Child{realm: r, obj: obj, w: w, hooks: hooks, refWanted: true}
	c.drainTask = func(*goja.Runtime) { c.drain() }
	r.children[obj] = c
	c.updateRef()
	if w != nil {
		w.SetNotify(c.Schedule)
	}
	c.Schedule() // messages posted before the hook was installed
	return c
}

// ChildOf returns the live child behind obj, or nil.
func (r *Realm) ChildOf(v goja.Value) *Child {
	o, _ := v.(*goja.Object)
	return r.children[o]
}

// Object returns the child's JavaScript object; Worker its worker (nil if it never started); Realm its parent.
func (c *Child) Object() *goja.Object { return c.obj }
func (c *Child) Worker() *Worker      { return c.w }
func (c *Child) Realm() *Realm        { return c.realm }

// Schedule queues a drain on the parent's loop, once. It may be called from any goroutine.
func (c *Child) Schedule() {
	if c.scheduled.CompareAndSwap(false, true) {
		if !c.realm.loop.RunOnLoop(c.drainTask) {
			c.scheduled.Store(false)
		}
	}
}

// HasListeners reports whether target, an event target of ports.js (a Worker object), has listeners of typ: an
// emit of any type but 'error' that has none does nothing (Emit), so a caller can skip making its arguments.
func (r *Realm) HasListeners(target *goja.Object, typ string) bool {
	r.portsJS()
	return r.hasListeners(target, typ)
}

// SetRef is worker.ref() (on) and worker.unref().
func (c *Child) SetRef(on bool) {
	c.refWanted = on
	c.updateRef()
}

func (c *Child) updateRef() {
	want := c.refWanted && !c.exited && !c.realm.ended
	if want != c.counted {
		c.counted = want
		if want {
			c.realm.AddRef(1)
		} else {
			c.realm.AddRef(-1)
		}
	}
}

// drain delivers what the worker sent since the last drain. Parent thread.
func (c *Child) drain() {
	c.scheduled.Store(false)
	r := c.realm
	if c.exited || r.ended {
		return
	}
	if c.w == nil {
		c.exit()
		return
	}
	if c.hooks.BeforeMessages(c) {
		return
	}
	for range deliveryBatch {
		f, err := c.w.ReceiveFrame(0)
		if errors.Is(err, ErrNoMessage) {
			return
		}
		if err != nil { // closed and drained: the worker ended
			c.exit()
			return
		}
		v, derr := clone.Deserialize(r.rt, f)
		var lerr error
		if derr != nil {
			lerr = r.Emit(c.obj, evMessageError, r.CloneErrorValue(derr))
		} else {
			lerr = r.Emit(c.obj, evMessage, v)
		}
		if r.Report(lerr) || c.exited {
			return
		}
	}
	c.Schedule()
}

// exit ends the child: it is forgotten, unref'd, its worker released, and its hooks told.
func (c *Child) exit() {
	r := c.realm
	c.exited = true
	delete(r.children, c.obj)
	c.updateRef()
	if c.w != nil {
		c.w.Release()
	}
	c.hooks.Exited(c)
}

// CompileError turns a script's compile error into the realm's SyntaxError.
func (r *Realm) CompileError(err error) goja.Value {
	var syn *goja.CompilerSyntaxError
	if depthguard.IsTooDeep(err) {
		return r.NewError("RangeError", "", depthguard.Message) // refused before goja's parser, as V8 refuses it
	}
	if errors.As(err, &syn) {
		return r.NewError("SyntaxError", "", syn.Message)
	}
	return r.NewError("Error", "", err.Error())
}

// ChildOptions are the options of a worker this realm creates: output and inspection as the creator's, channels
// as Node's, then adjusted by the creator's ChildHook, if any.
func (r *Realm) ChildOptions(name, filename string) Options {
	var o Options
	if r.w != nil {
		p := r.w.opts
		o = Options{Stdout: p.Stdout, Stderr: p.Stderr, Inspectable: p.Inspectable, MaxCallStackSize: p.MaxCallStackSize,
			ChildHook: p.ChildHook}
		o.parent = r.w.id
		if r.w.childHolds.Load() > 0 {
			o.WaitForDebugger, o.childHold = true, true
		}
	} else if h := hostLoopOf(r.rt); h != nil {
		o = Options{Stdout: h.opts.Stdout, Stderr: h.opts.Stderr, MaxCallStackSize: h.opts.MaxCallStackSize,
			ChildHook: h.opts.ChildHook}
		o.parent = h.TargetID()
	}
	o.Name, o.Filename = name, filename
	if o.ChildHook != nil {
		o.ChildHook(&o)
	}
	return o
}

// SpawnFile starts a worker the way JavaScript creates them: with JSLimits on both channels, a classic script, or
// (module) an ES module graph whose imports are files (modules.FileLoader) and whose import.meta.url is a file:
// URL. A classic script's syntax error is returned at once; a module's surfaces on the worker's thread, as its
// uncaught exception.
func SpawnFile(path, source string, module bool, opts Options) (*Worker, error) {
	if module {
		opts.Inbox, opts.Outbox = JSLimits, JSLimits
		return spawnFileModule(path, source, opts)
	}
	return spawn(source, opts, JSLimits, JSLimits)
}

// workerNatives are ports.js's Worker natives (the web Worker, and worker_threads' through the Node layer).
func (r *Realm) workerNatives(def func(string, int, func(goja.FunctionCall) goja.Value)) {
	def("spawnWeb", 3, func(c goja.FunctionCall) goja.Value {
		obj, _ := c.Argument(0).(*goja.Object)
		spec, _ := c.Argument(2).(*goja.Object)
		r.spawnWeb(obj, c.Argument(1).String(), spec)
		return goja.Undefined()
	})
	def("workerPost", 3, func(c goja.FunctionCall) goja.Value {
		ch := r.ChildOf(c.Argument(0))
		if ch == nil || ch.w == nil {
			return goja.Undefined() // as in Node, posting to an ended worker does nothing
		}
		err := PostTo(ch.w.inbox, r.rt, c.Argument(1), r.TransferList(c.Argument(2)))
		if err != nil && !errors.Is(err, ErrClosed) {
			r.Throw("postMessage", err)
		}
		return goja.Undefined()
	})
	def("workerTerminate", 1, func(c goja.FunctionCall) goja.Value {
		if ch := r.ChildOf(c.Argument(0)); ch != nil && ch.w != nil {
			ch.w.Terminate()
		}
		return goja.Undefined()
	})
	def("workerRef", 2, func(c goja.FunctionCall) goja.Value {
		if ch := r.ChildOf(c.Argument(0)); ch != nil {
			ch.SetRef(c.Argument(1).ToBoolean())
		}
		return goja.Undefined()
	})
}
