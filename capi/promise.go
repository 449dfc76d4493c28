package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// ZJSPromiseState values (include/jsworker.h).
const (
	promisePending   = 0
	promiseFulfilled = 1
	promiseRejected  = 2
	promiseInvalid   = 3
)

// JSObjectMakeDeferredPromise makes a promise with the realm's own Promise constructor and hands out its resolving
// functions. Settling it from C (JSObjectCallAsFunction on resolve or reject) queues its reactions; they run as the
// microtasks of that call, before it returns, because every API call that runs JavaScript drains the microtask
// queue when its outermost JavaScript frame returns (as JavaScriptCore does when the outermost API call returns).
//
//export JSObjectMakeDeferredPromise
func JSObjectMakeDeferredPromise(ctx uintptr, resolve, reject *uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeDeferredPromise"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	v, err := callIntrinsic(c.x.in.deferred, nil)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	arr := v.(*goja.Object)
	if resolve != nil {
		*resolve = c.newValue(arr.Get("1"))
	}
	if reject != nil {
		*reject = c.newValue(arr.Get("2"))
	}
	return c.newValue(arr.Get("0"))
}

//export ZJSPromiseGetState
func ZJSPromiseGetState(ctx, promise uintptr, result *uintptr) (state int32) {
	const fn = "ZJSPromiseGetState"
	state = promiseInvalid
	defer fence(fn, ctx, nil)
	if result != nil {
		*result = 0
	}
	c, o, ok := objectCall(fn, ctx, promise, nil)
	if !ok {
		return promiseInvalid
	}
	p, isPromise := o.Export().(*goja.Promise)
	if !isPromise {
		return promiseInvalid
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		state = promiseFulfilled
	case goja.PromiseStateRejected:
		state = promiseRejected
	default:
		return promisePending
	}
	if result != nil {
		*result = c.newValue(p.Result())
	}
	return state
}

// JSObjectMakeFunction makes a function from source text, as the Function constructor does. The parameters and the
// body are first checked by the realm's own Function constructor, which parses them apart (so a body cannot close
// the function early); the function itself is then compiled from "function anonymous(params) {\nbody\n}" with
// sourceURL as its script name and the body starting at startingLineNumber, so that stack traces point into the
// host's text.
//
//export JSObjectMakeFunction
func JSObjectMakeFunction(ctx, name uintptr, parameterCount uint32, parameterNames *uintptr, body, sourceURL uintptr,
	startingLineNumber int32, exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeFunction"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	fail := func(err error) uintptr { c.throw(exception, err); return 0 }
	var params []string
	var args []goja.Value
	if parameterCount > 0 {
		if parameterNames == nil {
			return fail(errors.New(fn + ": parameterNames is NULL but parameterCount is not 0"))
		}
		for i, h := range unsafeSlice(parameterNames, uintptr(parameterCount)) {
			s, err := getString(fn, "parameterNames["+strconv.Itoa(i)+"]", h, c.tid)
			if err != nil {
				return fail(err)
			}
			params = append(params, s.goString())
			args = append(args, s.jsValue())
		}
	}
	b, err := getString(fn, "body", body, c.tid)
	if err != nil {
		return fail(err)
	}
	nameV := goja.Value(c.rt.ToValue("anonymous"))
	if name != 0 {
		s, err := getString(fn, "name", name, c.tid)
		if err != nil {
			return fail(err)
		}
		nameV = s.jsValue()
	}
	url := ""
	if sourceURL != 0 {
		u, err := getString(fn, "sourceURL", sourceURL, c.tid)
		if err != nil {
			return fail(err)
		}
		url = u.goString()
	}
	if _, err := c.construct(c.x.in.funcCtor, append(args, b.jsValue())...); err != nil {
		return fail(err) // a SyntaxError of the realm
	}
	lead := ""
	if startingLineNumber > 2 && startingLineNumber <= maxLineOffset {
		lead = strings.Repeat("\n", int(startingLineNumber)-2)
	}
	src := lead + "(function anonymous(" + strings.Join(params, ",") + "\n) {\n" + b.goString() + "\n})"
	prog, err := goja.Compile(url, src, false)
	if err != nil {
		return fail(&jsError{ctor: "SyntaxError", msg: err.Error()})
	}
	v, err := c.rt.RunProgram(prog)
	if err != nil {
		return fail(err)
	}
	f := v.(*goja.Object)
	_ = f.DefineDataProperty("name", nameV, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return c.newValue(f)
}
