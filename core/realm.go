package core

import (
	_ "embed"
	"errors"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// A RealmLoop is the event loop that owns a realm: a worker's own loop, or the loop of a host realm. Everything the
// JavaScript-facing worker APIs deliver into a realm (messages of child workers and ports, their exits) runs as a
// task on it.
type RealmLoop interface {
	// RunOnLoop queues fn to run on the realm's thread; false if the loop has ended (fn will not run).
	RunOnLoop(fn func(*goja.Runtime)) bool
	// reportErr reports an exception a listener threw (on the realm's thread).
	reportErr(err error)
}

// A Realm is the library's state for the JavaScript-facing worker APIs of one realm — the web Worker,
// MessageChannel, MessagePort and BroadcastChannel every realm has, and what the Node layer builds on them
// (worker_threads, parentPort): the realm's ports, channels and child workers, and how many of them are ref'd (keep
// a Node-style loop alive). It is made on first use and used only on the realm's thread.
type Realm struct {
	rt   *goja.Runtime
	loop RealmLoop
	w    *Worker // the realm's worker; nil for a host realm

	refs  int
	ended bool

	lazyFn                     goja.Callable // ports.js's lazy(name): what else it makes, on first use; nil until it ran
	methodFn                   goja.Callable // lazy, as the maker of the prototypes' lazy methods
	emitFn, emit1Fn, errorEvFn goja.Callable // lazy's apiEmit, apiEmit1 and errorEvent, once used
	lazyObj                    *goja.Object  // lazy, the function object
	emitterClass, portClass    *goja.Object  // ports.js's EventEmitter and MessagePort
	kListeners, kCreate        *goja.Symbol  // where a target keeps its listeners (ports.js); MessagePort's constructor key
	kChanged                   *goja.Symbol  // a target's method told when its listeners of a type change (ports.js)
	api                        *goja.Object  // the object library sources get (API), made on first use
	messageType                goja.Value    // "message", made once

	ports    map[*goja.Object]PortBackend // the realm's MessagePort objects (port.go)
	children map[*goja.Object]*Child      // live workers this realm created (child.go)
	bcs      map[*goja.Object]*bcMember   // open BroadcastChannels (broadcast.go)
	extra    map[any]any                  // state of the layers above core (SetValue)
}

// realmKey finds a runtime's Realm (the structured-clone port hook starts from a runtime); makerKey finds how to
// make it, so that a realm that never used the APIs can still receive a MessagePort.
var (
	realmKey = realmdata.NewKey[*Realm]("core.realm")
	makerKey = realmdata.NewKey[func() *Realm]("core.realmMaker")
)

func newRealm(rt *goja.Runtime, loop RealmLoop, w *Worker) *Realm {
	r := &Realm{
		rt: rt, loop: loop, w: w,
		ports:    make(map[*goja.Object]PortBackend),
		children: make(map[*goja.Object]*Child),
		bcs:      make(map[*goja.Object]*bcMember),
	}
	realmKey.Set(rt, r)
	return r
}

// RealmOf returns rt's Realm, making it if rt is a worker's or a host realm's that has not used the APIs yet; nil
// for any other runtime. It must be called on rt's thread.
func RealmOf(rt *goja.Runtime) *Realm { return realmOfOrNew(rt) }

// realmOf returns rt's Realm, or nil if the realm never used the APIs.
func realmOf(rt *goja.Runtime) *Realm {
	r, _ := realmKey.Get(rt)
	return r
}

func realmOfOrNew(rt *goja.Runtime) *Realm {
	if r := realmOf(rt); r != nil {
		return r
	}
	if mk, ok := makerKey.Get(rt); ok {
		return mk()
	}
	return nil
}

// realm returns the worker's Realm, making it on first use. Worker goroutine only.
func (w *Worker) realm() *Realm {
	if w.js == nil {
		w.js = newRealm(w.rt, w, w)
	}
	return w.js
}

// Realm returns the worker's Realm, making it on first use. Worker thread only (from Options.Setup, an
// Extension, or host functions).
func (w *Worker) Realm() *Realm { return w.realm() }

// Runtime returns the realm's runtime.
func (r *Realm) Runtime() *goja.Runtime { return r.rt }

// Worker returns the realm's worker, nil for a host realm.
func (r *Realm) Worker() *Worker { return r.w }

// RunOnLoop queues fn to run on the realm's thread between macrotasks; false once the realm's loop has ended.
// It may be called from any goroutine.
func (r *Realm) RunOnLoop(fn func(*goja.Runtime)) bool { return r.loop.RunOnLoop(fn) }

// AddRef adds delta to the count of ref'd handles (child workers, started ports, listening channels) that keep a
// Node-style loop alive.
func (r *Realm) AddRef(delta int) { r.refs += delta }

// Refs returns the count of ref'd handles.
func (r *Realm) Refs() int { return r.refs }

// Ended reports whether the realm's loop has ended (its ports closed, its children terminated).
func (r *Realm) Ended() bool { return r.ended }

// Value returns the state a layer above core keeps under key, or nil.
func (r *Realm) Value(key any) any { return r.extra[key] }

// SetValue keeps v under key for a layer above core (the Node layer keeps its worker_threads module there).
func (r *Realm) SetValue(key, v any) {
	if r.extra == nil {
		r.extra = make(map[any]any)
	}
	r.extra[key] = v
}

//go:embed js/ports.js
var portsJS string

// portsSource builds the JavaScript side of a realm's worker APIs.
var portsSource = jsutil.NewSource("jsworker:ports", portsJS)

// portsJS runs ports.js for the realm on first use. Realm thread only.
func (r *Realm) portsJS() {
	if r.lazyFn != nil {
		return
	}
	// ports.js's private symbols, made here so that an idle realm never makes the global Symbol constructor.
	var keys [5]*goja.Symbol
	natives := r.natives()
	args := []goja.Value{natives}
	for i, name := range [...]string{"kListeners", "kHandlers", "kChanged", "kCreate", "kEvent"} {
		keys[i] = goja.NewSymbol(name)
		args = append(args, keys[i])
	}
	v, err := portsSource.Call(r.rt, append(args, goja.SymToStringTag)...)
	if err != nil {
		panic(err)
	}
	lazy, ok := goja.AssertFunction(v)
	if !ok {
		panic("jsworker: ports.js does not return lazy")
	}
	r.lazyObj = v.(*goja.Object)
	part := func(name string) goja.Value {
		v, err := lazy(goja.Undefined(), r.rt.ToValue(name))
		if err != nil {
			panic(err)
		}
		return v
	}
	r.methodFn = lazy // lazy(name) makes the prototypes' methods too
	r.emitterClass, _ = part("EventEmitter").(*goja.Object)
	r.portClass, _ = part("MessagePort").(*goja.Object)
	r.kListeners, r.kCreate, r.kChanged = keys[0], keys[3], keys[2]
	r.lazyFn = lazy
	// MessagePort.prototype[kChanged] (Go's portChanged) and [Symbol.toStringTag], as ports.js defined them before
	// (writable and configurable; configurable; goja's order is writable, configurable, enumerable), in that order.
	pp := r.portClass.Get("prototype").(*goja.Object)
	if err := pp.DefineDataPropertySymbol(keys[2], natives.Get("portChanged"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		panic(err)
	}
	if err := pp.DefineDataPropertySymbol(goja.SymToStringTag, r.rt.ToValue("MessagePort"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		panic(err)
	}
	for _, c := range [...]struct {
		class *goja.Object
		names []string
	}{{r.emitterClass, emitterMethods}, {r.portClass, portMethods}} {
		proto := c.class.Get("prototype").(*goja.Object)
		if gojainternal.DefineLazy(proto, protoMethods, c.names...) {
			continue
		}
		for _, name := range c.names { // without lazy properties: all of them now, the same properties
			if err := r.makeMethod(name).Define(proto, name); err != nil {
				panic(err)
			}
		}
	}
}

// API returns the object the library's JavaScript sources above core get for the realm's worker APIs
// (EventEmitter, MessagePort, and lazy(name), which makes MessageChannel, BroadcastChannel, receiveMessageOnPort,
// workerPost, workerRef …), running ports.js on first use.
func (r *Realm) API() *goja.Object {
	if r.api == nil {
		r.portsJS()
		api := r.rt.NewObject()
		_ = api.Set("EventEmitter", r.emitterClass)
		_ = api.Set("MessagePort", r.portClass)
		_ = api.Set("lazy", r.lazyObj)
		r.api = api
	}
	return r.api
}

// newPort makes a MessagePort object of the realm (new MessagePort(kCreate)).
func (r *Realm) newPort() *goja.Object {
	r.portsJS()
	o, err := r.rt.New(r.portClass, r.kCreate)
	if err != nil {
		panic(err)
	}
	return o
}

// emitterMethods and portMethods are the properties ports.js's lazy(name) makes for EventEmitter.prototype and
// MessagePort.prototype, in the order a class would have defined them.
var (
	emitterMethods = []string{"on", "prependListener", "once", "prependOnceListener", "removeListener",
		"removeAllListeners", "emit", "listenerCount", "listeners", "rawListeners", "eventNames", "setMaxListeners",
		"getMaxListeners", "addListener", "off"}
	portMethods = []string{"postMessage", "start", "close", "ref", "unref", "hasRef", "addEventListener",
		"removeEventListener", "dispatchEvent", "onmessage", "onmessageerror", "onclose"}
)

// protoMethods makes the prototypes' methods on first touch: a method is writable, configurable and not
// enumerable, as a class's; an on<type> handler an enumerable, configurable accessor.
var protoMethods = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	r := realmOf(rt)
	if r == nil || r.methodFn == nil {
		panic(rt.NewTypeError("jsworker: the realm's ports are gone"))
	}
	return r.makeMethod(name)
})

// makeMethod calls ports.js's lazy(name) and says what property it makes.
func (r *Realm) makeMethod(name string) gojainternal.Prop {
	v, err := r.methodFn(goja.Undefined(), r.rt.ToValue(name))
	if err != nil {
		panic(err) // goja's own error (an exception, or termination): rethrown as it is, to the access that made it
	}
	if _, ok := goja.AssertFunction(v); ok {
		return gojainternal.Prop{Value: v, Writable: true, Configurable: true}
	}
	d := v.ToObject(r.rt)
	return gojainternal.Prop{Accessor: true, Getter: d.Get("get"), Setter: d.Get("set"), Enumerable: true, Configurable: true}
}

// exportFunc returns the function Export(name) returns.
func (r *Realm) exportFunc(name string) goja.Callable {
	f, ok := goja.AssertFunction(r.Export(name))
	if !ok {
		panic("jsworker: ports.js function " + name + " missing")
	}
	return f
}

// Export returns the ports.js part name (EventEmitter, MessagePort, or one lazy(name) makes), making it on first use.
func (r *Realm) Export(name string) goja.Value {
	r.portsJS()
	switch name {
	case "EventEmitter":
		return r.emitterClass
	case "MessagePort":
		return r.portClass
	}
	v, err := r.lazyFn(goja.Undefined(), r.rt.ToValue(name))
	if err != nil {
		panic(err)
	}
	return v
}

// natives returns the Go functions ports.js calls (its N): the MessagePort natives, and more(kind), which makes
// the BroadcastChannel ("broadcast") or Worker ("worker") natives when ports.js first needs them. Each is made when
// ports.js first calls it (jsutil.LazyFuncs).
func (r *Realm) natives() *goja.Object {
	n := r.rt.NewObject()
	portFuncs.Define(r.rt, n)
	return n
}

// portFuncs, broadcastFuncs and workerFuncs are the groups of natives (see natives); made by init, as they refer
// to the code that calls them.
var portFuncs, broadcastFuncs, workerFuncs *jsutil.LazyFuncs

func init() {
	portFuncs = jsutil.NewLazyFuncs(func(rt *goja.Runtime, def jsutil.DefFunc) {
		r := realmOf(rt)
		if r == nil {
			return
		}
		r.portNatives(def)
		def("more", 1, func(c goja.FunctionCall) goja.Value {
			n := rt.NewObject()
			switch c.Argument(0).String() {
			case "broadcast":
				broadcastFuncs.Define(rt, n)
			case "worker":
				workerFuncs.Define(rt, n)
			default:
				panic(rt.NewTypeError("jsworker: no natives named %s", c.Argument(0).String()))
			}
			return n
		})
	})
	broadcastFuncs = jsutil.NewLazyFuncs(func(rt *goja.Runtime, def jsutil.DefFunc) {
		if r := realmOf(rt); r != nil {
			r.broadcastNatives(def)
		}
	})
	workerFuncs = jsutil.NewLazyFuncs(func(rt *goja.Runtime, def jsutil.DefFunc) {
		if r := realmOf(rt); r != nil {
			r.workerNatives(def)
		}
	})
}

// Emit calls target.emit(typ, args...) the ports.js way and returns what a listener threw.
func (r *Realm) Emit(target *goja.Object, typ string, args ...goja.Value) error {
	r.portsJS()
	if len(args) == 1 {
		if m, ok := target.GetSymbol(r.kListeners).(*goja.Object); ok {
			if typ == evMessage { // one plain listener (kept alone, as itself: ports.js): call it, with the target as this
				if fn, ok := goja.AssertFunction(m.Get(evMessage)); ok {
					_, err := fn(target, args[0])
					return err
				}
			}
			if done, err := r.emitOnce(target, m, typ, args[0]); done {
				return err
			}
		}
		if r.emit1Fn == nil {
			r.emit1Fn = r.exportFunc("apiEmit1")
		}
		_, err := r.emit1Fn(goja.Undefined(), target, r.typeValue(typ), args[0])
		return err
	}
	if r.emitFn == nil {
		r.emitFn = r.exportFunc("apiEmit")
	}
	all := make([]goja.Value, 0, 2+len(args))
	all = append(all, target, r.rt.ToValue(typ))
	all = append(all, args...)
	_, err := r.emitFn(goja.Undefined(), all...)
	return err
}

// emitOnce is ports.js's emit of one argument when the type's only listener is a lone once() emitter listener
// (the entry { fn, once: true, event: false } that once and prependOnceListener make, kept alone: ports.js),
// done in Go: the entry removed from m (target's listener lists), target's kChanged method told, then the listener
// called with target as this — what ports.js's emit, callListener, removeEntry, removeAt and changed do, in their
// order. Every entry and list here is a plain object ports.js made, read without running JavaScript; anything else
// (an array of entries, an event listener, a value the plain-object reader does not know) is left to ports.js
// (done is false, nothing changed). A parent's once('message') on each of its workers is the common case.
func (r *Realm) emitOnce(target, m *goja.Object, typ string, a goja.Value) (done bool, err error) {
	v, ok := gojainternal.PlainGet(m, unistring.NewFromString(typ))
	e, _ := v.(*goja.Object)
	if !ok || e == nil {
		return false, nil
	}
	once, ok := gojainternal.PlainGet(e, "once")
	if !ok || once == nil || !once.ToBoolean() {
		return false, nil
	}
	event, ok := gojainternal.PlainGet(e, "event")
	if !ok || event == nil || event.ToBoolean() {
		return false, nil
	}
	fv, ok := gojainternal.PlainGet(e, "fn")
	fn, isFn := goja.AssertFunction(fv)
	if !ok || !isFn {
		return false, nil
	}
	if err := m.Delete(typ); err != nil {
		return true, err
	}
	var changed goja.Value
	if ex := r.rt.Try(func() { changed = target.GetSymbol(r.kChanged) }); ex != nil { // a getter may throw
		return true, ex
	}
	if f, ok := goja.AssertFunction(changed); ok {
		if _, err := f(target, r.typeValue(typ)); err != nil {
			return true, err
		}
	}
	_, err = fn(target, a)
	return true, err
}

// typeValue is the JavaScript string of an event type, made once for the message events.
func (r *Realm) typeValue(typ string) goja.Value {
	if typ == evMessage {
		if r.messageType == nil {
			r.messageType = r.rt.ToValue(evMessage)
		}
		return r.messageType
	}
	return r.rt.ToValue(typ)
}

// Report hands an exception from a listener to the realm's loop; it tells whether the caller should stop (the
// realm is being terminated or has ended).
func (r *Realm) Report(err error) (stop bool) {
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

// Throw panics with the JavaScript error for a failure of op: the exception itself when a getter threw, a
// RangeError for limits, an InvalidStateError for a closed channel, a DataCloneError for clone failures. Call it
// only from a native function called by JavaScript.
func (r *Realm) Throw(op string, err error) {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		panic(ex.Value())
	}
	switch {
	case errors.Is(err, ErrQueueFull), errors.Is(err, ErrFrameTooLarge), errors.Is(err, ErrOutOfMemory):
		panic(r.NewError("RangeError", "", op+": "+err.Error()))
	case errors.Is(err, ErrClosed), errors.Is(err, ErrReleased):
		panic(r.NewError("Error", "InvalidStateError", op+": "+err.Error()))
	}
	panic(clone.JSError(r.rt, err))
}

// NewError makes an error with the realm's global constructor ctor ("Error", "TypeError" …) and, if name is not
// empty, that name.
func (r *Realm) NewError(ctor, name, msg string) *goja.Object {
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

// TransferList converts a transfer argument already normalized by ports.js's transferArg.
func (r *Realm) TransferList(v goja.Value) []goja.Value {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	var list []goja.Value
	if err := r.rt.ExportTo(v, &list); err != nil {
		panic(r.rt.NewTypeError("postMessage: bad transfer list: %v", err))
	}
	return list
}

// end runs as the realm's loop ends: child workers are terminated and waited for, ports close (their peers get
// 'close'), BroadcastChannels leave their names. Realm thread only.
func (r *Realm) end() {
	if r.ended {
		return
	}
	r.ended = true
	kids := make([]*Child, 0, len(r.children))
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
		p.RealmEnded()
		delete(r.ports, o)
	}
	for _, m := range r.bcs {
		m.leave()
	}
	clear(r.bcs)
	clear(r.children)
}

// CloneErrorValue is the value a 'messageerror' carries for a message that could not be read.
func (r *Realm) CloneErrorValue(err error) goja.Value {
	var v goja.Value
	func() {
		defer func() {
			if p := recover(); p != nil {
				v = r.NewError("Error", "DataCloneError", err.Error())
			}
		}()
		v = clone.JSError(r.rt, err)
	}()
	return v
}

// apiGlobals are the globals every realm (worker or host) gets for the worker APIs, and the ports.js export behind
// each. They are defined lazily: an accessor that builds the realm's Realm and ports.js on first access, then
// replaces itself with an ordinary data property. A realm that never touches them pays two native functions a name.
var apiGlobals = [...]struct{ global, export string }{
	{"Worker", "WebWorker"},
	{"MessageChannel", "MessageChannel"},
	{"MessagePort", "MessagePort"},
	{"BroadcastChannel", "BroadcastChannel"},
}

// installAPIGlobals defines the lazy worker-API globals of rt; mk makes (or returns) the realm's Realm.
func installAPIGlobals(rt *goja.Runtime, mk func() *Realm) error {
	makerKey.Set(rt, mk)
	for _, ag := range apiGlobals {
		export := ag.export
		if err := jsutil.DefineLazyGlobal(rt, ag.global, func() goja.Value { return mk().Export(export) }); err != nil {
			return err
		}
	}
	return nil
}
