package web

import (
	"math"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/internal/loop"
)

// InstallTimers defines setTimeout, setInterval, setImmediate and their
// clear functions on g, backed by l: the callbacks run in l's timer and
// immediate phases, with this undefined and the extra arguments given at
// creation. IDs are positive integers shared by the three kinds, so each
// clear function clears any of them, as in browsers and unlike Node (whose
// ids are objects). Delays follow browsers: NaN, negative and out-of-range
// (over 2^31-1 ms) delays become 0; an interval is at least 1 ms. Call it on
// the goroutine that owns rt and l.
func InstallTimers(rt *goja.Runtime, g *goja.Object, l *loop.Loop) {
	callback := func(name string, call goja.FunctionCall, extraFrom int) func() error {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(rt.NewTypeError("%s: the callback must be a function", name))
		}
		args := extraArgs(call.Arguments, extraFrom)
		run := func() error {
			_, err := fn(goja.Undefined(), args...)
			return err
		}
		// Where the callback was scheduled, for a debugger's async stack traces (nil, at the cost of one
		// lookup, unless a session asked for them).
		if task := inspector.AsyncScheduled(rt, name); task != nil {
			return func() error { return inspector.AsyncRun(rt, task, run) }
		}
		return run
	}
	jsutil.DefineFunc(rt, g, "setTimeout", 1, func(call goja.FunctionCall) goja.Value {
		fn := callback("setTimeout", call, 2)
		return rt.ToValue(l.SetTimeout(fn, timerDelay(call.Argument(1))))
	})
	jsutil.DefineFunc(rt, g, "setInterval", 1, func(call goja.FunctionCall) goja.Value {
		fn := callback("setInterval", call, 2)
		return rt.ToValue(l.SetInterval(fn, timerDelay(call.Argument(1))))
	})
	jsutil.DefineFunc(rt, g, "setImmediate", 1, func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(l.SetImmediate(callback("setImmediate", call, 1)))
	})
	clear := func(call goja.FunctionCall) goja.Value {
		if id := call.Argument(0).ToFloat(); id > 0 && id == math.Trunc(id) && id <= math.MaxInt64 {
			l.Clear(int64(id))
		}
		return goja.Undefined()
	}
	for _, name := range []string{"clearTimeout", "clearInterval", "clearImmediate"} {
		jsutil.DefineFunc(rt, g, name, 1, clear)
	}
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
