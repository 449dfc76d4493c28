package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

// TestProbeRuntime_LeftPlain: after every probe has run, the probes' shared runtime has the global object of a fresh
// runtime (no probe left a binding behind), which LazyGuard's verification relies on when it compares with it.
func TestProbeRuntime_LeftPlain(t *testing.T) {
	if err := Verify(); err != nil {
		t.Fatal(err)
	}
	for _, probe := range []func() error{LazyGuard, Kinds, TypedArrays, loadBuild, loadArrays, loadNames} {
		if err := probe(); err != nil {
			t.Fatal(err)
		}
	}
	const keys = `Reflect.ownKeys(globalThis).map(String).join()`
	var got string
	if err := withProbeRuntime(func(rt *goja.Runtime) error {
		got = runProgram(rt, goja.MustCompile("keys.js", keys, false))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want := runProgram(goja.New(), goja.MustCompile("keys.js", keys, false)); got != want || got == "" || got[:6] == "error:" {
		t.Errorf("the shared runtime's globals: %s\nwant %s", got, want)
	}
}

// TestProbeRuntime_Taken: a probe that finds the shared runtime in use gets another one, and a panic is an error.
func TestProbeRuntime_Taken(t *testing.T) {
	var outer, inner *goja.Runtime
	err := withProbeRuntime(func(rt *goja.Runtime) error {
		outer = rt
		return withProbeRuntime(func(rt *goja.Runtime) error {
			inner = rt
			return nil
		})
	})
	if err != nil || outer == nil || inner == nil || outer == inner {
		t.Fatalf("nested probes: %v, %p, %p", err, outer, inner)
	}
	if err := withProbeRuntime(func(*goja.Runtime) error { panic("probe") }); err == nil {
		t.Fatal("a panicking probe reported no error")
	}
	var after *goja.Runtime
	_ = withProbeRuntime(func(rt *goja.Runtime) error { after = rt; return nil })
	if after == nil || after == outer {
		t.Error("the runtime of a probe that panicked was kept")
	}
}
