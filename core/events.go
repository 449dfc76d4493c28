package core

import (
	_ "embed"
	"errors"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// The event types a worker dispatches.
const (
	evMessage      = "message"
	evMessageError = "messageerror"
)

// A listener is one entry of the worker global's event-listener list. The
// onmessage / onmessageerror handlers are entries too, placed where they
// were first set, as the HTML spec orders event handlers.
type listener struct {
	typ     string
	value   goja.Value    // the function or handleEvent object, for identity
	fn      goja.Callable // value as a function; nil for a handleEvent object
	once    bool
	handler bool // set through onmessage / onmessageerror
	removed bool
}

//go:embed js/messageevent.js
var messageEventJS string

// eventProtoSource makes the prototype of every MessageEvent the worker global dispatches.
var eventProtoSource = jsutil.NewSource("jsworker:MessageEvent", messageEventJS)

// messageEventProto returns the prototype of the realm's MessageEvents, making it on first use.
func (w *Worker) messageEventProto() (*goja.Object, error) {
	if w.eventProto == nil {
		proto, err := eventProtoSource.Call(w.rt, w.global, w.freeze)
		if err != nil {
			return nil, err
		}
		w.eventProto = proto.(*goja.Object)
	}
	return w.eventProto, nil
}

// installEvents defines addEventListener, removeEventListener, onmessage and
// onmessageerror on the worker global.
func (w *Worker) installEvents(g *goja.Object) error {
	rt := w.rt
	// The MessageEvent prototype is made with the first event (messageEventProto): a Node-style realm never
	// dispatches one. Object.freeze is taken now, before any script could replace it.
	if obj, ok := g.Get("Object").(*goja.Object); ok {
		w.freeze = obj.Get("freeze")
	}

	w.defineFunc(g, "addEventListener", 2, func(call goja.FunctionCall) goja.Value {
		typ, fn := call.Argument(0).String(), call.Argument(1)
		if !isListener(fn) {
			if goja.IsUndefined(fn) || goja.IsNull(fn) {
				return goja.Undefined()
			}
			panic(rt.NewTypeError("addEventListener: the listener must be a function or an object with handleEvent"))
		}
		if w.findListener(typ, fn) == nil {
			callable, _ := goja.AssertFunction(fn)
			w.listeners = append(w.listeners, &listener{typ: typ, value: fn, fn: callable, once: onceOption(call.Argument(2))})
		}
		return goja.Undefined()
	})
	w.defineFunc(g, "removeEventListener", 2, func(call goja.FunctionCall) goja.Value {
		if l := w.findListener(call.Argument(0).String(), call.Argument(1)); l != nil {
			w.removeListener(l)
		}
		return goja.Undefined()
	})
	workerKey.Set(rt, w)
	if gojainternal.DefineLazy(g, handlerProps, "on"+evMessage, "on"+evMessageError) {
		return nil
	}
	for i := range handlerTypes {
		if err := w.handlerProp(i).Define(g, "on"+handlerTypes[i]); err != nil {
			return err
		}
	}
	return nil
}

// handlerTypes are the event types of the worker's global on<type> handler properties, by handler index.
var handlerTypes = [...]string{evMessage, evMessageError}

// workerKey finds the worker of a realm from its runtime (for handlerProps).
var workerKey = realmdata.NewKey[*Worker]("core.worker")

// handlerProps makes the global onmessage and onmessageerror accessors on first touch.
var handlerProps = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	w, _ := workerKey.Get(rt)
	if w == nil {
		panic(rt.NewTypeError("jsworker: the worker of this realm is gone"))
	}
	for i, typ := range handlerTypes {
		if name == "on"+typ {
			return w.handlerProp(i)
		}
	}
	panic(rt.NewTypeError("jsworker: no handler property %s", name))
})

// handlerProp is the enumerable, configurable accessor of the global handler property of handlerTypes[i].
func (w *Worker) handlerProp(i int) gojainternal.Prop {
	rt, typ := w.rt, handlerTypes[i]
	get := rt.ToValue(func(goja.FunctionCall) goja.Value {
		if h := w.handlers[i]; h != nil {
			return h.value
		}
		return goja.Null()
	})
	set := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		w.setHandler(i, typ, call.Argument(0))
		return goja.Undefined()
	})
	return gojainternal.Prop{Accessor: true, Getter: get, Setter: set, Enumerable: true, Configurable: true}
}

func isListener(v goja.Value) bool {
	if _, ok := goja.AssertFunction(v); ok {
		return true
	}
	o, ok := v.(*goja.Object)
	return ok && o != nil
}

func onceOption(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	once := o.Get("once")
	return once != nil && once.ToBoolean()
}

func (w *Worker) findListener(typ string, fn goja.Value) *listener {
	for _, l := range w.listeners {
		if !l.handler && l.typ == typ && l.value.SameAs(fn) {
			return l
		}
	}
	return nil
}

func (w *Worker) removeListener(l *listener) {
	l.removed = true
	for i, x := range w.listeners {
		if x == l {
			w.listeners = append(w.listeners[:i:i], w.listeners[i+1:]...)
			return
		}
	}
}

// setHandler implements the onmessage / onmessageerror setters: a function
// takes the handler's place in the listener list (kept where it was first
// set); anything else removes it.
func (w *Worker) setHandler(i int, typ string, v goja.Value) {
	fn, ok := goja.AssertFunction(v)
	if !ok {
		if h := w.handlers[i]; h != nil {
			w.removeListener(h)
			w.handlers[i] = nil
		}
		return
	}
	if h := w.handlers[i]; h != nil {
		h.value, h.fn = v, fn
		return
	}
	h := &listener{typ: typ, value: v, fn: fn, handler: true}
	w.handlers[i] = h
	w.listeners = append(w.listeners, h)
}

// dispatch delivers a message event of type typ carrying data to every
// listener registered for it when dispatch began, in order. Each listener is
// its own call into JavaScript (microtasks run after each, as the HTML spec
// says); an exception from one is reported and the others still run. Only a
// termination stops the dispatch; it is returned.
func (w *Worker) dispatch(typ string, data goja.Value) error {
	snapshot := w.dispatchScratch[:0] // dispatch is never re-entered: only the loop calls it
	for _, l := range w.listeners {
		if l.typ == typ {
			snapshot = append(snapshot, l)
		}
	}
	defer func() { clear(snapshot); w.dispatchScratch = snapshot[:0] }()
	if len(snapshot) == 0 {
		return nil
	}
	// Own data properties defined directly: a plain Set would first search
	// the prototype chain for setters.
	proto, err := w.messageEventProto()
	if err != nil {
		return err
	}
	ev := w.rt.CreateObject(proto)
	ev.DefineDataProperty("type", w.eventType(typ), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	ev.DefineDataProperty("data", data, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	for _, l := range snapshot {
		if l.removed {
			continue
		}
		if l.once {
			w.removeListener(l)
		}
		err := w.callListener(l, ev)
		var intr *goja.InterruptedError
		if errors.As(err, &intr) {
			return err
		}
		if err != nil {
			w.reportErr(err)
		}
		w.reportRejections()
	}
	return nil
}

func (w *Worker) callListener(l *listener, ev *goja.Object) error {
	if l.fn != nil {
		_, err := l.fn(w.global, ev)
		return err
	}
	obj := l.value.(*goja.Object)
	var err error
	if ex := w.rt.Try(func() {
		fn, ok := goja.AssertFunction(obj.Get("handleEvent"))
		if !ok {
			panic(w.rt.NewTypeError("the listener's handleEvent is not a function"))
		}
		_, err = fn(obj, ev)
	}); ex != nil {
		return ex
	}
	return err
}

// eventType returns the realm's string value for an event type, made once.
func (w *Worker) eventType(typ string) goja.Value {
	if typ == evMessage {
		if w.messageType == nil {
			w.messageType = w.rt.ToValue(typ)
		}
		return w.messageType
	}
	return w.rt.ToValue(typ)
}
