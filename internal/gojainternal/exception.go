package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// Making an exception with a given stack.
//
// goja gives a thrown value that is not an Error object the stack of the
// instruction that throws it, so a catch clause that rethrows such a value
// (`catch (e) { throw e }`) moves its reported position to the rethrow. The
// inspector's instrumentation wraps every function body and every top-level
// statement in such a clause (to see exceptions leave), and a native function
// that panics with a *goja.Exception has goja pass it on unchanged: NewException
// makes that exception, with the stack of the original throw, so that an
// instrumented program reports its `throw 1` where a plain one does. goja has
// no constructor for Exception; its two fields, val and stack, are found by
// name and type with reflect once and checked on an exception goja made.

var exception struct {
	once          sync.Once
	err           error
	offVal, offSt uintptr
}

// Exceptions returns the error of the exception probe, nil when NewException
// can be used.
func Exceptions() error {
	exception.once.Do(func() {
		if err := probeException(); err != nil {
			exception.err = probeError("exceptions", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return exception.err
}

func probeException() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	t := reflect.TypeFor[goja.Exception]()
	if t.NumField() != 2 {
		return fmt.Errorf("goja.Exception has %d fields, want 2", t.NumField())
	}
	if exception.offVal, err = directField(t, "val", reflect.TypeFor[goja.Value]()); err != nil {
		return err
	}
	if exception.offSt, err = directField(t, "stack", reflect.TypeFor[[]goja.StackFrame]()); err != nil {
		return err
	}
	rt := goja.New()
	_, thrown := rt.RunString("function f() { throw 7 }\nf()")
	var orig *goja.Exception
	if !errors.As(thrown, &orig) || len(orig.Stack()) != 2 {
		return errors.New("a sample throw did not give an exception with two frames")
	}
	v := rt.ToValue(8)
	ex := makeException(v, orig.Stack())
	if ex.Value() != v || ex.Error() != replaceValue(orig.Error(), "7", "8") {
		return fmt.Errorf("a made exception reads %q (value %v)", ex.Error(), ex.Value())
	}
	// goja passes it on unchanged when a native function panics with it.
	_ = rt.Set("rethrow", func(goja.FunctionCall) goja.Value { panic(ex) })
	_, again := rt.RunString("try { rethrow() } catch (e) { if (e !== 8) throw 0 }\nrethrow()")
	var got *goja.Exception
	if !errors.As(again, &got) || got != ex {
		return fmt.Errorf("a made exception did not pass through goja unchanged: %v", again)
	}
	return nil
}

func replaceValue(s, from, to string) string {
	if len(s) >= len(from) && s[:len(from)] == from {
		return to + s[len(from):]
	}
	return s
}

func makeException(v goja.Value, stack []goja.StackFrame) *goja.Exception {
	ex := new(goja.Exception)
	*(*goja.Value)(unsafe.Add(unsafe.Pointer(ex), exception.offVal)) = v
	*(*[]goja.StackFrame)(unsafe.Add(unsafe.Pointer(ex), exception.offSt)) = stack
	return ex
}

// NewException returns an exception of v with stack (as CaptureCallStack
// returns it), or nil when the probe failed. A native function that panics
// with it throws v with that stack.
func NewException(v goja.Value, stack []goja.StackFrame) *goja.Exception {
	if Exceptions() != nil {
		return nil
	}
	return makeException(v, stack)
}
