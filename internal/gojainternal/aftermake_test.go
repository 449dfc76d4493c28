package gojainternal

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
)

// TestAfterMake_ArrayPrototype: a hook on a method of Array.prototype (a templated array) runs once, when goja makes
// the method, and survives a derived template installed afterwards (what core's allocation guard does), running after
// that template's own hook.
func TestAfterMake_ArrayPrototype(t *testing.T) {
	rt := goja.New()
	proto := rt.NewArray().Prototype()
	var order []string
	h := NewAfterMake(func(r *goja.Runtime, name string, v goja.Value) {
		if r != rt || v == nil {
			t.Errorf("hook of %s: runtime %p, value %v", name, r, v)
		}
		order = append(order, "after:"+name)
	})
	if !Pending(proto, "join") || !AfterMake(proto, h, "join") || !AfterMake(proto, h, "toString") {
		t.Fatal("AfterMake refused Array.prototype")
	}
	if !AfterMake(proto, h, "join") { // still pending: a second hook is accepted, and runs after the first
		t.Fatal("AfterMake refused a second hook")
	}
	tmpl, err := DeriveTemplate(goja.New().NewArray().Prototype(), map[string]func(*goja.Runtime, goja.Value){
		"join": func(*goja.Runtime, goja.Value) { order = append(order, "template:join") },
	})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := tmpl.Install(proto); !ok || len(m) != 0 {
		t.Fatalf("Install over AfterMake: %v, %v", m, ok)
	}
	if got := run(rt, `Object.getOwnPropertyNames(Array.prototype).length === Object.getOwnPropertyNames([].__proto__).length`); got != "true" || len(order) != 0 {
		t.Fatalf("listing names: %s, hooks %v", got, order)
	}
	if got := run(rt, `[1, [2, 3]].join("-") + String([4, 5]) + (Array.prototype.join === [].join)`); got != "1-2,34,5true" {
		t.Errorf("got %q", got)
	}
	want := []string{"template:join", "after:join", "after:join", "after:toString"}
	if len(order) != len(want) {
		t.Fatalf("hooks ran %v, want %v", order, want)
	}
	for i := range want {
		if order[i] != want[i] {
			t.Fatalf("hooks ran %v, want %v", order, want)
		}
	}
	if Pending(proto, "join") || !Pending(proto, "map") {
		t.Error("Pending after the make")
	}
}

// TestAfterMake_Refuses: a name already made, a name the template lacks, an object that is not templated, and any
// object after a simulated change.
func TestAfterMake_Refuses(t *testing.T) {
	rt := goja.New()
	h := NewAfterMake(func(*goja.Runtime, string, goja.Value) { t.Error("hook ran") })
	g := rt.GlobalObject()
	g.Get("JSON")
	if AfterMake(g, h, "JSON") || AfterMake(g, h, "nonesuch") || AfterMake(rt.NewObject(), h, "x") {
		t.Error("AfterMake accepted a made name, a missing name or a plain object")
	}
	restore := SimulateChange(errors.New("test"))
	defer restore()
	if AfterMake(g, h, "Map") || Pending(g, "Map") || TemplateHas(g, "Map") {
		t.Error("AfterMake, Pending or TemplateHas work after a change")
	}
}

// TestTemplateHas: it finds goja's constructors without making them.
func TestTemplateHas(t *testing.T) {
	rt := goja.New()
	g := rt.GlobalObject()
	if !TemplateHas(g, "RangeError") || !Pending(g, "RangeError") {
		t.Fatal("TemplateHas or Pending do not find RangeError")
	}
	if TemplateHas(g, "nonesuch") || TemplateHas(rt.NewObject(), "RangeError") {
		t.Error("TemplateHas finds what is not there")
	}
	if v, ok := TemplateValue(rt, g, "RangeError"); !ok || v != g.Get("RangeError") {
		t.Error("TemplateValue does not find RangeError")
	}
	if !TemplateHas(g, "RangeError") {
		t.Error("TemplateHas forgets a made constructor")
	}
}

// TestGuardCallOver: a guard over GuardCall's sees every call first; GuardCall over it guards again; GuardCallOver
// twice keeps one; a script function is refused.
func TestGuardCallOver(t *testing.T) {
	rt := goja.New()
	join := rt.NewArray().Prototype().Get("join").(*goja.Object)
	var order []string
	guard := func(tag string) func(CallFunc, goja.FunctionCall) goja.Value {
		return func(orig CallFunc, call goja.FunctionCall) goja.Value {
			order = append(order, tag)
			return orig(call)
		}
	}
	if !GuardCall(join, guard("call")) || !GuardCallOver(join, guard("over")) || !GuardCallOver(join, guard("over2")) ||
		!GuardCall(join, guard("call2")) {
		t.Fatal("refused")
	}
	if got := run(rt, `[1, 2].join("+")`); got != "1+2" {
		t.Fatalf("got %q", got)
	}
	if want := "call2,over,call"; len(order) != 3 || order[0]+","+order[1]+","+order[2] != want {
		t.Errorf("guards ran %v, want %s", order, want)
	}
	fn, _ := rt.RunString(`(function F() {})`)
	if GuardCallOver(fn.(*goja.Object), guard("x")) {
		t.Error("a script function was guarded")
	}
}
