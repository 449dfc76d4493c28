package core

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// The worker's own error constructors.
//
// A worker throws and reports some errors of its own (a full queue, a closed port, importScripts, a module graph that
// fails) with the realm's original Error and RangeError: goja's own constructors, whatever a script or Options.Setup
// has since put in the globals. setupRealm used to read both globals before any other setup ran, which made goja
// build both constructors and their prototypes (~4 KiB) in every realm, used or not. Where goja's global template can
// be read, a worker looks them up when it first needs one (gojainternal.TemplateValue: the object goja makes once per
// runtime, the same one the globals held at setup); where it cannot, they are read at setup, as before.

// takeErrorCtors reads the Error and RangeError globals of g, the worker's global object, now, unless the global
// template can give goja's own later (errorClass, rangeErrorCtor). It runs in setupRealm before the globals can have
// been replaced.
func (w *Worker) takeErrorCtors(g *goja.Object) {
	if gojainternal.TemplateHas(g, "Error") && gojainternal.TemplateHas(g, "RangeError") {
		return
	}
	w.errorCtor = g.Get("Error").(*goja.Object)
	w.rangeError = g.Get("RangeError").(*goja.Object)
}

// errorClass is the realm's original Error constructor. Only on the worker's goroutine.
func (w *Worker) errorClass() *goja.Object {
	if w.errorCtor == nil {
		w.errorCtor = builtinCtor(w.rt, "Error")
	}
	return w.errorCtor
}

// rangeErrorCtor is the realm's original RangeError constructor. Only on the worker's goroutine.
func (w *Worker) rangeErrorCtor() *goja.Object {
	if w.rangeError == nil {
		w.rangeError = builtinCtor(w.rt, "RangeError")
	}
	return w.rangeError
}

// builtinCtor is goja's own constructor name of rt, from the global object's template (takeErrorCtors checked that
// the template has it).
func builtinCtor(rt *goja.Runtime, name string) *goja.Object {
	v, _ := gojainternal.TemplateValue(rt, rt.GlobalObject(), name)
	o, ok := v.(*goja.Object)
	if !ok {
		panic(rt.NewTypeError("jsworker: the realm has no " + name + " constructor")) // not reached: TemplateHas
	}
	return o
}
