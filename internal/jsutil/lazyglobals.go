package jsutil

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// LazyGlobals is a group of globals each defined as DefineLazyGlobal defines one (an accessor, made on first
// touch, that settles into an ordinary data property), whose values one function makes from the realm: a realm
// pays only the group's names, not a value function and a table entry for each. Make one per group, at package
// level, with NewLazyGlobals.
type LazyGlobals struct {
	value   func(rt *goja.Runtime, name string) goja.Value
	factory *gojainternal.LazyFactory
}

// NewLazyGlobals returns the group whose global name's value is value(rt, name), made on the first access (it
// finds the realm's state from rt itself).
func NewLazyGlobals(value func(rt *goja.Runtime, name string) goja.Value) *LazyGlobals {
	l := &LazyGlobals{value: value}
	l.factory = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
		get, set := lazyAccessor(rt, name, func() goja.Value { return value(rt, name) })
		return gojainternal.Prop{Accessor: true, Getter: get, Setter: set, Configurable: true}
	})
	return l
}

// Define defines names as rt's lazy globals of the group, in order, as that many DefineLazyGlobal calls would;
// where lazy properties are not available (gojainternal.DefineLazy) or the global object has one of the names
// already, each accessor is made now.
func (l *LazyGlobals) Define(rt *goja.Runtime, names ...string) error {
	g := rt.GlobalObject()
	if gojainternal.DefineLazy(g, l.factory, names...) {
		return nil
	}
	for _, name := range names {
		name := name
		get, set := lazyAccessor(rt, name, func() goja.Value { return l.value(rt, name) })
		if err := g.DefineAccessorProperty(name, get, set, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
	}
	return nil
}
