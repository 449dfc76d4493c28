package capi

/*
#include "capi.h"
*/
import "C"

import (
	"errors"
	"math"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// Stopping scripts from any thread and time limits (include/jsworker.h, "Termination and time limits";
// docs/limits.md). The library's calls that run JavaScript in a main context are top-level entries of its
// core.HostRealm (HostRealm.Enter): ZJSContextTerminateExecution and the execution time limit stop them, and the call
// then fails with an exception whose message says the script was terminated.

// call runs f as an entry into the context's JavaScript: ZJSContextTerminateExecution and the time limit stop it.
// A worker's context (workerctx.go) has no HostRealm: the worker's own Terminate and time limit stop it.
func (c *context) call(f goja.Callable, this goja.Value, args ...goja.Value) (v goja.Value, err error) {
	if c.host == nil {
		return f(this, args...)
	}
	err = c.host.Enter(func() error {
		v, err = f(this, args...)
		return err
	})
	return v, err
}

// terminationError is the exception a stopped call stores: an Error whose message says it was terminated (and why,
// for the time limit and the process cap).
func terminationError(err error) *jsError {
	msg := "script execution terminated"
	switch {
	case errors.Is(err, core.ErrExecutionTimeLimit):
		msg += ": execution time limit exceeded"
	case errors.Is(err, core.ErrExecutionOutOfMemory):
		msg += ": JavaScript heap out of memory" // the process cap stopped it (ZJSSetMemoryLimit)
	}
	return &jsError{ctor: "Error", msg: msg}
}

// resolveAnyThread resolves a handle for the few calls that any thread may make: the kind is checked, the owner
// thread is not.
func resolveAnyThread(_, _ string, h uintptr, want kind) (any, bool) {
	if h == 0 {
		return nil, false
	}
	e, ok := handles.get(h)
	if !ok || e.kind != want {
		return nil, false
	}
	return e.obj, true
}

//export ZJSContextTerminateExecution
func ZJSContextTerminateExecution(ctx uintptr) {
	defer fence("ZJSContextTerminateExecution", 0, nil)
	if o, ok := resolveAnyThread("ZJSContextTerminateExecution", "ctx", ctx, kindContext); ok && o.(*context).host != nil {
		o.(*context).host.TerminateExecution() // a worker's context: ZJSWorkerRequestTermination stops its worker
	}
}

//export ZJSContextSetExecutionTimeLimit
func ZJSContextSetExecutionTimeLimit(ctx uintptr, limitSeconds float64, callback, userData uintptr) {
	defer fence("ZJSContextSetExecutionTimeLimit", 0, nil)
	o, ok := resolveAnyThread("ZJSContextSetExecutionTimeLimit", "ctx", ctx, kindContext)
	if !ok {
		return
	}
	c := o.(*context)
	if c.host == nil {
		return // a worker's context: ZJSWorkerOptions.executionTimeLimit bounds its worker's tasks
	}
	d := secondsToDuration(limitSeconds)
	if d <= 0 {
		c.host.ClearExecutionTimeLimit()
		return
	}
	var should func() bool
	if callback != 0 {
		h := c.h
		should = func() bool {
			return bool(C.jsw_call_should_terminate(C.uintptr_t(callback), C.jsw_handle(h), C.uintptr_t(userData)))
		}
	}
	c.host.SetExecutionTimeLimit(d, should)
}

//export ZJSContextClearExecutionTimeLimit
func ZJSContextClearExecutionTimeLimit(ctx uintptr) {
	defer fence("ZJSContextClearExecutionTimeLimit", 0, nil)
	if o, ok := resolveAnyThread("ZJSContextClearExecutionTimeLimit", "ctx", ctx, kindContext); ok && o.(*context).host != nil {
		o.(*context).host.ClearExecutionTimeLimit()
	}
}

//export ZJSWorkerRequestTermination
func ZJSWorkerRequestTermination(workerRef uintptr) {
	defer fence("ZJSWorkerRequestTermination", 0, nil)
	if o, ok := resolveAnyThread("ZJSWorkerRequestTermination", "worker", workerRef, kindWorker); ok {
		if w := o.(*worker).ready.Load(); w != nil {
			w.Terminate() // safe from any goroutine; the owner still releases
		}
	}
}

// secondsToDuration converts a limit in seconds, saturating; NaN, negative and zero are no limit.
func secondsToDuration(s float64) time.Duration {
	switch {
	case !(s > 0):
		return 0
	case s >= float64(math.MaxInt64)/float64(time.Second):
		return time.Duration(math.MaxInt64)
	}
	d := time.Duration(s * float64(time.Second))
	return max(d, 1)
}

//export ZJSSetMemoryLimit
func ZJSSetMemoryLimit(bytes uintptr) {
	defer fence("ZJSSetMemoryLimit", 0, nil)
	core.SetMemoryLimit(sizeBytes(bytes))
}

// sizeBytes converts a size_t byte count to core's int64, saturating.
func sizeBytes(n uintptr) int64 {
	return int64(min(uint64(n), math.MaxInt64))
}
