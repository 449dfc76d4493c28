package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// A context is a main context (JSGlobalContextRef): a core.HostRealm, owned by the OS thread that created it.
// Everything in it is touched only by that thread, so it needs no lock.
type context struct {
	h    uintptr
	tid  int
	host *core.HostRealm // the realm: its runtime, event loop (eventloop.go), inspector target and Debugger
	rt   *goja.Runtime   // host.Runtime()
	refs int             // JSGlobalContextRetain/Release
	in   intrinsics

	// The C ABI's synchronous inspector sessions (inspector_context.go), in creation order; closed once the
	// context is destroyed.
	sessions []*contextSession
	closed   bool

	// values holds the context's live value handles (and released ones not yet compacted away) in the order they
	// were made. A handle scope is a mark into it; closing the scope releases what lies above the mark.
	values []*value
	dead   int           // released values still in values
	scopes []scopeMark   // open scopes, outermost first
	trash  []uintptr     // reused by releaseFrom
	spare  []*value      // records of released values, reused by newValue (at most maxSpare)
	blocks []*valueBlock // the blocks holding the value handles (valueblocks.go)
	blk    *valueBlock   // the block new values are placed in; nil before the first
	args   []uintptr     // the handles of running host functions' arguments (object.go), innermost last

	x extState // classes, external buffers, finalizers (realm_ext.go)

	// worker is set for a worker's context (workerctx.go): host is nil, the owner (tid) is the worker's negative
	// id, and the worker, not JSGlobalContextRelease, ends it.
	worker *core.Worker

	sink *consoleSink // where its console lines go (console.go)
	gone atomic.Bool  // destroyed (ctxCache)
}

// A value is what a JSValueRef names: a goja value of one context.
type value struct {
	h        uintptr
	c        *context
	v        goja.Value
	protect  int         // JSValueProtect count
	released bool        // the handle is gone; the entry waits in c.values for compaction
	blk      *valueBlock // the block of h while it lives (valueblocks.go)
}

// A scopeMark is an open handle scope: the length of values when it opened and its handle (0 for the scopes the
// library opens around host function calls).
type scopeMark struct {
	mark int
	h    uintptr
}

// A scope is what a ZJSHandleScopeRef names.
type scope struct {
	c     *context
	depth int // index into c.scopes
}

// intrinsics are the realm's own functions, captured when the context is made so that a script replacing a global
// (Error, JSON, Object.defineProperty) cannot change what the C API does.
type intrinsics struct {
	global                                        *goja.Object
	errorCtor, typeError, rangeError, syntaxError *goja.Object
	jsonParse, jsonStringify, toString            goja.Callable
	get, set, define, has, del, names             goja.Callable
}

// helperSource defines the property operations with JavaScript's own semantics (property keys stay exact JS
// strings, proxies and accessors behave as in a script). It is sloppy-mode code: JSObjectSetProperty, like an
// assignment in a sloppy script, ignores a read-only property instead of throwing.
const helperSource = `(function (defineProperty) {
	return {
		get: function (o, k) { return o[k]; },
		set: function (o, k, v) { o[k] = v; },
		define: function (o, k, v, w, e, c) {
			if (k in o) { o[k] = v; return; }
			defineProperty(o, k, {value: v, writable: w, enumerable: e, configurable: c});
		},
		has: function (o, k) { return k in o; },
		del: function (o, k) { return delete o[k]; },
		names: function (o) { var a = []; for (var k in o) a.push(k); return a; }
	};
})`

var helperProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("jsworker-capi-helpers.js", helperSource, false)
})

var precompile sync.Once

// startPrecompile compiles, once per process and on a goroutine of its own, the two programs every context runs
// when it is made (helperProgram, extProgram), so that the first context's realm setup and their compilation overlap
// where a second CPU is free. Compiling touches no realm; capture and captureExt still wait for each program
// (sync.OnceValue) before they run it.
func startPrecompile() {
	precompile.Do(func() {
		go func() {
			// A panic here (a program that does not compile) must not end the host from a goroutine of ours:
			// sync.OnceValue panics again in the caller that waits for the program, where capi's recover answers it.
			defer func() { _ = recover() }()
			helperProgram()
			extProgram()
		}()
	})
}

// capture fills c.in from a fresh realm.
func (c *context) capture() error {
	rt := c.rt
	g := rt.GlobalObject()
	c.in.global = g
	obj := func(v goja.Value) *goja.Object { o, _ := v.(*goja.Object); return o }
	fn := func(v goja.Value) goja.Callable { f, _ := goja.AssertFunction(v); return f }
	c.in.errorCtor = obj(g.Get("Error"))
	c.in.typeError = obj(g.Get("TypeError"))
	c.in.rangeError = obj(g.Get("RangeError"))
	c.in.syntaxError = obj(g.Get("SyntaxError"))
	json := obj(g.Get("JSON"))
	c.in.jsonParse = fn(json.Get("parse"))
	c.in.jsonStringify = fn(json.Get("stringify"))
	c.in.toString = fn(g.Get("String"))
	factory, err := rt.RunProgram(helperProgram())
	if err != nil {
		return err
	}
	defineProperty := obj(g.Get("Object")).Get("defineProperty")
	h, err := fn(factory)(goja.Undefined(), defineProperty)
	if err != nil {
		return err
	}
	ho := obj(h)
	c.in.get, c.in.set, c.in.define = fn(ho.Get("get")), fn(ho.Get("set")), fn(ho.Get("define"))
	c.in.has, c.in.del, c.in.names = fn(ho.Get("has")), fn(ho.Get("del")), fn(ho.Get("names"))
	return nil
}

// ctxCache remembers recently resolved contexts by handle, so that most calls find theirs without the handle
// table's lock and map: a slot holds a live context (destroy empties it) whose h and tid never change.
var ctxCache [64]atomic.Pointer[context]

// getContext resolves a JSContextRef parameter for the calling thread tid.
func getContext(fn string, h uintptr, tid int) (*context, error) {
	slot := &ctxCache[(h>>shardBits)&63]
	if c := slot.Load(); c != nil && c.h == h && c.tid == tid && !c.gone.Load() {
		return c, nil // the caller owns c: nothing can destroy it meanwhile
	}
	o, err := resolve(fn, "ctx", h, kindContext, tid)
	if err != nil {
		return nil, err
	}
	c := o.(*context)
	slot.Store(c)
	return c, nil
}

// enter resolves the context an export was given, on the calling thread.
// It first runs the finalizers and deallocators the garbage collector has reported since (realm_ext.go), unless a
// host callback is running.
func enter(fn string, h uintptr) (*context, error) {
	c, err := getContext(fn, h, gettid())
	if err == nil && c.x.dead != nil && c.x.dead.pending.Load() {
		c.runDeaths()
	}
	return c, err
}

// newValue registers v in c, in the innermost open scope, and returns its handle. A nil v is undefined.
func (c *context) newValue(v goja.Value) uintptr {
	if v == nil {
		v = goja.Undefined()
	}
	var val *value
	if n := len(c.spare); n > 0 { // a record releaseFrom retired: no allocation per value in a steady loop
		val = c.spare[n-1]
		c.spare = c.spare[:n-1]
		*val = value{c: c, v: v}
	} else {
		val = &value{c: c, v: v}
	}
	c.placeValue(val)
	c.values = append(c.values, val)
	return val.h
}

// value resolves a JSValueRef parameter of c.
func (c *context) value(fn, param string, h uintptr) (*value, error) {
	if val := c.lookupValue(h); val != nil { // a value of c's current block: no table, no lock
		return val, nil
	}
	o, err := resolve(fn, param, h, kindValue, c.tid)
	if err != nil {
		return nil, err
	}
	val := o.(*value)
	if val.c != c {
		return nil, fmt.Errorf("%s: %s belongs to another context", fn, param)
	}
	return val, nil
}

// jsValue is value without the record.
func (c *context) jsValue(fn, param string, h uintptr) (goja.Value, error) {
	val, err := c.value(fn, param, h)
	if err != nil {
		return nil, err
	}
	return val.v, nil
}

// object resolves a JSObjectRef parameter of c.
func (c *context) object(fn, param string, h uintptr) (*goja.Object, error) {
	v, err := c.jsValue(fn, param, h)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, fmt.Errorf("%s: %s is not an object", fn, param)
	}
	return o, nil
}

// values resolves an array of JSValueRef parameters of c.
func (c *context) valueArray(fn, param string, n uintptr, arr *uintptr) ([]goja.Value, error) {
	if n == 0 {
		return nil, nil
	}
	if arr == nil {
		return nil, fmt.Errorf("%s: %s is NULL but the count is %d", fn, param, n)
	}
	hs := unsafeSlice(arr, n)
	out := make([]goja.Value, len(hs))
	for i, h := range hs {
		v, err := c.jsValue(fn, fmt.Sprintf("%s[%d]", param, i), h)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// A jsError is a failure the library reports as a new JavaScript error: ctor is the constructor ("Error",
// "TypeError", "RangeError", "SyntaxError"); name, if not empty, overrides the error's name property.
type jsError struct {
	ctor, name, msg string
}

func (e *jsError) Error() string {
	if e.name != "" {
		return e.name + ": " + e.msg
	}
	return e.ctor + ": " + e.msg
}

// errorValue turns err into the JavaScript value to store as the exception: a thrown value is itself; a jsError is
// a new error made with the realm's constructor; anything else (handle and argument checks) is a TypeError.
func (c *context) errorValue(err error) goja.Value {
	var ex *goja.Exception
	var je *jsError
	var so *goja.StackOverflowError
	switch {
	case errors.As(err, &ex):
		return ex.Value()
	case errors.Is(err, core.ErrExecutionTerminated):
		je = terminationError(err)
	case errors.As(err, &so):
		je = &jsError{ctor: "RangeError", msg: "Maximum call stack size exceeded"}
	case errors.Is(err, core.ErrInternal): // a Go runtime error inside the entry (HostRealm.Enter), as fence says it
		je = &jsError{ctor: "Error", name: "InternalError", msg: err.Error()}
	case errors.As(err, &je):
	default:
		je = &jsError{ctor: "TypeError", msg: err.Error()}
	}
	ctor := c.in.errorCtor
	switch je.ctor {
	case "TypeError":
		ctor = c.in.typeError
	case "RangeError":
		ctor = c.in.rangeError
	case "SyntaxError":
		ctor = c.in.syntaxError
	}
	var o *goja.Object
	if c.rt.Try(func() { o, _ = c.rt.New(ctor, c.rt.ToValue(je.msg)) }) != nil || o == nil {
		o = c.rt.NewGoError(errors.New(je.msg))
	}
	if je.name != "" {
		_ = o.DefineDataProperty("name", c.rt.ToValue(je.name), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	return o
}

// throw stores err, as a value of c, in *exception. It does nothing when the caller passed no exception slot.
func (c *context) throw(exception *uintptr, err error) {
	if exception == nil || c == nil {
		return
	}
	*exception = c.newValue(c.errorValue(err))
}

// fail reports err from an export that resolved its context (c may be nil if it did not): as an exception in c when
// it can, else nowhere (the documented failure value says it all).
func fail(c *context, exception *uintptr, err error) {
	if c != nil {
		c.throw(exception, err)
	}
}

// fence is deferred first in every export that takes a context. It recovers a panic and reports it as an exception
// named InternalError in the context, when the call had an exception slot and a valid context of the calling
// thread; otherwise it writes the panic to stderr. The export then returns its zero result (NULL, false, 0): the
// documented failure value. The context stays usable: goja restores its own state when a panic unwinds through it, and
// a Go runtime error inside an entry comes out of HostRealm.Enter as core.ErrInternal, its entry record intact.
func fence(fn string, ctxH uintptr, exception *uintptr) {
	if r := recover(); r != nil {
		reportPanic(fn, ctxH, exception, r)
	}
}

func reportPanic(fn string, ctxH uintptr, exception *uintptr, r any) {
	defer func() { _ = recover() }() // the report itself must not escape either
	err := &jsError{ctor: "Error", name: "InternalError", msg: fmt.Sprintf("%s: internal error: %v", fn, r)}
	if ie, ok := r.(*goja.InterruptedError); ok {
		// A termination unwinding through a helper that is no entry of its own (limits.go): it says so.
		if cause, ok := ie.Value().(error); ok && errors.Is(cause, core.ErrExecutionTerminated) {
			err = terminationError(cause)
		}
	}
	if exception != nil && ctxH != 0 {
		if c, cerr := getContext(fn, ctxH, gettid()); cerr == nil {
			c.throw(exception, err)
			return
		}
	}
	fmt.Fprintf(os.Stderr, "jsworker: %s\n", err)
}

// actor is who a call into the host acts for (capi.h's JSW_AS): a worker context's owner, or 0 for a host context
// (whose callbacks run on its own thread, which needs no override).
func (c *context) actor() C.int {
	if c.tid < 0 {
		return C.int(c.tid)
	}
	return 0
}
