package capi

/*
#include "capi.h"

// ZJSModuleLoaderCallback.
typedef void (*jsw_module_loader_fn)(jsw_handle request, const char *specifier, const char *referrerPath,
                                     void *userData);

static inline void jsw_call_module_loader(uintptr_t fn, jsw_handle request, const char *specifier,
                                          const char *referrerPath, uintptr_t userData) {
    ((jsw_module_loader_fn)fn)(request, specifier, referrerPath, (void *)userData);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/modules"
)

// Module workers over the C ABI: ZJSWorkerCreateModule and the loader callback's request (ZJSModuleRequestRef).

// A moduleRequest is what a ZJSModuleRequestRef names: one call of the host's loader. Its handle lives only while
// the callback runs, and belongs to the worker's thread, which is the callback's; so the fields are only ever
// touched by that thread.
type moduleRequest struct {
	answered         bool
	resolved, source string
	failed           bool
	message          string // ZJSModuleRequestFail's message; "" for NULL (not found)
}

// testHookLoader, when a test sets it, is called instead of the C loader callback, with the request's handle (the
// Go tests cannot make C function pointers). It is set before any module worker exists and never changed.
var testHookLoader func(fn, request, userData uintptr, specifier, referrer string)

// cLoader makes a modules.Loader of a ZJSModuleLoaderCallback. It runs on the worker's thread: the goroutine stays
// on one OS thread for the callback, so the request's owner (the thread id taken before the call) is the thread
// that runs the callback.
func cLoader(fn, userData uintptr) modules.Loader {
	return func(specifier, referrer string) (string, string, error) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		req := &moduleRequest{}
		h := handles.add(kindModuleRequest, gettid(), req)
		defer handles.remove(h)
		if testHookLoader != nil {
			testHookLoader(fn, h, userData, specifier, referrer)
		} else {
			cs, cr := C.CString(specifier), C.CString(referrer)
			defer C.free(unsafe.Pointer(cs))
			defer C.free(unsafe.Pointer(cr))
			C.jsw_call_module_loader(C.uintptr_t(fn), C.jsw_handle(h), cs, cr, C.uintptr_t(userData))
		}
		switch {
		case req.failed && req.message == "":
			return "", "", modules.ErrNotFound
		case req.failed:
			return "", "", errors.New(req.message)
		case req.answered:
			return req.resolved, req.source, nil
		}
		return "", "", modules.ErrNotFound // neither resolved nor failed
	}
}

// cBytes views length bytes at p (NULL is valid only with length 0). ok is false for NULL with a length, or a
// length no Go slice can have.
func cBytes(p *byte, length uintptr) (b []byte, ok bool) {
	if length > math.MaxInt || (p == nil && length > 0) {
		return nil, false
	}
	if length == 0 {
		return nil, true
	}
	return unsafe.Slice(p, length), true
}

//export ZJSWorkerCreateModule
func ZJSWorkerCreateModule(entryPath, entrySource *byte, entrySourceLength, loader, userData uintptr,
	options unsafe.Pointer, errorMessage *uintptr) (result uintptr) {
	const fn = "ZJSWorkerCreateModule"
	tid := gettid()
	defer func() {
		if r := recover(); r != nil {
			result = 0
			if errorMessage != nil {
				*errorMessage = stringFromGo(fmt.Sprintf("%s: internal error: %v", fn, r), tid)
			}
		}
	}()
	result, err := createModuleWorker(fn, entryPath, entrySource, entrySourceLength, loader, userData, options, tid)
	if err != nil && errorMessage != nil {
		*errorMessage = stringFromGo(err.Error(), tid)
	}
	return result
}

// createModuleWorker starts a module worker owned by thread tid and returns its handle, or 0 and why not.
func createModuleWorker(fn string, entryPath, entrySource *byte, entrySourceLength, loader, userData uintptr,
	options unsafe.Pointer, tid int) (uintptr, error) {
	path := cString(entryPath)
	if path == "" {
		return 0, fmt.Errorf("%s: entryPath is NULL or empty", fn)
	}
	src, ok := cBytes(entrySource, entrySourceLength)
	if !ok {
		return 0, fmt.Errorf("%s: entrySource is NULL with entrySourceLength %d", fn, entrySourceLength)
	}
	cfg, err := readOptions(options)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", fn, err)
	}
	var l modules.Loader
	if loader != 0 {
		l = cLoader(loader, userData)
	}
	h, err := startWorker(cfg, tid, func(opts core.Options) (*core.Worker, error) {
		return core.SpawnModule(path, string(src), l, opts)
	})
	if err != nil {
		return 0, fmt.Errorf("%s: %w", fn, err)
	}
	return h, nil
}

// getRequest resolves a ZJSModuleRequestRef for the calling thread and checks that it has no answer yet.
func getRequest(fn string, h uintptr) (*moduleRequest, error) {
	o, err := resolve(fn, "request", h, kindModuleRequest, gettid())
	if err != nil {
		return nil, err
	}
	req := o.(*moduleRequest)
	if req.answered || req.failed {
		return nil, fmt.Errorf("%s: the request was already answered", fn)
	}
	return req, nil
}

//export ZJSModuleRequestResolve
func ZJSModuleRequestResolve(request uintptr, resolvedPath, source *byte, sourceLength uintptr) (result bool) {
	const fn = "ZJSModuleRequestResolve"
	defer fence(fn, 0, nil)
	req, err := getRequest(fn, request)
	if err != nil {
		return false
	}
	path := cString(resolvedPath)
	if path == "" {
		return false
	}
	src, ok := cBytes(source, sourceLength)
	if !ok {
		return false
	}
	req.answered, req.resolved, req.source = true, path, string(src) // string() copies
	return true
}

//export ZJSModuleRequestFail
func ZJSModuleRequestFail(request uintptr, message *byte) (result bool) {
	const fn = "ZJSModuleRequestFail"
	defer fence(fn, 0, nil)
	req, err := getRequest(fn, request)
	if err != nil {
		return false
	}
	req.failed = true
	if message != nil {
		req.message = cString(message)
		if req.message == "" {
			req.message = "the loader failed"
		}
	}
	return true
}
