package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"sync/atomic"
	"unsafe"

	"github.com/dop251/goja"
)

// Classes (JSClassCreate and the class callbacks of JSObjectRef.h). A JSClassRef is a copy of the host's
// JSClassDefinition; it belongs to no thread or context, and each realm that uses it makes its own prototype object
// for it on first use (c.x.protos). Objects made with a class are described in class_object.go.

// JSClassAttributes bits.
const classNoAutomaticPrototype = 1 << 1

// A staticValue is one JSStaticValue: an accessor the class's prototype carries.
type staticValue struct {
	name     string
	get, set uintptr
	attrs    uint32
}

// A staticFunction is one JSStaticFunction: a host function the class's prototype carries.
type staticFunction struct {
	name  string
	fn    uintptr
	attrs uint32
}

// A jsClass is what a JSClassRef names. Everything but refs is immutable after JSClassCreate, so every thread may
// read it.
type jsClass struct {
	h      uintptr
	refs   atomic.Int64
	name   string
	parent *jsClass
	attrs  uint32
	values []staticValue
	funcs  []staticFunction

	initialize, finalize                                                    uintptr
	hasProperty, getProperty, setProperty, deleteProperty, getPropertyNames uintptr
	callAsFunction, callAsConstructor, hasInstance, convertToType           uintptr

	// Summaries over the class and its parents.
	dynamic  bool // a property callback: instances are proxies
	names    bool // a getPropertyNames callback
	callable bool // callAsFunction or callAsConstructor
	ctorCall uintptr
	fnCall   uintptr
}

// chain returns the class and its parents, most derived first.
func (k *jsClass) chain() []*jsClass {
	var out []*jsClass
	for ; k != nil; k = k.parent {
		out = append(out, k)
	}
	return out
}

// getClass resolves a JSClassRef parameter; classes belong to no thread.
func getClass(fn, param string, h uintptr) (*jsClass, error) {
	if h == 0 {
		return nil, errors.New(fn + ": " + param + " is NULL, not " + kindClass.String())
	}
	e, ok := handles.get(h)
	switch {
	case !ok:
		return nil, errors.New(fn + ": " + param + " is not " + kindClass.String() + ": no live handle has this value")
	case e.kind != kindClass:
		return nil, errors.New(fn + ": " + param + " is " + e.kind.String() + ", not " + kindClass.String())
	}
	return e.obj.(*jsClass), nil
}

// JSClassCreate copies definition (names, static tables) into a new class with one reference.
//
//export JSClassCreate
func JSClassCreate(definition *C.jsw_class_definition) (result uintptr) {
	defer fence("JSClassCreate", 0, nil)
	if definition == nil {
		return 0
	}
	d := definition
	k := &jsClass{attrs: uint32(d.attributes)}
	if d.className != nil {
		k.name = C.GoString(d.className)
	}
	if d.parentClass != 0 {
		p, err := getClass("JSClassCreate", "definition->parentClass", uintptr(d.parentClass))
		if err != nil {
			return 0
		}
		k.parent = p
	}
	if d.staticValues != nil {
		for p := d.staticValues; p.name != nil; p = (*C.jsw_static_value)(unsafe.Add(unsafe.Pointer(p), C.sizeof_jsw_static_value)) {
			k.values = append(k.values, staticValue{name: C.GoString(p.name), get: uintptr(p.getProperty),
				set: uintptr(p.setProperty), attrs: uint32(p.attributes)})
		}
	}
	if d.staticFunctions != nil {
		for p := d.staticFunctions; p.name != nil; p = (*C.jsw_static_function)(unsafe.Add(unsafe.Pointer(p), C.sizeof_jsw_static_function)) {
			if p.callAsFunction != 0 {
				k.funcs = append(k.funcs, staticFunction{name: C.GoString(p.name), fn: uintptr(p.callAsFunction),
					attrs: uint32(p.attributes)})
			}
		}
	}
	k.initialize, k.finalize = uintptr(d.initialize), uintptr(d.finalize)
	k.hasProperty, k.getProperty, k.setProperty = uintptr(d.hasProperty), uintptr(d.getProperty), uintptr(d.setProperty)
	k.deleteProperty, k.getPropertyNames = uintptr(d.deleteProperty), uintptr(d.getPropertyNames)
	k.callAsFunction, k.callAsConstructor = uintptr(d.callAsFunction), uintptr(d.callAsConstructor)
	k.hasInstance, k.convertToType = uintptr(d.hasInstance), uintptr(d.convertToType)
	for _, c := range k.chain() {
		k.dynamic = k.dynamic || c.hasProperty != 0 || c.getProperty != 0 || c.setProperty != 0 ||
			c.deleteProperty != 0 || c.getPropertyNames != 0
		k.names = k.names || c.getPropertyNames != 0
		if k.fnCall == 0 {
			k.fnCall = c.callAsFunction
		}
		if k.ctorCall == 0 {
			k.ctorCall = c.callAsConstructor
		}
	}
	k.callable = k.fnCall != 0 || k.ctorCall != 0
	k.refs.Store(1)
	k.h = handles.add(kindClass, 0, k)
	return k.h
}

//export JSClassRetain
func JSClassRetain(jsClass uintptr) (result uintptr) {
	defer fence("JSClassRetain", 0, nil)
	k, err := getClass("JSClassRetain", "jsClass", jsClass)
	if err != nil {
		return 0
	}
	k.refs.Add(1)
	return jsClass
}

// JSClassRelease drops a reference; the last one retires the handle. Objects and realms that use the class keep
// its Go record, so they go on working.
//
//export JSClassRelease
func JSClassRelease(jsClass uintptr) {
	defer fence("JSClassRelease", 0, nil)
	k, err := getClass("JSClassRelease", "jsClass", jsClass)
	if err != nil {
		return
	}
	if k.refs.Add(-1) == 0 {
		handles.remove(k.h)
	}
}

// flags turns JSPropertyAttributes into goja's writable, enumerable and configurable flags.
func flags(attrs uint32) (w, e, conf goja.Flag) {
	f := func(bit uint32) goja.Flag {
		if attrs&bit == 0 {
			return goja.FLAG_TRUE
		}
		return goja.FLAG_FALSE
	}
	return f(propReadOnly), f(propDontEnum), f(propDontDelete)
}

// classProto returns the realm's prototype for objects of k, making it on first use: an object inheriting from the
// parent class's prototype (or Object.prototype) that carries the class's static functions and values, its name as
// Symbol.toStringTag, and its hasInstance and convertToType callbacks as Symbol.hasInstance and Symbol.toPrimitive.
// A class with kJSClassAttributeNoAutomaticPrototype has none of its own: its objects carry its statics themselves.
func (c *context) classProto(k *jsClass) *goja.Object {
	if k == nil {
		return c.x.in.objectProto
	}
	if p, ok := c.x.protos[k]; ok {
		return p
	}
	parent := c.classProto(k.parent)
	if k.attrs&classNoAutomaticPrototype != 0 {
		c.x.protos[k] = parent
		return parent
	}
	p := c.rt.CreateObject(parent)
	c.defineStatics(p, k)
	if k.name != "" {
		_ = p.DefineDataPropertySymbol(c.x.in.toStringTag, c.rt.ToValue(k.name), goja.FLAG_FALSE, goja.FLAG_FALSE,
			goja.FLAG_TRUE)
	}
	if k.hasInstance != 0 {
		_ = p.DefineDataPropertySymbol(c.x.in.hasInstance, c.hasInstanceFunction(k), goja.FLAG_FALSE, goja.FLAG_FALSE,
			goja.FLAG_TRUE)
	}
	if k.convertToType != 0 {
		_ = p.DefineDataPropertySymbol(c.x.in.toPrimitive, c.toPrimitiveFunction(k), goja.FLAG_FALSE, goja.FLAG_FALSE,
			goja.FLAG_TRUE)
	}
	c.x.protos[k] = p
	return p
}

// defineStatics puts k's static functions and values on o.
func (c *context) defineStatics(o *goja.Object, k *jsClass) {
	for _, sf := range k.funcs {
		w, e, conf := flags(sf.attrs)
		_ = o.DefineDataProperty(sf.name, c.hostFunction(c.rt.ToValue(sf.name), sf.fn), w, e, conf)
	}
	for _, sv := range k.values {
		sv := sv
		get := goja.Undefined()
		if sv.get != 0 {
			get = c.rt.ToValue(func(call goja.FunctionCall) goja.Value {
				v := c.callGet(sv.get, call.This, sv.name)
				if v == nil {
					return goja.Undefined()
				}
				return v
			})
		}
		set := goja.Undefined()
		if sv.set != 0 && sv.attrs&propReadOnly == 0 {
			set = c.rt.ToValue(func(call goja.FunctionCall) goja.Value {
				c.callSet(sv.set, call.This, sv.name, call.Argument(0))
				return goja.Undefined()
			})
		}
		_, e, conf := flags(sv.attrs)
		_, err := c.x.in.defineAccessor(goja.Undefined(), o, c.rt.ToValue(sv.name), get, set,
			c.rt.ToValue(e == goja.FLAG_TRUE), c.rt.ToValue(conf == goja.FLAG_TRUE))
		_ = err // o is a fresh extensible object: defining cannot fail
	}
}

// hasInstanceFunction is Symbol.hasInstance for k's prototype: `v instanceof o`, o an object of k, asks k.
func (c *context) hasInstanceFunction(k *jsClass) goja.Value {
	return c.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		var r bool
		c.callback(func(exc *uintptr) {
			r = bool(C.jsw_call_has_instance(c.actor(), C.uintptr_t(k.hasInstance), C.jsw_handle(c.h),
				C.jsw_handle(c.newValue(call.This)), C.jsw_handle(c.newValue(call.Argument(0))),
				(*C.jsw_handle)(unsafe.Pointer(exc))))
		})
		return c.rt.ToValue(r)
	})
}

// toPrimitiveFunction is Symbol.toPrimitive for k's prototype: k's convertToType is asked for a number (hints
// "number" and "default") or a string; if it answers NULL, the ordinary valueOf/toString conversion applies.
func (c *context) toPrimitiveFunction(k *jsClass) goja.Value {
	return c.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		hint := call.Argument(0).String()
		t := jsTypeNumber
		if hint == "string" {
			t = jsTypeString
		}
		var res goja.Value
		c.callback(func(exc *uintptr) {
			r := C.jsw_call_convert(c.actor(), C.uintptr_t(k.convertToType), C.jsw_handle(c.h), C.jsw_handle(c.newValue(call.This)),
				C.int(t), (*C.jsw_handle)(unsafe.Pointer(exc)))
			res = c.result("JSObjectConvertToTypeCallback", uintptr(r))
		})
		if res != nil {
			return res
		}
		v, err := c.x.in.ordinaryToPrimitive(goja.Undefined(), call.This, c.rt.ToValue(hint))
		if err != nil {
			panic(c.errorValue(err))
		}
		return v
	})
}
