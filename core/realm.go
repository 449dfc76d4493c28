package core

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/util"
	"github.com/jsworker/jsworker/clone"
)

// queueMicrotaskSrc makes the realm's queueMicrotask: the callback runs as a
// promise job, and what it throws is reported as an uncaught exception (as
// in browsers and Node), not as a rejection.
var queueMicrotaskSrc = goja.MustCompile("queueMicrotask.js", `(function (report) {
	return function queueMicrotask(callback) {
		if (typeof callback !== "function") {
			throw new TypeError("queueMicrotask: the callback must be a function");
		}
		Promise.resolve().then(function () {
			try { callback(); } catch (e) { report(e); }
		});
	};
})`, true)

// setupRealm installs the worker globals, then runs Options.Setup.
func (w *Worker) setupRealm() error {
	rt := w.rt
	size := w.opts.MaxCallStackSize
	if size <= 0 {
		size = DefaultMaxCallStackSize
	}
	rt.SetMaxCallStackSize(size)
	rt.SetPromiseRejectionTracker(w.trackRejection)

	w.timeOrigin = time.Now()
	w.clock = time.NewTimer(time.Hour)
	w.clock.Stop()
	w.timerByID = make(map[int64]*timer)

	g := rt.GlobalObject()
	w.global = g
	w.errorCtor = g.Get("Error").(*goja.Object)
	w.rangeError = g.Get("RangeError").(*goja.Object)
	g.Set("self", g)
	g.Set("name", w.name)
	w.defineFunc(g, "postMessage", 1, w.jsPostMessage)
	w.defineFunc(g, "close", 0, func(goja.FunctionCall) goja.Value {
		w.requestClose()
		return goja.Undefined()
	})
	if err := w.installEvents(g); err != nil {
		return err
	}
	w.installTimers(g)
	w.installConsole(g)

	perf := rt.NewObject()
	perf.Set("timeOrigin", float64(w.timeOrigin.UnixNano())/1e6)
	w.defineFunc(perf, "now", 0, func(goja.FunctionCall) goja.Value {
		return rt.ToValue(float64(time.Since(w.timeOrigin).Nanoseconds()) / 1e6)
	})
	g.Set("performance", perf)

	report := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		w.report(w.recordFromValue(ErrorUncaught, call.Argument(0)))
		return goja.Undefined()
	})
	qm, err := runFactory(rt, queueMicrotaskSrc, report)
	if err != nil {
		return err
	}
	g.Set("queueMicrotask", qm)

	if w.opts.Setup != nil {
		if err := w.opts.Setup(w, rt); err != nil {
			return fmt.Errorf("jsworker: setup of worker %d: %w", w.id, err)
		}
	}
	return nil
}

// runFactory runs a precompiled program that evaluates to a function, and
// calls that function with args.
func runFactory(rt *goja.Runtime, prg *goja.Program, args ...goja.Value) (goja.Value, error) {
	mk, err := rt.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	factory, ok := goja.AssertFunction(mk)
	if !ok {
		return nil, errors.New("jsworker: realm factory is not a function")
	}
	return factory(goja.Undefined(), args...)
}

// defineFunc defines obj[name] as a native function whose JavaScript name
// and length are the given ones (goja would otherwise name it after the Go
// function).
func (w *Worker) defineFunc(obj *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	f := w.rt.ToValue(fn).(*goja.Object)
	f.DefineDataProperty("name", w.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	f.DefineDataProperty("length", w.rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	obj.Set(name, f)
}

// jsPostMessage is the worker's postMessage(value, transfer?): the value is
// cloned into a frame and pushed to the outbox. Every failure throws.
func (w *Worker) jsPostMessage(call goja.FunctionCall) goja.Value {
	transfer := w.transferList(call.Argument(1))
	f, err := clone.Serialize(w.rt, call.Argument(0), clone.Options{MaxBytes: w.outbox.limits.MaxFrameBytes, Transfer: transfer})
	if err == nil {
		err = w.outbox.Push(f)
	}
	if err != nil {
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
		return w.newError(w.rangeError, "", op+": "+err.Error())
	case errors.Is(err, ErrClosed):
		return w.newError(w.errorCtor, "InvalidStateError", op+": "+err.Error())
	}
	return clone.JSError(w.rt, err)
}

// newError constructs an error with one of the realm's original error
// constructors (captured before user code could replace them) and, if name
// is not empty, gives it that name.
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

// installTimers defines setTimeout, setInterval, setImmediate and their
// clear functions. IDs are positive integers shared by all three kinds.
func (w *Worker) installTimers(g *goja.Object) {
	add := func(name string, repeat bool) {
		w.defineFunc(g, name, 1, func(call goja.FunctionCall) goja.Value {
			fn := w.callback(name, call.Argument(0))
			t := w.newTimer(fn, extraArgs(call.Arguments, 2))
			delay := timerDelay(call.Argument(1))
			if repeat {
				t.every = max(delay, time.Millisecond)
			}
			w.schedule(t, delay)
			return w.rt.ToValue(t.id)
		})
	}
	add("setTimeout", false)
	add("setInterval", true)
	w.defineFunc(g, "setImmediate", 1, func(call goja.FunctionCall) goja.Value {
		t := w.newTimer(w.callback("setImmediate", call.Argument(0)), extraArgs(call.Arguments, 1))
		w.immediates = append(w.immediates, t)
		return w.rt.ToValue(t.id)
	})
	clear := func(call goja.FunctionCall) goja.Value {
		if id := call.Argument(0).ToFloat(); id > 0 && id == math.Trunc(id) {
			w.clearTimer(int64(id))
		}
		return goja.Undefined()
	}
	for _, name := range []string{"clearTimeout", "clearInterval", "clearImmediate"} {
		w.defineFunc(g, name, 1, clear)
	}
}

func (w *Worker) callback(fname string, v goja.Value) goja.Callable {
	fn, ok := goja.AssertFunction(v)
	if !ok {
		panic(w.rt.NewTypeError("%s: the callback must be a function", fname))
	}
	return fn
}

func extraArgs(args []goja.Value, from int) []goja.Value {
	if len(args) <= from {
		return nil
	}
	return append([]goja.Value(nil), args[from:]...)
}

// timerDelay converts a JavaScript delay in milliseconds the way browsers
// do: NaN, negative and out-of-range (over 2^31-1 ms) delays become 0.
func timerDelay(v goja.Value) time.Duration {
	ms := v.ToFloat()
	if math.IsNaN(ms) || ms < 0 || ms > math.MaxInt32 {
		return 0
	}
	return time.Duration(ms * float64(time.Millisecond))
}

// installConsole defines console.log/info/debug (to Stdout) and
// console.warn/error (to Stderr), formatted like Node's util.format.
func (w *Worker) installConsole(g *goja.Object) {
	var stdout, stderr io.Writer = os.Stdout, os.Stderr
	if w.opts.Stdout != nil {
		stdout = w.opts.Stdout
	}
	if w.opts.Stderr != nil {
		stderr = w.opts.Stderr
	}
	u := util.New(w.rt)
	printer := func(out io.Writer) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			var b bytes.Buffer
			var format string
			var args []goja.Value
			if len(call.Arguments) > 0 {
				format, args = call.Arguments[0].String(), call.Arguments[1:]
			}
			u.Format(&b, format, args...)
			b.WriteByte('\n')
			out.Write(b.Bytes())
			return goja.Undefined()
		}
	}
	console := w.rt.NewObject()
	for _, name := range []string{"log", "info", "debug"} {
		w.defineFunc(console, name, 0, printer(stdout))
	}
	for _, name := range []string{"warn", "error"} {
		w.defineFunc(console, name, 0, printer(stderr))
	}
	g.Set("console", console)
}
