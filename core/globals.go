package core

import (
	"bytes"
	"errors"
	"io"
	"os"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/util"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/sharedmem"
)

// globalsConfig says where a realm's standard globals send their output.
type globalsConfig struct {
	stdout, stderr io.Writer                             // nil: os.Stdout, os.Stderr
	timeOrigin     time.Time                             // performance.now() counts from here
	report         func(goja.Value)                      // receives what a queueMicrotask callback throws
	console        func(level string, args []goja.Value) // observes console calls; may be nil
	shared         sharedmem.RealmOptions                // how Atomics may block and settle waitAsync
	js             func() *jsRealm                       // the realm's Worker/MessageChannel state, made on first use; nil: none
}

// installStandardGlobals defines the globals every realm has, worker or
// host: console, performance, queueMicrotask, SharedArrayBuffer, Atomics
// and structuredClone.
func installStandardGlobals(rt *goja.Runtime, c globalsConfig) error {
	g := rt.GlobalObject()
	installConsole(rt, g, c.stdout, c.stderr, c.console)

	perf := rt.NewObject()
	perf.Set("timeOrigin", float64(c.timeOrigin.UnixNano())/1e6)
	defineFunc(rt, perf, "now", 0, func(goja.FunctionCall) goja.Value {
		return rt.ToValue(float64(time.Since(c.timeOrigin).Nanoseconds()) / 1e6)
	})
	g.Set("performance", perf)

	report := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		c.report(call.Argument(0))
		return goja.Undefined()
	})
	qm, err := runFactory(rt, queueMicrotaskSrc, report)
	if err != nil {
		return err
	}
	g.Set("queueMicrotask", qm)
	if err := sharedmem.Install(rt, c.shared); err != nil {
		return err
	}
	if err := installURLGlobals(rt); err != nil { // url.go
		return err
	}
	if err := installTextGlobals(rt); err != nil { // textcodec.go
		return err
	}
	if c.js != nil {
		if err := installWorkerGlobals(rt, c.js); err != nil { // jsworker_globals.go
			return err
		}
	}
	return clone.InstallStructuredClone(rt)
}

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
func defineFunc(rt *goja.Runtime, obj *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	f := rt.ToValue(fn).(*goja.Object)
	// goja's order is writable, configurable, enumerable: a function's name
	// and length are read-only, configurable and not enumerable.
	f.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	f.DefineDataProperty("length", rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	obj.Set(name, f)
}

// installConsole defines console.log/info/debug (to stdout) and
// console.warn/error (to stderr), formatted like Node's util.format. Each
// call is also passed to observe, if not nil, with its level ("log", "info",
// "debug", "warn", "error") and arguments.
func installConsole(rt *goja.Runtime, g *goja.Object, stdout, stderr io.Writer, observe func(string, []goja.Value)) {
	if stdout == nil {
		stdout = os.Stdout
	}
	if stderr == nil {
		stderr = os.Stderr
	}
	u := util.New(rt)
	printer := func(level string, out io.Writer) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			if observe != nil {
				observe(level, call.Arguments)
			}
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
	console := rt.NewObject()
	for _, name := range []string{"log", "info", "debug"} {
		defineFunc(rt, console, name, 0, printer(name, stdout))
	}
	for _, name := range []string{"warn", "error"} {
		defineFunc(rt, console, name, 0, printer(name, stderr))
	}
	g.Set("console", console)
}
