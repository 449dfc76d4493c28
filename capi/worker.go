package capi

/*
#include "capi.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
)

// A worker is what a JSWorkerRef names.
type worker struct {
	h           uintptr
	w           *core.Worker
	ready       atomic.Pointer[core.Worker] // w, for the calls any thread may make
	inspectable bool
}

// A workerConfig is everything the three create functions can ask for.
type workerConfig struct {
	opts          core.Options
	exact         bool // the limits below are literal (JSWorkerCreateWithLimits): 0 is a zero limit
	inbox, outbox core.ChannelLimits
	inspectable   bool
	errFn, errUD  uintptr // ZJSWorkerOptions.errorCallback and errorUserData
	setup         setupFn // ZJSWorkerOptions.setup and setupUserData (workerctx.go)
	console       setupFn // ZJSWorkerOptions.consoleCallback and consoleUserData (console.go)
}

// sizeLimit converts a size_t limit to core's int, saturating.
func sizeLimit(n uintptr) int {
	if uint64(n) > math.MaxInt {
		return math.MaxInt
	}
	return int(n)
}

// createWorker starts a worker owned by thread tid and returns its handle, or 0 and why not.
func createWorker(fn string, source uintptr, cfg workerConfig, tid int) (uintptr, error) {
	s, err := getString(fn, "source", source, tid)
	if err != nil {
		return 0, err
	}
	return startWorker(cfg, tid, func(opts core.Options) (*core.Worker, error) {
		if cfg.exact {
			return core.SpawnExact(s.goString(), opts, cfg.inbox, cfg.outbox)
		}
		return core.Spawn(s.goString(), opts)
	})
}

// startWorker registers the handle of a new worker owned by thread tid, then starts the worker with spawn. The
// handle exists before the worker starts, so that an error callback given in the options can name it from the first
// statement on; it is not usable (w is nil) until this function returns it. On failure it is removed again.
func startWorker(cfg workerConfig, tid int, spawn func(core.Options) (*core.Worker, error)) (uintptr, error) {
	wr := &worker{inspectable: cfg.inspectable}
	cfg.opts.Inspectable = cfg.inspectable
	wr.h = handles.add(kindWorker, tid, wr)
	if cfg.errFn != 0 {
		errFn, errUD := cfg.errFn, cfg.errUD
		cfg.opts.OnError = func(r core.ErrorRecord) { callErrorCallback(errFn, errUD, wr.h, r) }
	}
	wait := cfg.withSetup() // workerctx.go
	cfg.withConsole()       // console.go: wraps the setup, so that its callback is in place first
	w, err := spawn(cfg.opts)
	if err != nil {
		handles.remove(wr.h)
		return 0, err
	}
	if wait != nil {
		if err := wait(w); err != nil { // creation waits for the setup; false fails it
			handles.remove(wr.h)
			w.Terminate()
			w.Release()
			return 0, err
		}
	}
	wr.w = w
	wr.ready.Store(w) // ZJSWorkerRequestTermination, from any thread (limits.go)
	return wr.h, nil
}

// getWorker resolves a JSWorkerRef parameter.
func getWorker(fn string, h uintptr, tid int) (*worker, error) {
	o, err := resolve(fn, "worker", h, kindWorker, tid)
	if err != nil {
		return nil, err
	}
	wr := o.(*worker)
	if wr.w == nil {
		return nil, fmt.Errorf("%s: worker is still being created", fn)
	}
	return wr, nil
}

//export JSWorkerCreate
func JSWorkerCreate(source uintptr) (result uintptr) {
	defer fence("JSWorkerCreate", 0, nil)
	h, _ := createWorker("JSWorkerCreate", source, workerConfig{}, gettid())
	return h
}

//export JSWorkerCreateWithLimits
func JSWorkerCreateWithLimits(source, maxMessageBytes, maxQueuedBytes, maxQueuedMessages uintptr) (result uintptr) {
	defer fence("JSWorkerCreateWithLimits", 0, nil)
	l := core.ChannelLimits{
		MaxFrameBytes:     sizeLimit(maxMessageBytes),
		MaxQueuedBytes:    sizeLimit(maxQueuedBytes),
		MaxQueuedMessages: sizeLimit(maxQueuedMessages),
	}
	h, _ := createWorker("JSWorkerCreateWithLimits", source, workerConfig{exact: true, inbox: l, outbox: l}, gettid())
	return h
}

// readOptions reads a ZJSWorkerOptions. Fields beyond options->size take their defaults; a larger struct (from a
// newer header) is accepted when the fields this library does not know are all zero.
func readOptions(p unsafe.Pointer) (workerConfig, error) {
	var cfg workerConfig
	if p == nil {
		return cfg, nil
	}
	var o C.jsw_worker_options
	known := uintptr(C.sizeof_jsw_worker_options)
	size := uintptr(*(*C.size_t)(p))
	if size < unsafe.Sizeof(o.size) {
		return cfg, fmt.Errorf("options->size is %d; set it to sizeof(ZJSWorkerOptions)", size)
	}
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&o)), known), unsafe.Slice((*byte)(p), min(size, known)))
	if size > known {
		for _, b := range unsafe.Slice((*byte)(p), size)[known:] {
			if b != 0 {
				return cfg, fmt.Errorf("options->size is %d and sets fields this library (version %d) does not know; "+
					"it was built against a newer jsworker.h", size, versionNumber)
			}
		}
	}
	limits := func(l C.jsw_channel_limits) core.ChannelLimits {
		return core.ChannelLimits{
			MaxFrameBytes:     sizeLimit(uintptr(l.maxMessageBytes)),
			MaxQueuedBytes:    sizeLimit(uintptr(l.maxQueuedBytes)),
			MaxQueuedMessages: sizeLimit(uintptr(l.maxQueuedMessages)),
		}
	}
	cfg.opts.Inbox, cfg.opts.Outbox = limits(o.inbox), limits(o.outbox)
	if o.name != nil {
		cfg.opts.Name = C.GoString(o.name)
	}
	if o.filename != nil {
		cfg.opts.Filename = C.GoString(o.filename)
	}
	cfg.opts.MaxCallStackSize = sizeLimit(uintptr(o.maxCallStackSize))
	cfg.opts.DedicatedThread = bool(o.dedicatedThread)
	cfg.inspectable = bool(o.inspectable)
	cfg.errFn, cfg.errUD = uintptr(o.errorCallback), uintptr(o.errorUserData)
	cfg.opts.WaitForDebugger = bool(o.waitForDebugger)
	cfg.opts.ExecutionTimeLimit = secondsToDuration(float64(o.executionTimeLimit)) // limits.go
	cfg.setup = setupFn{uintptr(o.setup), uintptr(o.setupUserData)}
	cfg.console = setupFn{uintptr(o.consoleCallback), uintptr(o.consoleUserData)}
	cfg.opts.MaxHeapBytes = sizeBytes(uintptr(o.maxHeapBytes)) // limits.go
	return cfg, nil
}

//export ZJSWorkerCreateWithOptions
func ZJSWorkerCreateWithOptions(source uintptr, options unsafe.Pointer, errorMessage *uintptr) (result uintptr) {
	const fn = "ZJSWorkerCreateWithOptions"
	tid := gettid()
	defer func() {
		if r := recover(); r != nil {
			result = 0
			if errorMessage != nil {
				*errorMessage = stringFromGo(fmt.Sprintf("%s: internal error: %v", fn, r), tid)
			}
		}
	}()
	cfg, err := readOptions(options)
	if err == nil {
		result, err = createWorker(fn, source, cfg, tid)
	}
	if err != nil && errorMessage != nil {
		*errorMessage = stringFromGo(err.Error(), tid)
	}
	return result
}

// workerCall resolves the context and worker of JSWorkerPostMessage and JSWorkerReceive: the context first, so that
// a bad worker can be reported as an exception in it.
func workerCall(fn string, worker, ctx uintptr, exception *uintptr) (*context, *worker, bool) {
	c, err := enter(fn, ctx)
	if err != nil {
		return nil, nil, false
	}
	wr, err := getWorker(fn, worker, c.tid)
	if err != nil {
		c.throw(exception, err)
		return c, nil, false
	}
	return c, wr, true
}

// postCause names the cause of a failed post, for the exception stored for it.
func postCause(fn string, wr *worker, err error) error {
	var dce *clone.DataCloneError
	switch {
	case errors.As(err, &dce):
		return &jsError{ctor: "Error", name: "DataCloneError", msg: dce.Message}
	case errors.Is(err, core.ErrFrameTooLarge):
		return &jsError{ctor: "RangeError", msg: fmt.Sprintf(
			"%s: message too large for the worker's limit (%d bytes)", fn, wr.w.Inbox().Limits().MaxFrameBytes)}
	case errors.Is(err, core.ErrQueueFull):
		l := wr.w.Inbox().Limits()
		return &jsError{ctor: "RangeError", msg: fmt.Sprintf(
			"%s: queue full: the worker's inbox already holds its limit (%d messages, %d bytes)",
			fn, l.MaxQueuedMessages, l.MaxQueuedBytes)}
	case errors.Is(err, core.ErrClosed), errors.Is(err, core.ErrReleased):
		return &jsError{ctor: "Error", name: "InvalidStateError", msg: fn + ": the worker is closed"}
	case errors.Is(err, core.ErrOutOfMemory):
		return &jsError{ctor: "RangeError", msg: fn + ": out of memory"}
	}
	return err
}

// post is JSWorkerPostMessage and ZJSWorkerPostMessageWithTransfer.
func post(fn string, worker, ctx, value, transferCount uintptr, transfer *uintptr, exc *uintptr) bool {
	c, wr, ok := workerCall(fn, worker, ctx, exc)
	if !ok {
		return false
	}
	v, err := c.jsValue(fn, "value", value)
	if err != nil {
		c.throw(exc, err)
		return false
	}
	list, err := c.valueArray(fn, "transfer", transferCount, transfer)
	if err != nil {
		c.throw(exc, err)
		return false
	}
	if err := wr.w.PostMessage(c.rt, v, list...); err != nil {
		c.throw(exc, postCause(fn, wr, err))
		return false
	}
	return true
}

//export JSWorkerPostMessage
func JSWorkerPostMessage(worker, ctx, value uintptr, exception *uintptr) (result bool) {
	defer fence("JSWorkerPostMessage", ctx, exception)
	return post("JSWorkerPostMessage", worker, ctx, value, 0, nil, exception)
}

//export ZJSWorkerPostMessageWithTransfer
func ZJSWorkerPostMessageWithTransfer(worker, ctx, value, transferCount uintptr, transfer *uintptr, exception *uintptr) (result bool) {
	defer fence("ZJSWorkerPostMessageWithTransfer", ctx, exception)
	return post("ZJSWorkerPostMessageWithTransfer", worker, ctx, value, transferCount, transfer, exception)
}

// waitForever is kJSWorkerWaitForever.
const waitForever = math.MaxUint64

// timeout converts JSWorkerReceive's timeout to core's.
func timeout(ms uint64) time.Duration {
	if ms == waitForever || ms > uint64(math.MaxInt64/int64(time.Millisecond)) {
		return core.WaitForever
	}
	return time.Duration(ms) * time.Millisecond
}

//export JSWorkerReceive
func JSWorkerReceive(worker, ctx uintptr, timeoutMs uint64, exception *uintptr) (result uintptr) {
	const fn = "JSWorkerReceive"
	defer fence(fn, ctx, exception)
	c, wr, ok := workerCall(fn, worker, ctx, exception)
	if !ok {
		return 0
	}
	v, err := receiveValue(wr.w, c.rt, timeout(timeoutMs))
	switch {
	case err == nil:
		return c.newValue(v)
	case errors.Is(err, core.ErrNoMessage), errors.Is(err, core.ErrClosed):
		return 0
	}
	c.throw(exception, err)
	return 0
}

// ownedWorker resolves the worker of the calls without an exception slot; they do nothing on failure.
func ownedWorker(fn string, worker uintptr) *worker {
	wr, err := getWorker(fn, worker, gettid())
	if err != nil {
		return nil
	}
	return wr
}

//export JSWorkerTerminate
func JSWorkerTerminate(worker uintptr) {
	defer fence("JSWorkerTerminate", 0, nil)
	if wr := ownedWorker("JSWorkerTerminate", worker); wr != nil {
		wr.w.Terminate()
	}
}

//export ZJSWorkerClose
func ZJSWorkerClose(worker uintptr) {
	defer fence("ZJSWorkerClose", 0, nil)
	if wr := ownedWorker("ZJSWorkerClose", worker); wr != nil {
		wr.w.Close()
	}
}

//export JSWorkerRelease
func JSWorkerRelease(worker uintptr) {
	defer fence("JSWorkerRelease", 0, nil)
	if wr := ownedWorker("JSWorkerRelease", worker); wr != nil {
		handles.remove(wr.h)
		wr.w.Release()
	}
}

//export ZJSWorkerSetNotifyCallback
func ZJSWorkerSetNotifyCallback(worker, callback, userData uintptr) (result bool) {
	defer fence("ZJSWorkerSetNotifyCallback", 0, nil)
	wr := ownedWorker("ZJSWorkerSetNotifyCallback", worker)
	if wr == nil {
		return false
	}
	if callback == 0 {
		wr.w.SetNotify(nil)
		return true
	}
	h := wr.h
	wr.w.SetNotify(func() { C.jsw_call_notify(C.uintptr_t(callback), C.jsw_handle(h), C.uintptr_t(userData)) })
	return true
}

//export ZJSWorkerSetErrorCallback
func ZJSWorkerSetErrorCallback(worker, callback, userData uintptr) (result bool) {
	defer fence("ZJSWorkerSetErrorCallback", 0, nil)
	wr := ownedWorker("ZJSWorkerSetErrorCallback", worker)
	if wr == nil {
		return false
	}
	if callback == 0 {
		wr.w.SetErrorHandler(nil)
		return true
	}
	h := wr.h
	wr.w.SetErrorHandler(func(r core.ErrorRecord) { callErrorCallback(callback, userData, h, r) })
	return true
}

// callErrorCallback hands r to a ZJSWorkerErrorCallback, on the worker's thread. The strings are C copies that
// live for the duration of the call.
func callErrorCallback(fn, userData, h uintptr, r core.ErrorRecord) {
	info := (*C.jsw_error_info)(C.calloc(1, C.sizeof_jsw_error_info))
	if info == nil {
		return
	}
	info.size = C.sizeof_jsw_error_info
	info.kind = C.int(r.Kind)
	info.name, info.message = C.CString(r.Name), C.CString(r.Message)
	info.stack, info.filename = C.CString(r.Stack), C.CString(r.Filename)
	info.line, info.column = C.unsigned(max(r.Line, 0)), C.unsigned(max(r.Column, 0))
	defer func() {
		for _, p := range []*C.char{info.name, info.message, info.stack, info.filename} {
			C.free(unsafe.Pointer(p))
		}
		C.free(unsafe.Pointer(info))
	}()
	C.jsw_call_error(C.uintptr_t(fn), C.jsw_handle(h), info, C.uintptr_t(userData))
}

// Target kinds and states (ZJSInspectorTargetKind, ZJSInspectorTargetState).
func targetKind(k core.Kind) C.int {
	if k == core.KindModule {
		return 1
	}
	return 0
}

func targetState(s core.State) C.int {
	switch s {
	case core.StateRunning:
		return 1
	case core.StateClosing:
		return 2
	case core.StateClosed:
		return 3
	}
	return 0
}

//export ZJSWorkerGetInspectorTargetInfo
func ZJSWorkerGetInspectorTargetInfo(worker uintptr, info unsafe.Pointer) (result bool) {
	defer fence("ZJSWorkerGetInspectorTargetInfo", 0, nil)
	if info == nil {
		return false
	}
	wr := ownedWorker("ZJSWorkerGetInspectorTargetInfo", worker)
	if wr == nil {
		return false
	}
	ti := (*C.jsw_target_info)(info)
	ti.id = C.uint64_t(wr.w.ID())
	ti.kind = targetKind(wr.w.Kind())
	ti.state = targetState(wr.w.State())
	return true
}
