package core

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/arraybuiltin"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Iteration that stops. Spread (`[...a]`, `f(...a)`), destructuring, `new Set(a)`, `new Map(a)`, `Array.from(a)`,
// `Promise.all(a)` and `TypedArray.from(a)` over an array call %ArrayIteratorPrototype%.next once per element from
// a Go loop of goja's, with no instruction between two calls where goja looks at its interrupt flag:
// `[...new Array(2**32 - 1)]` and `Math.max(...new Array(2**26))` ran until memory ran out, and no terminate, time
// limit or budget stopped them (found 2026-12-02). The realm's `next` is guarded in place
// (gojainternal.GuardCallOver: the same function object) with a counter: every arraybuiltin.PollEvery calls it runs
// the realm's checkpoint and ends the call when the realm was asked to stop, as the long array walks do
// (arraystop.go).
//
// Making the iterator prototype when the realm is made would cost every realm some 6 KiB; a realm makes it itself
// the first time it iterates an array, and every such first time looks up Array.prototype[Symbol.iterator] (goja
// makes Array.prototype's symbol properties then, all at once). So the Array.prototype template's factory of
// Symbol.iterator is hooked (gojainternal.WithSymbolHooks) and guards `next` there, making the prototype one lookup
// early. An iterator made another way first — a typed array's, `arguments`', Array.prototype.keys/entries' — shares
// the prototype, and its `next` polls from the realm's first lookup of an array's Symbol.iterator on.

// arrayIteratorMade is the hook of Array.prototype[Symbol.iterator]: v is Array.prototype.values.
func arrayIteratorMade(rt *goja.Runtime, v goja.Value) {
	if !guardArrayIterator(rt, v) {
		panic(rt.NewTypeError("jsworker: the allocation guard cannot guard the array iterator"))
	}
}

// guardArrayIterator guards the `next` of the prototype of the iterators that values (Array.prototype.values)
// makes.
func guardArrayIterator(rt *goja.Runtime, values goja.Value) bool {
	fn, ok := goja.AssertFunction(values)
	if !ok {
		return false
	}
	it, err := fn(rt.NewArray())
	if err != nil {
		return false
	}
	io, _ := it.(*goja.Object)
	if io == nil || io.Prototype() == nil {
		return false
	}
	next, _ := io.Prototype().Get("next").(*goja.Object)
	var r *arraybuiltin.Realm
	count := 0
	return gojainternal.GuardCallOver(next, func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		if count++; count >= arraybuiltin.PollEvery {
			count = 0
			if r == nil {
				r = walkRealm(rt)
			}
			if r.Poll != nil {
				r.Poll()
			}
			gojainternal.EndIfInterrupted(rt)
		}
		return orig(call)
	})
}
