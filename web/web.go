package web

import (
	_ "embed"
	"io"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/sharedmem"
)

// Config says where a realm's standard globals send their output and how they reach the realm's owner.
type Config struct {
	Stdout, Stderr io.Writer                             // console output; nil: os.Stdout, os.Stderr
	TimeOrigin     time.Time                             // performance.now() counts from here
	Report         func(goja.Value)                      // receives what a queueMicrotask callback throws
	Console        func(level string, args []goja.Value) // observes console calls before they print; may be nil
	Shared         sharedmem.RealmOptions                // how Atomics may block and settle waitAsync

	// ConsoleWrite, if not nil, is offered every line the console prints, first: level is "log", "info",
	// "debug", "warn" or "error" and line is exactly what would be written, without its trailing newline. When it
	// returns true the line is not written to Stdout or Stderr. It runs on the realm's goroutine.
	ConsoleWrite func(level, line string) bool
}

// Install defines the standard globals every realm has, worker or host: console, performance, queueMicrotask,
// SharedArrayBuffer, Atomics, URL, URLSearchParams, TextEncoder, TextDecoder and structuredClone. Timers are
// installed apart (InstallTimers), over the realm's loop. It runs on the realm's goroutine.
func Install(rt *goja.Runtime, c Config) error {
	g := rt.GlobalObject()
	installAsyncIterator(rt, g)
	if err := installConsole(rt, g, c); err != nil {
		return err
	}

	// performance and queueMicrotask are made when a script first touches them (jsutil.DefineLazyValue).
	if err := jsutil.DefineLazyValue(rt, "performance", true, func() goja.Value {
		perf := rt.NewObject()
		_ = perf.Set("timeOrigin", float64(c.TimeOrigin.UnixNano())/1e6)
		jsutil.DefineFunc(rt, perf, "now", 0, func(goja.FunctionCall) goja.Value {
			return rt.ToValue(float64(time.Since(c.TimeOrigin).Nanoseconds()) / 1e6)
		})
		return perf
	}); err != nil {
		return err
	}
	if err := jsutil.DefineLazyValue(rt, "queueMicrotask", true, func() goja.Value {
		report := rt.ToValue(func(call goja.FunctionCall) goja.Value {
			c.Report(call.Argument(0))
			return goja.Undefined()
		})
		qm, err := microtaskSource.Call(rt, report) // the library's own source: it only makes the function
		if err != nil {
			panic(err)
		}
		return qm
	}); err != nil {
		return err
	}
	if err := sharedmem.Install(rt, c.Shared); err != nil {
		return err
	}
	if err := installURLGlobals(rt); err != nil {
		return err
	}
	if err := installTextGlobals(rt); err != nil {
		return err
	}
	return clone.InstallStructuredClone(rt)
}

// installAsyncIterator defines Symbol.asyncIterator, which goja lacks, as a well-known symbol (non-writable,
// non-enumerable, non-configurable): async iterables written as [Symbol.asyncIterator]() { … } (events.on, timers'
// setInterval, a program's own) and the for await loops and async generators esbuild lowers (its helpers look the
// symbol up at run time) then agree on one key, where both would otherwise use a different stand-in.
//
// A realm that has not made its Symbol constructor yet gets the symbol when it does (gojainternal.AfterMake), so
// that one that never touches Symbol never makes it.
func installAsyncIterator(rt *goja.Runtime, g *goja.Object) {
	if gojainternal.AfterMake(g, asyncIteratorHook, "Symbol") {
		return
	}
	addAsyncIterator(g.Get("Symbol"))
}

// asyncIteratorHook adds Symbol.asyncIterator to a realm's Symbol constructor as it is made.
var asyncIteratorHook = gojainternal.NewAfterMake(func(_ *goja.Runtime, _ string, v goja.Value) { addAsyncIterator(v) })

// addAsyncIterator defines sym.asyncIterator unless sym has one.
func addAsyncIterator(v goja.Value) {
	sym, ok := v.(*goja.Object)
	if !ok || sym.Get("asyncIterator") != nil && !goja.IsUndefined(sym.Get("asyncIterator")) {
		return
	}
	_ = sym.DefineDataProperty("asyncIterator", goja.NewSymbol("Symbol.asyncIterator"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
}

//go:embed js/queuemicrotask.js
var microtaskJS string

// microtaskSource makes a realm's queueMicrotask.
var microtaskSource = jsutil.NewSource("jsworker:queueMicrotask", microtaskJS)
