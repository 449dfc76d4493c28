package capi

/*
#include "capi.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/dop251/goja"
)

// JSPropertyAttributes bits (include/jsworker.h).
const (
	propReadOnly   = 1 << 1
	propDontEnum   = 1 << 2
	propDontDelete = 1 << 3
)

// objectCall resolves ctx and an object parameter for the JSObject* functions, reporting failures to exception.
func objectCall(fn string, ctx, object uintptr, exception *uintptr) (*context, *goja.Object, bool) {
	c, err := enter(fn, ctx)
	if err != nil {
		return nil, nil, false
	}
	o, err := c.object(fn, "object", object)
	if err != nil {
		c.throw(exception, err)
		return c, nil, false
	}
	return c, o, true
}

// propertyName resolves a JSStringRef property name as a JavaScript string.
func (c *context) propertyName(fn string, h uintptr) (goja.Value, error) {
	s, err := getString(fn, "propertyName", h, c.tid)
	if err != nil {
		return nil, err
	}
	return s.jsValue(), nil
}

// callHelper runs one of the intrinsic helpers and reports a throw to exception.
func (c *context) callHelper(f goja.Callable, exception *uintptr, args ...goja.Value) (goja.Value, bool) {
	v, err := c.call(f, goja.Undefined(), args...)
	if err != nil {
		c.throw(exception, err)
		return nil, false
	}
	return v, true
}

//export JSObjectMake
func JSObjectMake(ctx, jsClass uintptr, data unsafe.Pointer) (result uintptr) {
	defer fence("JSObjectMake", ctx, nil)
	c, err := enter("JSObjectMake", ctx)
	if err != nil {
		return 0
	}
	if jsClass == 0 {
		return c.newValue(c.rt.NewObject())
	}
	cls, err := getClass("JSObjectMake", "jsClass", jsClass)
	if err != nil {
		return 0
	}
	o, err := c.makeInstance(cls, data) // class_object.go
	if err != nil {
		return 0
	}
	return c.newValue(o)
}

//export JSObjectMakeArray
func JSObjectMakeArray(ctx, argumentCount uintptr, arguments *uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeArray"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	args, err := c.valueArray(fn, "arguments", argumentCount, arguments)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	items := make([]any, len(args))
	for i, a := range args {
		items[i] = a
	}
	return c.newValue(c.rt.NewArray(items...))
}

//export JSObjectMakeError
func JSObjectMakeError(ctx, argumentCount uintptr, arguments *uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeError"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	args, err := c.valueArray(fn, "arguments", argumentCount, arguments)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	var o *goja.Object
	if ex := c.rt.Try(func() { o, err = c.rt.New(c.in.errorCtor, args...) }); ex != nil {
		err = ex
	}
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	return c.newValue(o)
}

//export JSObjectGetProperty
func JSObjectGetProperty(ctx, object, propertyName uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetProperty"
	defer fence(fn, ctx, exception)
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return 0
	}
	k, err := c.propertyName(fn, propertyName)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	v, ok := c.callHelper(c.in.get, exception, o, k)
	if !ok {
		return 0
	}
	return c.newValue(v)
}

//export JSObjectSetProperty
func JSObjectSetProperty(ctx, object, propertyName, value uintptr, attributes uint32, exception *uintptr) {
	const fn = "JSObjectSetProperty"
	defer fence(fn, ctx, exception)
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return
	}
	k, err := c.propertyName(fn, propertyName)
	if err != nil {
		c.throw(exception, err)
		return
	}
	v, err := c.jsValue(fn, "value", value)
	if err != nil {
		c.throw(exception, err)
		return
	}
	if attributes == 0 {
		c.callHelper(c.in.set, exception, o, k, v)
		return
	}
	flag := func(bit uint32) goja.Value { return c.rt.ToValue(attributes&bit == 0) }
	c.callHelper(c.in.define, exception, o, k, v, flag(propReadOnly), flag(propDontEnum), flag(propDontDelete))
}

//export JSObjectHasProperty
func JSObjectHasProperty(ctx, object, propertyName uintptr) (result bool) {
	const fn = "JSObjectHasProperty"
	defer fence(fn, ctx, nil)
	c, o, ok := objectCall(fn, ctx, object, nil)
	if !ok {
		return false
	}
	k, err := c.propertyName(fn, propertyName)
	if err != nil {
		return false
	}
	v, ok := c.callHelper(c.in.has, nil, o, k)
	return ok && v.ToBoolean()
}

//export JSObjectDeleteProperty
func JSObjectDeleteProperty(ctx, object, propertyName uintptr, exception *uintptr) (result bool) {
	const fn = "JSObjectDeleteProperty"
	defer fence(fn, ctx, exception)
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return false
	}
	k, err := c.propertyName(fn, propertyName)
	if err != nil {
		c.throw(exception, err)
		return false
	}
	v, ok := c.callHelper(c.in.del, exception, o, k)
	return ok && v.ToBoolean()
}

//export JSObjectGetPropertyAtIndex
func JSObjectGetPropertyAtIndex(ctx, object uintptr, propertyIndex uint32, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetPropertyAtIndex"
	defer fence(fn, ctx, exception)
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return 0
	}
	v, ok := c.callHelper(c.in.get, exception, o, c.rt.ToValue(propertyIndex))
	if !ok {
		return 0
	}
	return c.newValue(v)
}

//export JSObjectSetPropertyAtIndex
func JSObjectSetPropertyAtIndex(ctx, object uintptr, propertyIndex uint32, value uintptr, exception *uintptr) {
	const fn = "JSObjectSetPropertyAtIndex"
	defer fence(fn, ctx, exception)
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return
	}
	v, err := c.jsValue(fn, "value", value)
	if err != nil {
		c.throw(exception, err)
		return
	}
	c.callHelper(c.in.set, exception, o, c.rt.ToValue(propertyIndex), v)
}

//export JSObjectIsFunction
func JSObjectIsFunction(ctx, object uintptr) (result bool) {
	defer fence("JSObjectIsFunction", ctx, nil)
	_, v, ok := valueOf("JSObjectIsFunction", ctx, object)
	if !ok {
		return false
	}
	_, isFunc := goja.AssertFunction(v)
	return isFunc
}

//export JSObjectCallAsFunction
func JSObjectCallAsFunction(ctx, object, thisObject, argumentCount uintptr, arguments *uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectCallAsFunction"
	defer fence(fn, ctx, exception)
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return 0
	}
	f, isFunc := goja.AssertFunction(o)
	if !isFunc {
		c.throw(exception, errors.New(fn+": object is not a function"))
		return 0
	}
	this := goja.Value(c.in.global)
	if thisObject != 0 {
		t, err := c.object(fn, "thisObject", thisObject)
		if err != nil {
			c.throw(exception, err)
			return 0
		}
		this = t
	}
	args, err := c.valueArray(fn, "arguments", argumentCount, arguments)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	v, err := c.call(f, this, args...)
	c.flushInspector() // as in JSEvaluateScript
	if c.closed {
		return 0
	}
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	return c.newValue(v)
}

// A nameArray is what a JSPropertyNameArrayRef names: the names as string handles it owns, reference counted.
type nameArray struct {
	h     uintptr
	names []uintptr
	refs  int
}

//export JSObjectCopyPropertyNames
func JSObjectCopyPropertyNames(ctx, object uintptr) (result uintptr) {
	const fn = "JSObjectCopyPropertyNames"
	defer fence(fn, ctx, nil)
	c, o, ok := objectCall(fn, ctx, object, nil)
	if !ok {
		return 0
	}
	v, ok := c.callHelper(c.in.names, nil, o)
	if !ok {
		return 0
	}
	arr := v.(*goja.Object)
	n := int(arr.Get("length").ToInteger())
	na := &nameArray{refs: 1, names: make([]uintptr, 0, n)}
	for i := range n {
		s, _ := arr.Get(fmt.Sprint(i)).(goja.String)
		if s != nil {
			na.names = append(na.names, stringFromJS(s, c.tid))
		}
	}
	na.h = handles.add(kindPropertyNames, c.tid, na)
	return na.h
}

func getNames(fn string, h uintptr) (*nameArray, error) {
	o, err := resolve(fn, "array", h, kindPropertyNames, gettid())
	if err != nil {
		return nil, err
	}
	return o.(*nameArray), nil
}

//export JSPropertyNameArrayRetain
func JSPropertyNameArrayRetain(array uintptr) (result uintptr) {
	defer fence("JSPropertyNameArrayRetain", 0, nil)
	na, err := getNames("JSPropertyNameArrayRetain", array)
	if err != nil {
		return 0
	}
	na.refs++
	return array
}

//export JSPropertyNameArrayRelease
func JSPropertyNameArrayRelease(array uintptr) {
	defer fence("JSPropertyNameArrayRelease", 0, nil)
	na, err := getNames("JSPropertyNameArrayRelease", array)
	if err != nil {
		return
	}
	if na.refs--; na.refs > 0 {
		return
	}
	handles.remove(na.h)
	for _, h := range na.names {
		if e, ok := handles.get(h); ok {
			e.obj.(*jsString).release()
		}
	}
	na.names = nil
}

//export JSPropertyNameArrayGetCount
func JSPropertyNameArrayGetCount(array uintptr) (result uintptr) {
	defer fence("JSPropertyNameArrayGetCount", 0, nil)
	na, err := getNames("JSPropertyNameArrayGetCount", array)
	if err != nil {
		return 0
	}
	return uintptr(len(na.names))
}

//export JSPropertyNameArrayGetNameAtIndex
func JSPropertyNameArrayGetNameAtIndex(array, index uintptr) (result uintptr) {
	defer fence("JSPropertyNameArrayGetNameAtIndex", 0, nil)
	na, err := getNames("JSPropertyNameArrayGetNameAtIndex", array)
	if err != nil || index >= uintptr(len(na.names)) {
		return 0
	}
	return na.names[index]
}

// hostFunction makes the function object for JSObjectMakeFunctionWithCallback. Each call runs the C callback on the
// thread running the script (the context's owner) inside a handle scope that the library closes when the callback
// returns: the handles of the function, this and the arguments, and whatever the callback made without protecting
// it, are released then. The argument array and the exception slot handed to C are in c.args, reused from call to
// call: the call allocates nothing and is one cgo transition.
func (c *context) hostFunction(name goja.Value, callback uintptr) *goja.Object {
	var self *goja.Object
	f := func(call goja.FunctionCall) goja.Value {
		c.x.depth++
		depth, base := len(c.scopes), len(c.args)
		defer c.endHostCall(depth, base)
		c.openScope(0)
		fnH := c.newValue(self)
		thisH := c.newValue(call.This)
		c.args = append(c.args, 0) // args[base]: the exception slot (a local would escape to the heap)
		for _, a := range call.Arguments {
			c.args = append(c.args, c.newValue(a))
		}
		c.args = append(c.args, 0) // so that &args[base+1] is valid without arguments
		exc := &c.args[base]       // a nested call may move c.args: C writes where this points
		r := C.jsw_call_host_fn(c.actor(), C.uintptr_t(callback), C.jsw_handle(c.h), C.jsw_handle(fnH), C.jsw_handle(thisH),
			C.size_t(len(call.Arguments)), (*C.jsw_handle)(unsafe.Pointer(&c.args[base+1])),
			(*C.jsw_handle)(unsafe.Pointer(exc)))
		return c.hostResult("JSObjectCallAsFunctionCallback", uintptr(r), *exc)
	}
	self = c.rt.ToValue(f).(*goja.Object)
	_ = self.DefineDataProperty("name", name, goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return self
}

// endHostCall closes the scope of a host function's call and drops its arguments from c.args.
func (c *context) endHostCall(depth, base int) {
	c.closeScopes(depth)
	clear(c.args[base:])
	c.args = c.args[:base]
	c.x.depth--
}

// hostResult turns what host callback cb returned (r, and *exception exc) into the call's result, or throws.
func (c *context) hostResult(cb string, r, exc uintptr) goja.Value {
	if exc != 0 {
		val, err := c.value(cb, "*exception", exc)
		if err != nil {
			panic(c.errorValue(err))
		}
		panic(val.v)
	}
	if r == 0 {
		return goja.Undefined()
	}
	val, err := c.value(cb, "the result", r)
	if err != nil {
		panic(c.errorValue(err))
	}
	return val.v
}

//export JSObjectMakeFunctionWithCallback
func JSObjectMakeFunctionWithCallback(ctx, name, callAsFunction uintptr) (result uintptr) {
	const fn = "JSObjectMakeFunctionWithCallback"
	defer fence(fn, ctx, nil)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	nameV := goja.Value(c.rt.ToValue("anonymous"))
	if name != 0 {
		s, err := getString(fn, "name", name, c.tid)
		if err != nil {
			return 0
		}
		nameV = s.jsValue()
	}
	if callAsFunction == 0 {
		return 0
	}
	return c.newValue(c.hostFunction(nameV, callAsFunction))
}
