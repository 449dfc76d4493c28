package capi

// #include "capi.h"
import "C"

import (
	"math/big"

	"github.com/dop251/goja"
)

// Symbols, BigInts, and the key, prototype and constructor-like functions of JSValueRef.h and JSObjectRef.h that
// JavaScriptCore added after its first C API.

// callIntrinsic runs f and turns a throw into an error for c.throw.
func callIntrinsic(f goja.Callable, this goja.Value, args ...goja.Value) (goja.Value, error) {
	if this == nil {
		this = goja.Undefined()
	}
	return f(this, args...)
}

// construct runs new ctor(args...) and reports a throw as an error.
func (c *context) construct(ctor *goja.Object, args ...goja.Value) (o *goja.Object, err error) {
	if ex := c.rt.Try(func() { o, err = c.rt.New(ctor, args...) }); ex != nil {
		return nil, ex
	}
	return o, err
}

// finish returns v as a new handle of c, or stores err in *exception and returns NULL.
func (c *context) finish(v goja.Value, err error, exception *uintptr) uintptr {
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	return c.newValue(v)
}

//export JSValueMakeSymbol
func JSValueMakeSymbol(ctx, description uintptr) (result uintptr) {
	const fn = "JSValueMakeSymbol"
	defer fence(fn, ctx, nil)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	d := goja.Undefined()
	if description != 0 {
		s, err := getString(fn, "description", description, c.tid)
		if err != nil {
			return 0
		}
		d = s.jsValue()
	}
	v, err := callIntrinsic(c.x.in.symbol, nil, d)
	if err != nil {
		return 0
	}
	return c.newValue(v)
}

//export JSValueIsBigInt
func JSValueIsBigInt(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsBigInt", ctx, nil)
	return isType("JSValueIsBigInt", ctx, value, jsTypeBigInt)
}

//export JSBigIntCreateWithDouble
func JSBigIntCreateWithDouble(ctx uintptr, value float64, exception *uintptr) (result uintptr) {
	const fn = "JSBigIntCreateWithDouble"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	v, err := callIntrinsic(c.x.in.bigInt, nil, c.rt.ToValue(value)) // RangeError unless an integer
	return c.finish(v, err, exception)
}

//export JSBigIntCreateWithInt64
func JSBigIntCreateWithInt64(ctx uintptr, integer int64, exception *uintptr) (result uintptr) {
	const fn = "JSBigIntCreateWithInt64"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	return c.newValue(c.rt.ToValue(big.NewInt(integer)))
}

//export JSBigIntCreateWithUInt64
func JSBigIntCreateWithUInt64(ctx uintptr, integer uint64, exception *uintptr) (result uintptr) {
	const fn = "JSBigIntCreateWithUInt64"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	return c.newValue(c.rt.ToValue(new(big.Int).SetUint64(integer)))
}

//export JSBigIntCreateWithString
func JSBigIntCreateWithString(ctx, str uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSBigIntCreateWithString"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	s, err := getString(fn, "string", str, c.tid)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	v, err := callIntrinsic(c.x.in.bigInt, nil, s.jsValue()) // SyntaxError if it is no integer literal
	return c.finish(v, err, exception)
}

// toInt64 converts as JSValueToInt64 and JSValueToUInt64 do: ToNumeric, then a BigInt keeps its low 64 bits and a
// Number is truncated and wrapped modulo 2^64 (NaN and the infinities give 0).
func toInt64(fn string, ctx, value uintptr, exception *uintptr, unsigned bool) *big.Int {
	c, v, ok := valueOf(fn, ctx, value)
	if !ok {
		if c != nil {
			_, err := c.jsValue(fn, "value", value)
			c.throw(exception, err)
		}
		return nil
	}
	r, err := callIntrinsic(c.x.in.toInt64, nil, v, c.rt.ToValue(unsigned))
	if err != nil {
		c.throw(exception, err)
		return nil
	}
	b, _ := r.Export().(*big.Int)
	return b
}

//export JSValueToInt64
func JSValueToInt64(ctx, value uintptr, exception *uintptr) (result int64) {
	const fn = "JSValueToInt64"
	defer fence(fn, ctx, exception)
	if b := toInt64(fn, ctx, value, exception, false); b != nil {
		return b.Int64()
	}
	return 0
}

//export JSValueToUInt64
func JSValueToUInt64(ctx, value uintptr, exception *uintptr) (result uint64) {
	const fn = "JSValueToUInt64"
	defer fence(fn, ctx, exception)
	if b := toInt64(fn, ctx, value, exception, true); b != nil {
		return b.Uint64()
	}
	return 0
}

// keyCall resolves ctx, an object and a property key (any value: ToPropertyKey applies, as in object[key]).
func keyCall(fn string, ctx, object, key uintptr, exception *uintptr) (*context, *goja.Object, goja.Value, bool) {
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return c, nil, nil, false
	}
	k, err := c.jsValue(fn, "propertyKey", key)
	if err != nil {
		c.throw(exception, err)
		return c, nil, nil, false
	}
	return c, o, k, true
}

//export JSObjectHasPropertyForKey
func JSObjectHasPropertyForKey(ctx, object, propertyKey uintptr, exception *uintptr) (result bool) {
	const fn = "JSObjectHasPropertyForKey"
	defer fence(fn, ctx, exception)
	c, o, k, ok := keyCall(fn, ctx, object, propertyKey, exception)
	if !ok {
		return false
	}
	v, ok := c.callHelper(c.in.has, exception, o, k)
	return ok && v.ToBoolean()
}

//export JSObjectGetPropertyForKey
func JSObjectGetPropertyForKey(ctx, object, propertyKey uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetPropertyForKey"
	defer fence(fn, ctx, exception)
	c, o, k, ok := keyCall(fn, ctx, object, propertyKey, exception)
	if !ok {
		return 0
	}
	v, ok := c.callHelper(c.in.get, exception, o, k)
	if !ok {
		return 0
	}
	return c.newValue(v)
}

//export JSObjectSetPropertyForKey
func JSObjectSetPropertyForKey(ctx, object, propertyKey, value uintptr, attributes uint32, exception *uintptr) {
	const fn = "JSObjectSetPropertyForKey"
	defer fence(fn, ctx, exception)
	c, o, k, ok := keyCall(fn, ctx, object, propertyKey, exception)
	if !ok {
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

//export JSObjectDeletePropertyForKey
func JSObjectDeletePropertyForKey(ctx, object, propertyKey uintptr, exception *uintptr) (result bool) {
	const fn = "JSObjectDeletePropertyForKey"
	defer fence(fn, ctx, exception)
	c, o, k, ok := keyCall(fn, ctx, object, propertyKey, exception)
	if !ok {
		return false
	}
	v, ok := c.callHelper(c.in.del, exception, o, k)
	return ok && v.ToBoolean()
}

//export JSObjectGetPrototype
func JSObjectGetPrototype(ctx, object uintptr) (result uintptr) {
	const fn = "JSObjectGetPrototype"
	defer fence(fn, ctx, nil)
	c, o, ok := objectCall(fn, ctx, object, nil)
	if !ok {
		return 0
	}
	v, err := callIntrinsic(c.x.in.getProto, nil, o)
	if err != nil {
		return 0 // a proxy's trap threw
	}
	return c.newValue(v)
}

//export JSObjectSetPrototype
func JSObjectSetPrototype(ctx, object, value uintptr) {
	const fn = "JSObjectSetPrototype"
	defer fence(fn, ctx, nil)
	c, o, ok := objectCall(fn, ctx, object, nil)
	if !ok {
		return
	}
	v, err := c.jsValue(fn, "value", value)
	if err != nil {
		return
	}
	if _, isObj := v.(*goja.Object); !isObj {
		v = goja.Null() // as JavaScriptCore: anything but an object sets null
	}
	_, _ = callIntrinsic(c.x.in.setProto, nil, o, v) // Reflect.setPrototypeOf: a refusal is ignored, as in JSC
}

// makeWith runs new ctor(arguments...) for JSObjectMakeDate and JSObjectMakeRegExp.
func makeWith(fn string, ctx, argumentCount uintptr, arguments *uintptr, exception *uintptr,
	ctor func(*context) *goja.Object) uintptr {
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	args, err := c.valueArray(fn, "arguments", argumentCount, arguments)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	o, err := c.construct(ctor(c), args...)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	return c.newValue(o)
}

//export JSObjectMakeDate
func JSObjectMakeDate(ctx, argumentCount uintptr, arguments *uintptr, exception *uintptr) (result uintptr) {
	defer fence("JSObjectMakeDate", ctx, exception)
	return makeWith("JSObjectMakeDate", ctx, argumentCount, arguments, exception,
		func(c *context) *goja.Object { return c.x.in.dateCtor })
}

//export JSObjectMakeRegExp
func JSObjectMakeRegExp(ctx, argumentCount uintptr, arguments *uintptr, exception *uintptr) (result uintptr) {
	defer fence("JSObjectMakeRegExp", ctx, exception)
	return makeWith("JSObjectMakeRegExp", ctx, argumentCount, arguments, exception,
		func(c *context) *goja.Object { return c.x.in.regexpCtor })
}
