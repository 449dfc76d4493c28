package core

import (
	"errors"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// A realmLoop is the event loop that owns a realm: a worker's own loop, or
// the HostLoop of a host realm. Everything the JS-facing worker APIs deliver
// into a realm (messages of child workers and ports, their exits) runs as a
// task on it.
type realmLoop interface {
	// RunOnLoop queues fn to run on the realm's thread; false if the loop
	// has ended (fn will not run).
	RunOnLoop(fn func(*goja.Runtime)) bool
	// reportErr reports an exception a listener threw (on the realm's thread).
	reportErr(err error)
}

// A jsRealm is the state of the JS-facing worker APIs (worker_threads, the
// web Worker, MessageChannel, BroadcastChannel) in one realm. It is made on
// first use and touched only on the realm's thread.
type jsRealm struct {
	rt   *goja.Runtime
	loop realmLoop
	w    *Worker // the realm's worker; nil for a host realm

	// refs counts the ref'd handles (child workers, started ports and
	// channels) that keep a Node-style loop alive.
	refs  int
	ended bool

	api                                   *goja.Object // the prelude's result, made on first use
	emitFn, emit1Fn, newPortFn, errorEvFn goja.Callable
	messageType                           goja.Value   // "message", made once
	fastKey                               *goja.Symbol // where a target keeps its only plain 'message' listener

	ports    map[*goja.Object]portLike     // the realm's MessagePort objects (port.go)
	children map[*goja.Object]*childWorker // live workers this realm created (nodeworker_parent.go)
	bcs      map[*goja.Object]*bcMember    // open BroadcastChannels (broadcast.go)
	module   *goja.Object                  // the worker_threads exports, made on first require
}

// realmKey is the private symbol the jsRealm hangs under on the realm's
// global object, so that the structured-clone port hook (port_transfer.go)
// finds it from a runtime.
var realmKey = goja.NewSymbol("jsworker.core.jsRealm")

func newJSRealm(rt *goja.Runtime, loop realmLoop, w *Worker) *jsRealm {
	r := &jsRealm{
		rt: rt, loop: loop, w: w,
		ports:    make(map[*goja.Object]portLike),
		children: make(map[*goja.Object]*childWorker),
		bcs:      make(map[*goja.Object]*bcMember),
	}
	_ = rt.GlobalObject().DefineDataPropertySymbol(realmKey, rt.ToValue(r), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	return r
}

// jsRealmOf returns rt's jsRealm, or nil if the realm never used the APIs.
// It must be called on rt's thread.
func jsRealmOf(rt *goja.Runtime) *jsRealm {
	v := rt.GlobalObject().GetSymbol(realmKey)
	if v == nil {
		return nil
	}
	r, _ := v.Export().(*jsRealm)
	if r == nil || r.rt != rt {
		return nil
	}
	return r
}

// jsRealm returns the worker's jsRealm, making it on first use. Worker
// goroutine only.
func (w *Worker) jsRealm() *jsRealm {
	if w.js == nil {
		w.js = newJSRealm(w.rt, w, w)
	}
	return w.js
}

// addRef adds delta to the ref'd-handle count.
func (r *jsRealm) addRef(delta int) { r.refs += delta }

// prelude runs the prelude in the realm on first use and returns its result.
func (r *jsRealm) prelude() *goja.Object {
	if r.api != nil {
		return r.api
	}
	v, err := runFactory(r.rt, preludeSrc, r.natives())
	if err != nil {
		panic(err)
	}
	api := v.(*goja.Object)
	fn := func(name string) goja.Callable {
		f, ok := goja.AssertFunction(api.Get(name))
		if !ok {
			panic("jsworker: prelude function " + name + " missing")
		}
		return f
	}
	r.emitFn, r.emit1Fn, r.newPortFn, r.errorEvFn = fn("emit"), fn("emit1"), fn("newPort"), fn("errorEvent")
	r.fastKey, _ = api.Get("fastKey").(*goja.Symbol)
	r.api = api
	return api
}

// natives returns the Go functions the prelude calls (its N).
func (r *jsRealm) natives() *goja.Object {
	n := r.rt.NewObject()
	def := func(name string, length int, fn func(goja.FunctionCall) goja.Value) {
		defineFunc(r.rt, n, name, length, fn)
	}
	r.portNatives(def)
	r.broadcastNatives(def)
	r.workerNatives(def)
	r.processNatives(def)
	return n
}

// emit calls target.emit(type, args...) the prelude's way. An exception a
// listener threw is returned.
func (r *jsRealm) emit(target *goja.Object, typ string, args ...goja.Value) error {
	if len(args) == 1 {
		if typ == evMessage && r.fastKey != nil { // one plain listener: call it, with the target as this
			if fn, ok := goja.AssertFunction(target.GetSymbol(r.fastKey)); ok {
				_, err := fn(target, args[0])
				return err
			}
		}
		_, err := r.emit1Fn(goja.Undefined(), target, r.typeValue(typ), args[0])
		return err
	}
	all := make([]goja.Value, 0, 2+len(args))
	all = append(all, target, r.rt.ToValue(typ))
	all = append(all, args...)
	_, err := r.emitFn(goja.Undefined(), all...)
	return err
}

// typeValue is the JavaScript string of an event type, made once for the
// message events.
func (r *jsRealm) typeValue(typ string) goja.Value {
	switch typ {
	case evMessage:
		if r.messageType == nil {
			r.messageType = r.rt.ToValue(evMessage)
		}
		return r.messageType
	}
	return r.rt.ToValue(typ)
}

// report hands an exception from a listener to the loop; it tells whether
// the caller should stop (the realm is being terminated).
func (r *jsRealm) report(err error) (stop bool) {
	if err == nil {
		return false
	}
	var intr *goja.InterruptedError
	if errors.As(err, &intr) {
		return true
	}
	r.loop.reportErr(err)
	return r.ended
}

// throw panics with the JavaScript error for a failure of op: the exception
// itself when a getter threw, a RangeError for limits, an InvalidStateError
// for a closed channel, a DataCloneError for clone failures.
func (r *jsRealm) throw(op string, err error) {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		panic(ex.Value())
	}
	switch {
	case errors.Is(err, ErrQueueFull), errors.Is(err, ErrFrameTooLarge), errors.Is(err, ErrOutOfMemory):
		panic(r.newError("RangeError", "", op+": "+err.Error()))
	case errors.Is(err, ErrClosed), errors.Is(err, ErrReleased):
		panic(r.newError("Error", "InvalidStateError", op+": "+err.Error()))
	}
	panic(clone.JSError(r.rt, err))
}

// newError makes an error with the realm's constructor ctor and, if name is
// not empty, that name.
func (r *jsRealm) newError(ctor, name, msg string) *goja.Object {
	var o *goja.Object
	r.rt.Try(func() {
		if c, ok := r.rt.GlobalObject().Get(ctor).(*goja.Object); ok {
			o, _ = r.rt.New(c, r.rt.ToValue(msg))
		}
	})
	if o == nil {
		o = r.rt.NewGoError(errors.New(msg))
	}
	if name != "" {
		_ = o.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	return o
}

// transferList converts the prelude's normalized transfer argument.
func (r *jsRealm) transferList(v goja.Value) []goja.Value {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	var list []goja.Value
	if err := r.rt.ExportTo(v, &list); err != nil {
		panic(r.rt.NewTypeError("postMessage: bad transfer list: %v", err))
	}
	return list
}

// end runs as the realm's loop ends: child workers are terminated and
// waited for, ports close (their peers get 'close'), BroadcastChannels
// leave their names. Realm thread only.
func (r *jsRealm) end() {
	if r.ended {
		return
	}
	r.ended = true
	kids := make([]*childWorker, 0, len(r.children))
	for _, c := range r.children {
		kids = append(kids, c)
	}
	for _, c := range kids {
		if c.w != nil {
			c.w.Terminate()
		}
	}
	for _, c := range kids {
		if c.w != nil {
			c.w.Release()
		}
	}
	for o, p := range r.ports {
		p.realmEnded()
		delete(r.ports, o)
	}
	for _, m := range r.bcs {
		m.leave()
	}
	clear(r.bcs)
	clear(r.children)
}

// emitError emits an 'error' of a port or worker whose message could not be
// read ('messageerror').
func (r *jsRealm) cloneErrorValue(err error) goja.Value {
	var v goja.Value
	func() {
		defer func() {
			if p := recover(); p != nil {
				v = r.newError("Error", "DataCloneError", err.Error())
			}
		}()
		v = clone.JSError(r.rt, err)
	}()
	return v
}
