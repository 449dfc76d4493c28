package gojainternal

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// An exception made with the stack captured where a value was first thrown keeps that position when a native
// function rethrows it from elsewhere.
func TestNewException_KeepsTheStack(t *testing.T) {
	if err := Exceptions(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	var saved []goja.StackFrame
	_ = rt.Set("save", func(call goja.FunctionCall) goja.Value {
		saved = rt.CaptureCallStack(0, nil)[1:] // without this native function's own frame
		return call.Argument(0)
	})
	_ = rt.Set("rethrow", func(call goja.FunctionCall) goja.Value {
		panic(NewException(call.Argument(0), saved))
	})
	_, err := rt.RunString("function f() {\n  throw save(1)\n}\ntry { f() } catch (e) { rethrow(e) }")
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("err = %v", err)
	}
	var at []string
	for _, f := range ex.Stack() {
		at = append(at, f.FuncName()+" "+f.Position().String())
	}
	if got, want := strings.Join(at, ", "), "f 2:13, <anonymous> 4:8"; got != want {
		t.Fatalf("rethrown at %q, want %q", got, want)
	}
}

func TestNewException_FailsClosed(t *testing.T) {
	defer SimulateChange(errors.New("test"))()
	if NewException(goja.Undefined(), nil) != nil {
		t.Fatal("NewException made an exception with the probe failed")
	}
}
