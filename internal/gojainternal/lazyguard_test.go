package gojainternal

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
)

// TestLazyGuard: the probe finds and verifies goja's templates and native function fields (verifyLazy).
func TestLazyGuard(t *testing.T) {
	if err := LazyGuard(); err != nil {
		t.Fatal(err)
	}
}

// TestLazyGuard_FailsClosed: with the internals "changed", every function answers false and changes nothing.
func TestLazyGuard_FailsClosed(t *testing.T) {
	rt := goja.New()
	g := rt.GlobalObject()
	restore := SimulateChange(errors.New("test"))
	defer restore()
	if LazyGuard() == nil {
		t.Fatal("LazyGuard ignores a simulated change")
	}
	if _, err := DeriveTemplate(g, nil); err == nil {
		t.Error("DeriveTemplate works after a change")
	}
	ab := g.Get("ArrayBuffer").(*goja.Object)
	if GuardConstruct(ab, func([]goja.Value) { panic("no") }) || GuardCall(ab, nil) {
		t.Error("guarding works after a change")
	}
	if _, ok := TemplateValue(rt, g, "ArrayBuffer"); ok {
		t.Error("TemplateValue works after a change")
	}
	if v, err := rt.RunString(`new ArrayBuffer(8).byteLength`); err != nil || v.ToInteger() != 8 {
		t.Errorf("ArrayBuffer: %v, %v", v, err)
	}
}

// TestGuardConstruct_NotNative: a script function or a non-constructor is refused; guarding twice keeps one check.
func TestGuardConstruct_NotNative(t *testing.T) {
	rt := goja.New()
	fn, _ := rt.RunString(`(function F() {})`)
	if GuardConstruct(fn.(*goja.Object), func([]goja.Value) {}) {
		t.Error("a script function was guarded")
	}
	parse := rt.GlobalObject().Get("parseInt").(*goja.Object) // a native function that is not a constructor
	if GuardConstruct(parse, func([]goja.Value) {}) {
		t.Error("parseInt was guarded as a constructor")
	}
	ab := rt.GlobalObject().Get("ArrayBuffer").(*goja.Object)
	n := 0
	for range 2 {
		if !GuardConstruct(ab, func([]goja.Value) { n++ }) {
			t.Fatal("ArrayBuffer cannot be guarded")
		}
	}
	if _, err := rt.RunString(`new ArrayBuffer(1)`); err != nil || n != 1 {
		t.Errorf("checks run: %d, %v", n, err)
	}
}

// TestTemplate_Install: a derived template goes only on an object holding its base, reports what was materialized
// before, and installing twice does nothing.
func TestTemplate_Install(t *testing.T) {
	rt := goja.New()
	g := rt.GlobalObject()
	tmpl, err := DeriveTemplate(goja.New().GlobalObject(), map[string]func(*goja.Runtime, goja.Value){
		"Float64Array": func(*goja.Runtime, goja.Value) {}, "Int8Array": func(*goja.Runtime, goja.Value) {},
	})
	if err != nil {
		t.Fatal(err)
	}
	g.Get("Int8Array")
	if m, ok := tmpl.Install(g); !ok || len(m) != 1 || m[0] != "Int8Array" {
		t.Errorf("Install: %v, %v", m, ok)
	}
	if m, ok := tmpl.Install(g); !ok || m != nil {
		t.Errorf("second Install: %v, %v", m, ok)
	}
	if _, ok := tmpl.Install(rt.NewArray().Prototype()); ok {
		t.Error("installed on Array.prototype")
	}
	if _, ok := tmpl.Install(rt.NewObject()); ok {
		t.Error("installed on a plain object")
	}
}

// TestReplaceConstruct: new goes through the replacement with new.target, calls do not, replacing twice keeps one
// replacement, and a script function or a non-constructor is refused.
func TestReplaceConstruct(t *testing.T) {
	rt := goja.New()
	m := rt.GlobalObject().Get("Map").(*goja.Object)
	n := 0
	for range 2 {
		if !ReplaceConstruct(m, func(orig ConstructFunc, args []goja.Value, nt *goja.Object) *goja.Object {
			n++
			if nt != nil && nt != m {
				o := orig(args, nt)
				o.Set("sub", true)
				return o
			}
			return orig(args, nt)
		}) {
			t.Fatal("Map cannot be replaced")
		}
	}
	v, err := rt.RunString(`class M extends Map {}; var a = new Map([[1, 2]]), b = new M();
		a.get(1) === 2 && a instanceof Map && !a.sub && b.sub === true && b instanceof M && Map.prototype.constructor === Map`)
	if err != nil || !v.ToBoolean() || n != 2 {
		t.Fatalf("got %v, %v after %d constructions", v, err, n)
	}
	fn, _ := rt.RunString(`(function F() {})`)
	parse := rt.GlobalObject().Get("parseInt").(*goja.Object)
	if ReplaceConstruct(fn.(*goja.Object), nil) || ReplaceConstruct(parse, nil) {
		t.Error("a script function or parseInt was replaced")
	}
	restore := SimulateChange(errors.New("test"))
	defer restore()
	if ReplaceConstruct(rt.GlobalObject().Get("Set").(*goja.Object), nil) {
		t.Error("ReplaceConstruct works after a change")
	}
}

// TestLazyGuard_DetectsDifference: the verification compares the guarded runtime with the plain reference, so a
// reference that differs (a global the guarded runtime does not have) fails it.
func TestLazyGuard_DetectsDifference(t *testing.T) {
	if err := LazyGuard(); err != nil {
		t.Fatal(err)
	}
	c, err := lazyChecks()
	if err != nil {
		t.Fatal(err)
	}
	if err := verifyLazyOn(goja.New(), c); err != nil {
		t.Fatalf("a fresh reference: %v", err)
	}
	changed := goja.New()
	if _, err := changed.RunString(`globalThis.extra = 1`); err != nil {
		t.Fatal(err)
	}
	if err := verifyLazyOn(changed, c); err == nil {
		t.Error("a reference with another global passes")
	}
}
