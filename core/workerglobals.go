package core

import (
	"errors"
	"fmt"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/sharedmem"
	"github.com/jsworker/jsworker/web"
)

// setupRealm installs the worker globals, then runs Options.Setup.
func (w *Worker) setupRealm() error {
	rt := w.rt
	size := w.opts.MaxCallStackSize
	if size <= 0 {
		size = DefaultMaxCallStackSize
	}
	if err := installDepthGuard(rt, size, &w.mem.cp); err != nil { // catchable RangeError past size (CompileScript); memory checkpoints (memory.go)
		return err
	}
	rt.SetPromiseRejectionTracker(w.trackRejection)

	w.timeOrigin = time.Now()

	g := rt.GlobalObject()
	w.global = g
	w.takeErrorCtors(g) // errorctors.go: now, or when first needed
	if o, ok := w.ext.(WebGlobalsOmitter); !ok || !o.OmitWebGlobals() {
		if err := w.installWebGlobals(g); err != nil {
			return err
		}
	}
	web.InstallTimers(rt, g, w.ev)
	err := web.Install(rt, web.Config{
		Stdout:       w.opts.Stdout,
		Stderr:       w.opts.Stderr,
		TimeOrigin:   w.timeOrigin,
		Report:       func(v goja.Value) { w.report(w.recordFromValue(ErrorUncaught, v)) },
		Console:      w.observeConsole,
		ConsoleWrite: w.opts.ConsoleWrite,
		Shared: sharedmem.RealmOptions{
			CanBlock:  true,
			Interrupt: w.terminating,
			Schedule:  w.RunOnLoop,
			// allocguard.go: sharedmem refuses the SharedArrayBuffer lengths the guard refuses
			MaxAllocation: MaxAllocationBytes,
		},
	})
	if err != nil {
		return err
	}
	if err := installAllocGuard(rt); err != nil { // allocguard.go
		return err
	}
	if err := installAPIGlobals(rt, w.realm); err != nil {
		return err
	}

	if w.dbg != nil {
		if err := w.dbg.Install(rt, workerTarget{w}); err != nil {
			return err
		}
	}

	if w.ext != nil {
		if err := w.ext.Setup(w, rt); err != nil {
			return fmt.Errorf("jsworker: setup of worker %d: %w", w.id, err)
		}
	}
	if w.opts.Setup != nil {
		if err := w.opts.Setup(w, rt); err != nil {
			return fmt.Errorf("jsworker: setup of worker %d: %w", w.id, err)
		}
	}
	return w.runProcessSetup(rt) // processsetup.go
}

// installWebGlobals defines the web worker's own globals: self, name, postMessage, close and the global's events
// (events.go).
func (w *Worker) installWebGlobals(g *goja.Object) error {
	g.Set("self", g)
	g.Set("name", w.name)
	w.defineFunc(g, "postMessage", 1, w.jsPostMessage)
	w.defineFunc(g, "close", 0, func(goja.FunctionCall) goja.Value {
		w.requestClose()
		return goja.Undefined()
	})
	return w.installEvents(g)
}

// defineFunc defines obj[name] as a native function of w's realm.
func (w *Worker) defineFunc(obj *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	jsutil.DefineFunc(w.rt, obj, name, length, fn)
}

// jsPostMessage is the worker's postMessage(value, transfer?): the value is
// cloned into a frame and pushed to the outbox. Every failure throws.
func (w *Worker) jsPostMessage(call goja.FunctionCall) goja.Value {
	transfer := w.transferList(call.Argument(1))
	if err := PostTo(w.outbox, w.rt, call.Argument(0), transfer); err != nil {
		panic(w.jsError("postMessage", err))
	}
	return goja.Undefined()
}

// transferList reads postMessage's second argument: an array of
// transferables, or an options object with a transfer array.
func (w *Worker) transferList(arg goja.Value) []goja.Value {
	if arg == nil || goja.IsUndefined(arg) || goja.IsNull(arg) {
		return nil
	}
	obj, ok := arg.(*goja.Object)
	if !ok {
		panic(w.rt.NewTypeError("postMessage: the transfer list must be an array or an options object"))
	}
	if obj.ClassName() != "Array" {
		t := obj.Get("transfer")
		if t == nil || goja.IsUndefined(t) {
			return nil
		}
		if obj, ok = t.(*goja.Object); !ok || obj.ClassName() != "Array" {
			panic(w.rt.NewTypeError("postMessage: options.transfer must be an array"))
		}
	}
	var list []goja.Value
	if err := w.rt.ExportTo(obj, &list); err != nil {
		panic(w.rt.NewTypeError("postMessage: bad transfer list: %v", err))
	}
	return list
}

// jsError converts a failure of a worker global into the value to throw:
// the exception itself when a getter threw, a DataCloneError, a RangeError
// for limits, and an Error for a closed channel.
func (w *Worker) jsError(op string, err error) goja.Value {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return ex.Value()
	}
	switch {
	case errors.Is(err, ErrQueueFull), errors.Is(err, ErrFrameTooLarge), errors.Is(err, ErrOutOfMemory):
		return w.newError(w.rangeErrorCtor(), "", op+": "+err.Error())
	case errors.Is(err, ErrClosed):
		return w.newError(w.errorClass(), "InvalidStateError", op+": "+err.Error())
	}
	return clone.JSError(w.rt, err)
}

// newError constructs an error with one of the realm's original error
// constructors (errorClass, rangeErrorCtor: goja's own, whatever user code
// has done to the globals) and, if name is not empty, gives it that name.
func (w *Worker) newError(ctor *goja.Object, name, msg string) *goja.Object {
	o, err := w.rt.New(ctor, w.rt.ToValue(msg))
	if err != nil {
		return w.rt.NewGoError(errors.New(msg))
	}
	if name != "" {
		o.Set("name", name)
	}
	return o
}
