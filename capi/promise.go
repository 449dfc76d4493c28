package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/jsworker/jsworker/internal/depthguard"
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

// JSObjectMakeFunction makes a function from source text, as the Function constructor does: it compiles
// "(function anonymous(params\n) {\nbody\n})" with sourceURL as its script name and the body starting at
// startingLineNumber, so that stack traces point into the host's text. The parsed program must be that one function
// literal and nothing else (compileFunction): goja's own Function constructor evaluates its concatenated text
// whole, so a body such as "}); sideEffect(); (function () {" would run code there (V8 rejects it; so do we).
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
	lead := ""
	if startingLineNumber > 3 && startingLineNumber <= maxLineOffset {
		lead = strings.Repeat("\n", int(startingLineNumber)-3)
	}
	src := lead + "(function anonymous(" + strings.Join(params, ",") + "\n) {\n" + b.goString() + "\n})"
	prog, kinds, err := compileFunction(url, src)
	if err != nil {
		return fail(err)
	}
	if kinds { // unrewritten code that makes an async function or a generator: their constructors guarded first
		if err := depthguard.EnsureFunctionKinds(c.rt); err != nil {
			return fail(err)
		}
	}
	v, err := c.rt.RunProgram(prog)
	if err != nil {
		return fail(err)
	}
	f := v.(*goja.Object)
	_ = f.DefineDataProperty("name", nameV, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return c.newValue(f)
}

// compileFunction parses src and accepts it only if it is a single function literal spanning the whole text; kinds
// reports whether it makes async functions or generators (depthguard.MakesFunctionKinds).
func compileFunction(url, src string) (prg *goja.Program, kinds bool, err error) {
	if depthguard.CheckNesting(url, src) != nil { // goja's parser recurses without a limit
		return nil, false, &jsError{ctor: "RangeError", msg: depthguard.Message}
	}
	prog, err := parser.ParseFile(nil, url, src, 0)
	if err != nil {
		return nil, false, &jsError{ctor: "SyntaxError", msg: err.Error()}
	}
	if len(prog.Body) == 1 {
		if st, ok := prog.Body[0].(*ast.ExpressionStatement); ok {
			if fl, ok := st.Expression.(*ast.FunctionLiteral); ok && int(fl.Idx1()) == len(src) {
				depthguard.FixDeadJumps(prog) // goja miscompiles some break and continue statements in dead code
				prg, err := goja.CompileAST(prog, false)
				return prg, depthguard.MakesFunctionKinds(prog), err
			}
		}
	}
	return nil, false, &jsError{ctor: "SyntaxError", msg: "JSObjectMakeFunction: the parameters or the body end the function early"}
}
