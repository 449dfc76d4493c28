package depthguard

import (
	"github.com/dop251/goja"
)

// recursiveBuiltins are the builtins that recurse on the Go stack without
// running any JavaScript the guard could sit in: Array.prototype.join and
// the toString and toLocaleString that call it convert each element, which
// for an array element means the same builtins one level down. A nested
// array a million deep, printed or converted to a string, otherwise grows
// the Go stack until the process dies. Each is replaced by a wrapper that
// checks the Go stack (MaxGoStack) and calls the original.
var recursiveBuiltins = [...]string{"join", "toString", "toLocaleString"}

// wrapRecursiveBuiltins installs the Go-stack check in front of the
// builtins of Array.prototype listed above, keeping each original's name,
// length and property attributes (writable, configurable, not enumerable).
func wrapRecursiveBuiltins(rt *goja.Runtime, fail func()) error {
	if !haveGoStack {
		return nil
	}
	arrayCtor, ok := rt.Get("Array").(*goja.Object)
	if !ok {
		return nil
	}
	proto, ok := arrayCtor.Get("prototype").(*goja.Object)
	if !ok {
		return nil
	}
	for _, name := range recursiveBuiltins {
		origVal := proto.Get(name)
		orig, ok := goja.AssertFunction(origVal)
		if !ok {
			continue
		}
		length := origVal.(*goja.Object).Get("length")
		w := rt.ToValue(func(call goja.FunctionCall) goja.Value {
			if goStackUsed() > MaxGoStack {
				fail()
			}
			v, err := orig(call.This, call.Arguments...)
			if err != nil {
				panic(err)
			}
			return v
		}).(*goja.Object)
		if err := w.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
		if err := w.DefineDataProperty("length", length, goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
		if err := proto.DefineDataProperty(name, w, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
	}
	return nil
}
