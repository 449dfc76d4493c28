package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"math"
	"math/big"
	"reflect"

	"github.com/dop251/goja"
)

// JSType values (include/jsworker.h).
const (
	jsTypeUndefined = 0
	jsTypeNull      = 1
	jsTypeBoolean   = 2
	jsTypeNumber    = 3
	jsTypeString    = 4
	jsTypeObject    = 5
	jsTypeSymbol    = 6
	jsTypeBigInt    = 7
)

var bigIntType = reflect.TypeFor[*big.Int]()

// typeOf classifies v as JSValueGetType does.
func typeOf(v goja.Value) int32 {
	switch v := v.(type) {
	case nil:
		return jsTypeUndefined
	case *goja.Object:
		return jsTypeObject
	case *goja.Symbol:
		return jsTypeSymbol
	case goja.String:
		return jsTypeString
	default:
		switch {
		case goja.IsUndefined(v):
			return jsTypeUndefined
		case goja.IsNull(v):
			return jsTypeNull
		}
		switch t := v.ExportType(); {
		case t == nil:
			return jsTypeUndefined
		case t.Kind() == reflect.Bool:
			return jsTypeBoolean
		case t == bigIntType:
			return jsTypeBigInt
		}
		return jsTypeNumber
	}
}

// valueOf resolves ctx and one value for the predicates and getters that have no exception slot.
func valueOf(fn string, ctx, v uintptr) (*context, goja.Value, bool) {
	c, err := enter(fn, ctx)
	if err != nil {
		return nil, nil, false
	}
	val, err := c.jsValue(fn, "value", v)
	if err != nil {
		return c, nil, false
	}
	return c, val, true
}

//export JSValueGetType
func JSValueGetType(ctx, value uintptr) (result int32) {
	defer fence("JSValueGetType", ctx, nil)
	if _, v, ok := valueOf("JSValueGetType", ctx, value); ok {
		return typeOf(v)
	}
	return jsTypeUndefined
}

func isType(fn string, ctx, value uintptr, t int32) bool {
	_, v, ok := valueOf(fn, ctx, value)
	return ok && typeOf(v) == t
}

//export JSValueIsUndefined
func JSValueIsUndefined(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsUndefined", ctx, nil)
	return isType("JSValueIsUndefined", ctx, value, jsTypeUndefined)
}

//export JSValueIsNull
func JSValueIsNull(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsNull", ctx, nil)
	return isType("JSValueIsNull", ctx, value, jsTypeNull)
}

//export JSValueIsBoolean
func JSValueIsBoolean(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsBoolean", ctx, nil)
	return isType("JSValueIsBoolean", ctx, value, jsTypeBoolean)
}

//export JSValueIsNumber
func JSValueIsNumber(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsNumber", ctx, nil)
	return isType("JSValueIsNumber", ctx, value, jsTypeNumber)
}

//export JSValueIsString
func JSValueIsString(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsString", ctx, nil)
	return isType("JSValueIsString", ctx, value, jsTypeString)
}

//export JSValueIsSymbol
func JSValueIsSymbol(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsSymbol", ctx, nil)
	return isType("JSValueIsSymbol", ctx, value, jsTypeSymbol)
}

//export JSValueIsObject
func JSValueIsObject(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsObject", ctx, nil)
	return isType("JSValueIsObject", ctx, value, jsTypeObject)
}

func isClass(fn string, ctx, value uintptr, class string) bool {
	_, v, ok := valueOf(fn, ctx, value)
	o, isObj := v.(*goja.Object)
	return ok && isObj && o.ClassName() == class
}

//export JSValueIsArray
func JSValueIsArray(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsArray", ctx, nil)
	return isClass("JSValueIsArray", ctx, value, "Array")
}

//export JSValueIsDate
func JSValueIsDate(ctx, value uintptr) (result bool) {
	defer fence("JSValueIsDate", ctx, nil)
	return isClass("JSValueIsDate", ctx, value, "Date")
}

// twoValues resolves ctx and two values for the comparisons.
func twoValues(fn string, ctx, a, b uintptr) (*context, goja.Value, goja.Value, error) {
	c, err := enter(fn, ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	va, err := c.jsValue(fn, "a", a)
	if err != nil {
		return c, nil, nil, err
	}
	vb, err := c.jsValue(fn, "b", b)
	if err != nil {
		return c, nil, nil, err
	}
	return c, va, vb, nil
}

//export JSValueIsEqual
func JSValueIsEqual(ctx, a, b uintptr, exception *uintptr) (result bool) {
	defer fence("JSValueIsEqual", ctx, exception)
	c, va, vb, err := twoValues("JSValueIsEqual", ctx, a, b)
	if err == nil {
		if ex := c.rt.Try(func() { result = va.Equals(vb) }); ex != nil {
			err = ex
		}
	}
	if err != nil {
		fail(c, exception, err)
		return false
	}
	return result
}

//export JSValueIsStrictEqual
func JSValueIsStrictEqual(ctx, a, b uintptr) (result bool) {
	defer fence("JSValueIsStrictEqual", ctx, nil)
	_, va, vb, err := twoValues("JSValueIsStrictEqual", ctx, a, b)
	return err == nil && va.StrictEquals(vb)
}

//export JSValueIsInstanceOfConstructor
func JSValueIsInstanceOfConstructor(ctx, value, constructor uintptr, exception *uintptr) (result bool) {
	const fn = "JSValueIsInstanceOfConstructor"
	defer fence(fn, ctx, exception)
	c, v, ok := valueOf(fn, ctx, value)
	if !ok {
		if c != nil {
			_, err := c.jsValue(fn, "value", value)
			c.throw(exception, err)
		}
		return false
	}
	ctor, err := c.object(fn, "constructor", constructor)
	if err == nil {
		if ex := c.rt.Try(func() { result = c.rt.InstanceOf(v, ctor) }); ex != nil {
			err = ex
		}
	}
	if err != nil {
		c.throw(exception, err)
		return false
	}
	return result
}

//export JSValueMakeUndefined
func JSValueMakeUndefined(ctx uintptr) (result uintptr) {
	defer fence("JSValueMakeUndefined", ctx, nil)
	c, err := enter("JSValueMakeUndefined", ctx)
	if err != nil {
		return 0
	}
	return c.newValue(goja.Undefined())
}

//export JSValueMakeNull
func JSValueMakeNull(ctx uintptr) (result uintptr) {
	defer fence("JSValueMakeNull", ctx, nil)
	c, err := enter("JSValueMakeNull", ctx)
	if err != nil {
		return 0
	}
	return c.newValue(goja.Null())
}

//export JSValueMakeBoolean
func JSValueMakeBoolean(ctx uintptr, boolean bool) (result uintptr) {
	defer fence("JSValueMakeBoolean", ctx, nil)
	c, err := enter("JSValueMakeBoolean", ctx)
	if err != nil {
		return 0
	}
	return c.newValue(c.rt.ToValue(boolean))
}

//export JSValueMakeNumber
func JSValueMakeNumber(ctx uintptr, number float64) (result uintptr) {
	defer fence("JSValueMakeNumber", ctx, nil)
	c, err := enter("JSValueMakeNumber", ctx)
	if err != nil {
		return 0
	}
	return c.newValue(c.rt.ToValue(number))
}

//export JSValueMakeString
func JSValueMakeString(ctx, str uintptr) (result uintptr) {
	defer fence("JSValueMakeString", ctx, nil)
	c, err := enter("JSValueMakeString", ctx)
	if err != nil {
		return 0
	}
	s, err := getString("JSValueMakeString", "string", str, c.tid)
	if err != nil {
		return 0
	}
	return c.newValue(s.jsValue())
}

//export JSValueMakeFromJSONString
func JSValueMakeFromJSONString(ctx, str uintptr) (result uintptr) {
	defer fence("JSValueMakeFromJSONString", ctx, nil)
	c, err := enter("JSValueMakeFromJSONString", ctx)
	if err != nil {
		return 0
	}
	s, err := getString("JSValueMakeFromJSONString", "string", str, c.tid)
	if err != nil {
		return 0
	}
	v, err := c.call(c.in.jsonParse, goja.Undefined(), s.jsValue())
	if err != nil {
		return 0
	}
	return c.newValue(v)
}

//export JSValueCreateJSONString
func JSValueCreateJSONString(ctx, value uintptr, indent uint32, exception *uintptr) (result uintptr) {
	const fn = "JSValueCreateJSONString"
	defer fence(fn, ctx, exception)
	c, v, ok := valueOf(fn, ctx, value)
	if !ok {
		if c != nil {
			_, err := c.jsValue(fn, "value", value)
			c.throw(exception, err)
		}
		return 0
	}
	out, err := c.call(c.in.jsonStringify, goja.Undefined(), v, goja.Null(), c.rt.ToValue(min(indent, 10)))
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	s, isString := out.(goja.String)
	if !isString {
		return 0 // undefined, a function or a symbol: nothing to serialize
	}
	return stringFromJS(s, c.tid)
}

//export JSValueToBoolean
func JSValueToBoolean(ctx, value uintptr) (result bool) {
	defer fence("JSValueToBoolean", ctx, nil)
	_, v, ok := valueOf("JSValueToBoolean", ctx, value)
	return ok && v.ToBoolean()
}

//export JSValueToNumber
func JSValueToNumber(ctx, value uintptr, exception *uintptr) (result float64) {
	const fn = "JSValueToNumber"
	defer func() {
		if r := recover(); r != nil {
			result = math.NaN()
			reportPanic(fn, ctx, exception, r)
		}
	}()
	c, v, ok := valueOf(fn, ctx, value)
	if !ok {
		if c != nil {
			_, err := c.jsValue(fn, "value", value)
			c.throw(exception, err)
		}
		return math.NaN()
	}
	if ex := c.rt.Try(func() {
		if typeOf(v) == jsTypeBigInt {
			panic(c.rt.NewTypeError("Cannot convert a BigInt value to a number"))
		}
		result = v.ToNumber().ToFloat()
	}); ex != nil {
		c.throw(exception, ex)
		return math.NaN()
	}
	return result
}

//export JSValueToStringCopy
func JSValueToStringCopy(ctx, value uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSValueToStringCopy"
	defer fence(fn, ctx, exception)
	c, v, ok := valueOf(fn, ctx, value)
	if !ok {
		if c != nil {
			_, err := c.jsValue(fn, "value", value)
			c.throw(exception, err)
		}
		return 0
	}
	if typeOf(v) == jsTypeSymbol {
		c.throw(exception, &jsError{ctor: "TypeError", msg: "Cannot convert a Symbol value to a string"})
		return 0
	}
	sv, err := c.call(c.in.toString, goja.Undefined(), v) // String(v): ToString, with a throwing toString reported
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	s, isString := sv.(goja.String)
	if !isString {
		c.throw(exception, errors.New(fn+": the value has no string form"))
		return 0
	}
	return stringFromJS(s, c.tid)
}

//export JSValueToObject
func JSValueToObject(ctx, value uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSValueToObject"
	defer fence(fn, ctx, exception)
	c, v, ok := valueOf(fn, ctx, value)
	if !ok {
		if c != nil {
			_, err := c.jsValue(fn, "value", value)
			c.throw(exception, err)
		}
		return 0
	}
	var o *goja.Object
	if ex := c.rt.Try(func() { o = v.ToObject(c.rt) }); ex != nil {
		c.throw(exception, ex)
		return 0
	}
	return c.newValue(o)
}
