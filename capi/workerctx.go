package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// Worker contexts (ZJSWorkerSetupCallback).
//
// A worker's realm is handed to the host as a context whose owner is the worker, not an OS thread: a goroutine
// worker may run on a different OS thread at each callback. Its owner is a negative id (real thread ids are
// positive), and every call from the library into the host on the worker's behalf runs with the calling thread
// acting for that id (capi.h's JSW_AS, read by gettid), inside the one cgo call: so the worker's context, values and
// objects are accepted during the callback, on whatever thread it runs, and refused on every other thread. The
// context lives as long as the worker: JSGlobalContextRelease does nothing to it, and when the worker ends (on its
// thread, core.Worker.AtEnd) the finalizers and NoCopy deallocators still due run and every handle of it goes.

// lastOwner numbers worker contexts' owners.
var lastOwner atomic.Int64

// newWorkerContext makes the context of worker w's realm rt, on the worker's thread.
func newWorkerContext(w *core.Worker, rt *goja.Runtime) (*context, error) {
	owner := -int(lastOwner.Add(1) & (1<<30 - 1))
	c := &context{tid: owner, refs: 1, rt: rt, worker: w, sink: sinkOf(w)}
	if err := c.capture(); err != nil {
		return nil, err
	}
	if err := c.captureExt(); err != nil {
		return nil, err
	}
	c.h = handles.add(kindContext, owner, c)
	w.AtEnd(func() {
		workerContexts.Delete(w)
		c.closed = true
		c.finalizeAll() // class finalizers, NoCopy deallocators (realm_ext.go), acting for the owner
		c.destroy()
	})
	return c, nil
}

// A setupFn is a ZJSWorkerSetupCallback and its userData.
type setupFn struct{ fn, ud uintptr }

// processSetup is the ZJSSetWorkerSetupCallback setup, or nil.
var processSetup atomic.Pointer[setupFn]

// setupHook returns the core.Options.Setup that makes the worker's context and calls the host's setup with it.
// report, if not nil, receives the setup's outcome (nil: it succeeded) exactly once.
func setupHook(s setupFn, report func(error)) func(w *core.Worker, rt *goja.Runtime) error {
	return func(w *core.Worker, rt *goja.Runtime) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("ZJSWorkerSetupCallback: internal error: %v", r)
			}
			if report != nil {
				report(err)
			}
		}()
		c, err := workerContext(w, rt)
		if err != nil {
			return err
		}
		return c.callSetup(s)
	}
}

// workerContexts maps a worker to its context (*core.Worker -> *context): one per worker, made at the first need
// (a setup, a console callback) and removed when the worker ends, both on the worker's thread.
var workerContexts sync.Map

// workerContext returns the context of worker w's realm rt, making it if needed; on the worker's thread.
func workerContext(w *core.Worker, rt *goja.Runtime) (*context, error) {
	if v, ok := workerContexts.Load(w); ok {
		return v.(*context), nil
	}
	c, err := newWorkerContext(w, rt)
	if err != nil {
		return nil, err
	}
	workerContexts.Store(w, c)
	return c, nil
}

// callSetup runs the host's setup in c and turns false into an error carrying the exception's text.
func (c *context) callSetup(s setupFn) error {
	depth := len(c.scopes)
	c.openScope(0)
	defer c.closeScopes(depth)
	var exc uintptr
	ok := bool(C.jsw_call_setup(c.actor(), C.uintptr_t(s.fn), C.jsw_handle(c.h), C.uintptr_t(s.ud),
		(*C.jsw_handle)(unsafe.Pointer(&exc))))
	if ok {
		return nil
	}
	msg := "the setup callback returned false"
	if exc != 0 {
		if val, err := c.value("ZJSWorkerSetupCallback", "*exception", exc); err == nil {
			msg = safeString(val.v)
		}
	}
	return errors.New(msg)
}

// safeString is v's string form, or a description if converting it throws.
func safeString(v goja.Value) (s string) {
	defer func() {
		if recover() != nil {
			s = "(an exception that cannot be converted to a string)"
		}
	}()
	return v.String()
}

//export ZJSSetWorkerSetupCallback
func ZJSSetWorkerSetupCallback(callback, userData uintptr) {
	defer fence("ZJSSetWorkerSetupCallback", 0, nil)
	if callback == 0 {
		processSetup.Store(nil)
		core.SetProcessSetup(nil)
		return
	}
	s := setupFn{callback, userData}
	processSetup.Store(&s)
	core.SetProcessSetup(setupHook(s, nil))
}

// withSetup arranges cfg's worker to run its creator's setup, or the process-wide one, and returns a function that
// waits until it ran and returns its error; nil if there is none.
func (cfg *workerConfig) withSetup() (wait func(w *core.Worker) error) {
	s := cfg.setup
	if s.fn == 0 {
		if p := processSetup.Load(); p != nil {
			s = *p
		}
	}
	if s.fn == 0 {
		return nil
	}
	done := make(chan error, 1)
	cfg.opts.Setup = setupHook(s, func(err error) { done <- err })
	cfg.opts.NoProcessSetup = true // the process-wide one, if any, is the one just chosen
	return func(w *core.Worker) error {
		select {
		case err := <-done:
			return err
		case <-w.Done():
			select {
			case err := <-done:
				return err
			default:
				return errors.New("the worker ended before its setup ran")
			}
		}
	}
}
