package jsutil

import (
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// A DefFunc defines one native function of a group: its JavaScript name, length and behaviour.
type DefFunc = func(name string, length int, fn func(goja.FunctionCall) goja.Value)

// LazyFuncs is a group of native functions (the methods of an object such as the natives a library source is given)
// made one at a time, when a script first touches each: a realm pays for the functions it calls, not for the
// group. Make one per group, at package level, with NewLazyFuncs.
type LazyFuncs struct {
	install func(rt *goja.Runtime, def DefFunc)
	factory *gojainternal.LazyFactory
	count   atomic.Int32 // how many functions install defined last time (Define's names, presized)
}

// NewLazyFuncs returns the group install defines: install(rt, def) calls def once per function, in order, with the
// closures of rt's state (it finds that state from rt itself, and runs again each time one function is made, so it
// must only define functions).
func NewLazyFuncs(install func(rt *goja.Runtime, def DefFunc)) *LazyFuncs {
	l := &LazyFuncs{install: install}
	l.factory = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
		var made *goja.Object
		install(rt, func(n string, length int, fn func(goja.FunctionCall) goja.Value) {
			if n == name && made == nil {
				made = NewFunc(rt, n, length, fn)
			}
		})
		if made == nil {
			panic(rt.NewTypeError("jsworker: no native named %s", name))
		}
		return gojainternal.Prop{Value: made, Writable: true, Enumerable: true, Configurable: true}
	})
	return l
}

// Define defines the group's functions of rt as obj's own properties, in order (ordinary data properties, as
// obj.Set makes them), each made on first touch; where lazy properties are not available (gojainternal.DefineLazy)
// or obj already has one of the names, all of them now.
func (l *LazyFuncs) Define(rt *goja.Runtime, obj *goja.Object) {
	names := make([]string, 0, l.count.Load()) // the names only: each function is made when first touched
	l.install(rt, func(name string, _ int, _ func(goja.FunctionCall) goja.Value) { names = append(names, name) })
	l.count.Store(int32(len(names)))
	if gojainternal.DefineLazy(obj, l.factory, names...) {
		return
	}
	l.install(rt, func(name string, length int, f func(goja.FunctionCall) goja.Value) {
		_ = obj.Set(name, NewFunc(rt, name, length, f))
	})
}
