package gojainternal

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
)

func TestInterrupted_FollowsInterruptAndClear(t *testing.T) {
	rt := goja.New()
	var seen []bool
	_ = rt.Set("probe", func() {
		v, ok := Interrupted(rt)
		if !ok {
			t.Fatal("the interrupt probe failed")
		}
		seen = append(seen, v)
	})
	if _, err := rt.RunString(`probe()`); err != nil {
		t.Fatal(err)
	}
	// Interrupted from inside a native call: the native sees the flag, goja does not until the call returns.
	_ = rt.Set("stop", func(call goja.FunctionCall) goja.Value {
		rt.Interrupt("stop")
		probe, _ := goja.AssertFunction(rt.Get("probe"))
		_, _ = probe(nil) // a Go call of a Go function: no instruction runs in between
		return nil
	})
	_, err := rt.RunString(`stop(); probe()`)
	var ie *goja.InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want an InterruptedError", err)
	}
	rt.ClearInterrupt()
	if _, err := rt.RunString(`probe()`); err != nil {
		t.Fatal(err)
	}
	if want := []bool{false, true, false}; len(seen) != len(want) || seen[0] != want[0] || seen[1] != want[1] || seen[2] != want[2] {
		t.Fatalf("seen = %v, want %v (the second probe after stop never runs)", seen, want)
	}
}

func TestInterrupted_FailsClosed(t *testing.T) {
	defer SimulateChange(errors.New("simulated"))()
	if _, ok := Interrupted(goja.New()); ok {
		t.Fatal("Interrupted answered although the probe failed")
	}
}
