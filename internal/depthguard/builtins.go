package depthguard

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// recursiveBuiltins are the builtins that recurse on the Go stack without
// running any JavaScript the guard could sit in: Array.prototype.join and
// the toString and toLocaleString that call it convert each element, which
// for an array element means the same builtins one level down. A nested
// array a million deep, printed or converted to a string, otherwise grows
// the Go stack until the process dies. Each checks the Go stack (MaxGoStack)
// before goja's own behaviour runs.
var recursiveBuiltins = [...]string{"join", "toString", "toLocaleString"}

// guardRecursiveBuiltins installs the Go-stack check in front of the builtins of Array.prototype listed above. When
// lazy (overflowFor), each not made yet is guarded when goja makes it (recursiveMade), so that a realm that never
// touches them makes none (nor the Array constructor, ~10 KiB in all); the others are guarded now (guardRecursive).
func guardRecursiveBuiltins(rt *goja.Runtime, fail func(), lazy bool) error {
	if !haveGoStack {
		return nil
	}
	var proto *goja.Object
	if lazy {
		proto = rt.NewArray().Prototype() // goja's own Array.prototype, without making the Array constructor
	} else {
		arrayCtor, ok := rt.Get("Array").(*goja.Object)
		if !ok {
			return nil
		}
		if proto, ok = arrayCtor.Get("prototype").(*goja.Object); !ok {
			return nil
		}
	}
	for _, name := range recursiveBuiltins {
		if lazy && gojainternal.Pending(proto, name) && gojainternal.AfterMake(proto, recursiveMade, name) {
			continue
		}
		if err := guardRecursive(rt, proto, name, fail); err != nil {
			return err
		}
	}
	return nil
}

// recursiveMade guards one of recursiveBuiltins when goja makes it in a lazily guarded realm (a template hook: it
// runs while goja makes the property, before any script sees it, and runs no JavaScript).
var recursiveMade = gojainternal.NewAfterMake(func(rt *goja.Runtime, name string, v goja.Value) {
	o, _ := v.(*goja.Object)
	if !gojainternal.GuardCallOver(o, checkGoStack(func() { throwOverflow(rt) })) {
		panic(rt.NewTypeError("jsworker: the depth guard cannot guard Array.prototype.%s", name)) // not reached
	}
})

// checkGoStack is the check of the builtins: fail past MaxGoStack, otherwise goja's own behaviour.
func checkGoStack(fail func()) func(gojainternal.CallFunc, goja.FunctionCall) goja.Value {
	return func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		if goStackUsed() > MaxGoStack {
			fail()
		}
		return orig(call)
	}
}

// guardRecursive guards proto's builtin name now: in place (gojainternal.GuardCallOver, over the allocation guard's
// own check of join if it has one: the same function object, with its name, length and attributes) or, where that
// cannot be done (goja's internals unread, a function not goja's), by a wrapper that checks and calls the original,
// keeping its name, length and property attributes (writable, configurable, not enumerable).
func guardRecursive(rt *goja.Runtime, proto *goja.Object, name string, fail func()) error {
	origVal := proto.Get(name)
	orig, ok := goja.AssertFunction(origVal)
	if !ok {
		return nil
	}
	if gojainternal.GuardCallOver(origVal.(*goja.Object), checkGoStack(fail)) {
		return nil
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
	return proto.DefineDataProperty(name, w, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}
