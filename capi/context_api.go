package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"runtime"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// newContext makes a main context owned by thread tid, with one reference.
func newContext(tid int) (*context, error) {
	startPrecompile()
	c := &context{tid: tid, refs: 1, sink: &consoleSink{}}
	h, err := core.OpenHostRealm(core.HostRealmOptions{
		ChildHook:       childHook(c.sink), // console.go: its JavaScript's workers inherit its console callback
		OnConsole:       c.inspectConsole,  // inspector_context.go
		IsOwner:         c.onOwnerThread,   // the sessions' commands dispatched on tid run inside the call
		OnInspectorIdle: c.flushSessions,   // a pause hands out the sessions' messages
		ConsoleWrite:    c.consoleWrite,    // console.go
	})
	if err != nil {
		return nil, err
	}
	c.host, c.rt = h, h.Runtime()
	if err := c.capture(); err != nil {
		return nil, err
	}
	if err := c.captureExt(); err != nil {
		return nil, err
	}
	c.h = handles.add(kindContext, tid, c)
	return c, nil
}

//export JSGlobalContextCreate
func JSGlobalContextCreate(globalObjectClass uintptr) (result uintptr) {
	defer fence("JSGlobalContextCreate", 0, nil)
	var cls *jsClass
	if globalObjectClass != 0 {
		var err error
		if cls, err = getClass("JSGlobalContextCreate", "globalObjectClass", globalObjectClass); err != nil {
			return 0
		}
	}
	c, err := newContext(gettid())
	if err != nil {
		return 0
	}
	if cls != nil {
		c.applyGlobalClass(cls) // class.go
	}
	return c.h
}

//export JSGlobalContextRetain
func JSGlobalContextRetain(ctx uintptr) (result uintptr) {
	defer fence("JSGlobalContextRetain", 0, nil)
	c, err := enter("JSGlobalContextRetain", ctx)
	if err != nil {
		return 0
	}
	c.refs++
	return ctx
}

//export JSGlobalContextRelease
func JSGlobalContextRelease(ctx uintptr) {
	defer fence("JSGlobalContextRelease", 0, nil)
	c, err := enter("JSGlobalContextRelease", ctx)
	if err != nil || c.worker != nil { // a worker's context ends with the worker (workerctx.go)
		return
	}
	if c.refs--; c.refs == 0 {
		closeEventLoop(c) // workers and ports its JavaScript created (eventloop.go)
		c.endInspectorSessions()
		c.finalizeAll() // class finalizers, NoCopy deallocators (realm_ext.go)
		c.destroy()
	}
}

//export JSContextGetGlobalObject
func JSContextGetGlobalObject(ctx uintptr) (result uintptr) {
	defer fence("JSContextGetGlobalObject", ctx, nil)
	c, err := enter("JSContextGetGlobalObject", ctx)
	if err != nil {
		return 0
	}
	return c.newValue(c.in.global)
}

//export JSGlobalContextSetInspectable
func JSGlobalContextSetInspectable(ctx uintptr, inspectable bool) {
	defer fence("JSGlobalContextSetInspectable", ctx, nil)
	if c, err := enter("JSGlobalContextSetInspectable", ctx); err == nil && c.host != nil {
		// Inspectable, the realm is listed by the DevTools endpoint and its scripts are compiled instrumented; it
		// stays uninspectable if it refuses the debugger's hooks (a frozen global object).
		_ = c.host.SetInspectable(inspectable)
	}
}

//export JSGlobalContextIsInspectable
func JSGlobalContextIsInspectable(ctx uintptr) (result bool) {
	defer fence("JSGlobalContextIsInspectable", ctx, nil)
	c, err := enter("JSGlobalContextIsInspectable", ctx)
	return err == nil && c.host != nil && c.host.Inspectable()
}

// maxLineOffset bounds the startingLineNumber honoured by JSEvaluateScript and JSCheckScriptSyntax.
const maxLineOffset = 1 << 20

// sourceText reads a script argument and shifts it to start at line startingLine (goja has no line offset, so the
// script is preceded by blank lines: columns and positions in stack traces stay exact).
func sourceText(fn string, script, sourceURL uintptr, startingLine int32, tid int) (src, name string, err error) {
	s, err := getString(fn, "script", script, tid)
	if err != nil {
		return "", "", err
	}
	if sourceURL != 0 {
		u, err := getString(fn, "sourceURL", sourceURL, tid)
		if err != nil {
			return "", "", err
		}
		name = u.goString()
	}
	src = s.goString()
	if startingLine > 1 && startingLine <= maxLineOffset {
		src = strings.Repeat("\n", int(startingLine)-1) + src
	}
	return src, name, nil
}

//export JSEvaluateScript
func JSEvaluateScript(ctx, script, thisObject, sourceURL uintptr, startingLineNumber int32, exception *uintptr) (result uintptr) {
	const fn = "JSEvaluateScript"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	if thisObject != 0 {
		o, err := c.object(fn, "thisObject", thisObject)
		if err != nil {
			c.throw(exception, err)
			return 0
		}
		if o != c.in.global {
			c.throw(exception, errors.New(fn+": thisObject must be NULL or the global object (other objects are not supported)"))
			return 0
		}
	}
	src, name, err := sourceText(fn, script, sourceURL, startingLineNumber, c.tid)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	var v goja.Value
	if c.host != nil {
		v, err = c.host.RunScript(name, src) // instrumented while inspectable
	} else {
		v, err = runGuarded(c.rt, name, src) // a worker's context (workerctx.go), inside a callback on its thread
	}
	// Deliver the answers of awaitPromise evaluations that settled in the script's microtasks. A callback may
	// release the context; then no value can be made in it any more.
	c.flushInspector()
	if c.closed {
		return 0
	}
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	return c.newValue(v)
}

//export JSCheckScriptSyntax
func JSCheckScriptSyntax(ctx, script, sourceURL uintptr, startingLineNumber int32, exception *uintptr) (result bool) {
	const fn = "JSCheckScriptSyntax"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return false
	}
	src, name, err := sourceText(fn, script, sourceURL, startingLineNumber, c.tid)
	if err != nil {
		c.throw(exception, err)
		return false
	}
	if _, err := core.CompileScript(name, src, false); err != nil { // goja's parser panics on some text: recovered here
		var se *goja.CompilerSyntaxError
		if depthguard.IsTooDeep(err) {
			err = &jsError{ctor: "RangeError", msg: depthguard.Message} // as the script would throw when run
		} else if errors.As(err, &se) {
			err = &jsError{ctor: "SyntaxError", msg: se.Error()}
		}
		c.throw(exception, err)
		return false
	}
	return true
}

//export JSGarbageCollect
func JSGarbageCollect(ctx uintptr) {
	defer fence("JSGarbageCollect", 0, nil)
	runtime.GC()
	if c, err := getContext("JSGarbageCollect", ctx, gettid()); err == nil {
		c.runDeaths() // what the collection found, as far as its cleanups have reported yet
	}
}

// runGuarded runs src as a script with its functions guarded against stack overflow (core.CompileScript); a
// syntax error is reported as goja's RunScript reports it.
func runGuarded(rt *goja.Runtime, name, src string) (goja.Value, error) {
	prg, err := core.CompileScript(name, src, false)
	if err != nil {
		return core.RunUncompiled(rt, name, src) // goja's own SyntaxError, also where its parser panics
	}
	return rt.RunProgram(prg)
}
