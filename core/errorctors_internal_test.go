package core

import (
	"testing"

	"github.com/dop251/goja"
)

// TestErrorCtors_Fallback: where the global object is not templated, the constructors are read at setup
// (takeErrorCtors) and kept whatever the object holds later.
func TestErrorCtors_Fallback(t *testing.T) {
	rt := goja.New()
	w := &Worker{rt: rt}
	g := rt.NewObject()
	errCtor, rangeCtor := rt.Get("Error").(*goja.Object), rt.Get("RangeError").(*goja.Object)
	_ = g.Set("Error", errCtor)
	_ = g.Set("RangeError", rangeCtor)
	w.takeErrorCtors(g)
	_ = g.Set("Error", rt.NewObject())
	_ = g.Set("RangeError", rt.NewObject())
	if w.errorClass() != errCtor || w.rangeErrorCtor() != rangeCtor {
		t.Fatalf("errorClass, rangeErrorCtor = %v, %v; want the constructors read at setup", w.errorClass(), w.rangeErrorCtor())
	}
	e := w.newError(w.rangeErrorCtor(), "", "m")
	if e.Get("name").String() != "RangeError" || e.Get("message").String() != "m" {
		t.Errorf("newError: %v %v", e.Get("name"), e.Get("message"))
	}
}
