package gojainternal

import (
	"errors"
	"runtime"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// Who is iterating. goja consumes an iterator in two ways: the VM steps it, one `next` call per turn of a for-of
// loop or a destructuring pattern, with the script's own instructions between two calls; or a Go loop of goja's
// (iteratorRecord.iterate: spread, Array.from, new Set/Map/WeakSet/WeakMap, Promise.all, TypedArray.from) calls
// `next` back to back and keeps every value in a Go slice or map that no measurement of the realm's graph can see
// until the loop returns. InGoIteration tells the second from the first, for the iterators' polls (core/iterstop.go):
// what such a loop has built so far counts toward the realm's memory. It reads the Go call stack (runtime.Callers)
// for goja's loop by its name, with no run of the VM between (a script's own `next` that calls the native one, or a
// for-of inside a Set's adder, is the VM's), confirmed once per process on a private runtime, in a goroutine of its
// own: true under a spread, false under a for-of. If that fails it always answers false (the loop's values go
// uncounted, as before).

const (
	goIterateFunc = "github.com/dop251/goja.(*iteratorRecord).iterate"
	goVMRunFunc   = "github.com/dop251/goja.(*vm).run"
)

// goIterateDepth is how many frames above the `next` function InGoIteration looks: between goja's loop and the
// native next there are goja's call wrappers and the caller's guard (a handful).
const goIterateDepth = 24

var goIteration struct {
	once sync.Once
	err  error
}

// GoIteration returns the error of the probe, nil when InGoIteration can be trusted.
func GoIteration() error {
	goIteration.once.Do(func() {
		done := make(chan error, 1)
		go func() { done <- verifyGoIteration() }() // not under a caller's own loop
		if err := <-done; err != nil {
			goIteration.err = probeError("iteration loop", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return goIteration.err
}

// InGoIteration reports whether the native function calling it runs under goja's Go iteration loop (above). Costs
// a walk of the Go stack (at most 2 µs, BenchmarkInGoIteration): for polls, not for every call.
func InGoIteration() bool {
	return GoIteration() == nil && inGoIteration()
}

func inGoIteration() bool {
	var pcs [goIterateDepth]uintptr
	n := runtime.Callers(2, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		switch f.Function {
		case goIterateFunc:
			return true
		case goVMRunFunc:
			return false
		}
		if !more {
			return false
		}
	}
}

// verifyGoIteration checks on a private runtime that a native `next` sees the loop under a spread, Array.from and
// new Set, and not under for-of, destructuring or a script's `next` calling it from a spread.
func verifyGoIteration() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = errors.New("panic while verifying")
		}
	}()
	rt := goja.New()
	var seen []string
	left := 0
	if err := rt.Set("next", func(goja.FunctionCall) goja.Value {
		if inGoIteration() {
			seen = append(seen, "loop")
		} else {
			seen = append(seen, "vm")
		}
		left--
		o := rt.NewObject()
		_ = o.Set("done", left < 0)
		_ = o.Set("value", left)
		return o
	}); err != nil {
		return err
	}
	if err := rt.Set("reset", func(n int) { left = n }); err != nil {
		return err
	}
	const src = `const it = { [Symbol.iterator]() { return this }, next };
		reset(1); [...it]; reset(1); Array.from(it); reset(1); new Set(it);
		reset(1); for (const x of it) {} reset(1); const [a, b] = it;
		reset(0); [...{ [Symbol.iterator]() { return this }, next() { return next() } }];`
	if _, err := rt.RunString(src); err != nil {
		return err
	}
	want := "loop,loop,loop,loop,loop,loop,vm,vm,vm,vm,vm"
	if got := strings.Join(seen, ","); got != want {
		return errors.New("a native next saw " + got + ", want " + want)
	}
	return nil
}
