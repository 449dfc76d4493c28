package core

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/arraybuiltin"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Iteration that stops. Spread (`[...a]`, `f(...a)`), destructuring, `new Set(a)`, `new Map(a)`, `Array.from(a)`,
// `Promise.all(a)` and `TypedArray.from(a)` over an array, a typed array or a string call the iterator prototype's
// native `next` once per element from a Go loop of goja's, with no instruction between two calls where goja looks at
// its interrupt flag: `[...new Array(2**32 - 1)]`, `Math.max(...new Array(2**26))`, `[...new Uint8Array(2**28)]` and
// `Array.from("x".repeat(2**26))` ran until memory ran out (Go's fatal out of memory under a memory limit), and no
// terminate, time limit or budget stopped them (found 2026-12-02). The realm's %ArrayIteratorPrototype%.next and
// %StringIteratorPrototype%.next are guarded in place (gojainternal.GuardCallOver: the same function object) with a
// counter: every arraybuiltin.PollEvery calls it runs the realm's checkpoint (the memory budget's measurement) and
// ends the call when the realm was asked to stop, as the long array walks do (arraystop.go).
//
// Making the iterator prototypes when the realm is made would cost every realm some 6 KiB each; a realm makes them
// itself the first time it makes such an iterator, and every way to make one first looks up a method of a
// templated prototype, whose factory is hooked (gojainternal.DeriveTemplate, WithSymbolHooks):
//   - Array.prototype[Symbol.iterator] (goja makes Array.prototype's symbol properties all at once): the hook guards
//     %ArrayIteratorPrototype%.next, making the prototype one lookup early;
//   - Array.prototype.values/keys/entries and %TypedArray%.prototype's values/keys/entries/[Symbol.iterator] (they
//     share the array iterator prototype): their hooks look up Array.prototype[Symbol.iterator], which runs the hook
//     above once (arrayIterationMade);
//   - String.prototype[Symbol.iterator]: the hook guards %StringIteratorPrototype%.next.
// `arguments`' iterator is Array.prototype.values taken without a lookup: its `next` polls from the realm's first
// use of any of the above on (an arguments object holds at most what one call passed, which Function.prototype.apply
// and spread bound).

// arrayIteratorMade is the hook of Array.prototype[Symbol.iterator]: v is Array.prototype.values.
func arrayIteratorMade(rt *goja.Runtime, v goja.Value) {
	if !guardArrayIterator(rt, v) {
		panic(rt.NewTypeError("jsworker: the allocation guard cannot guard the array iterator"))
	}
}

// arrayIterationMade is the hook of the other methods that make array iterators (above): it has the realm make
// Array.prototype's symbol properties, whose hook guards the iterator's prototype (once: later lookups find them
// made).
func arrayIterationMade(rt *goja.Runtime, _ goja.Value) {
	rt.NewArray().Prototype().GetSymbol(goja.SymIterator)
}

// stringIteratorMade is the hook of String.prototype[Symbol.iterator].
func stringIteratorMade(rt *goja.Runtime, v goja.Value) {
	if !guardStringIterator(rt, v) {
		panic(rt.NewTypeError("jsworker: the allocation guard cannot guard the string iterator"))
	}
}

// guardArrayIterator guards the `next` of the prototype of the iterators that values (Array.prototype.values)
// makes.
func guardArrayIterator(rt *goja.Runtime, values goja.Value) bool {
	return guardIteratorNext(rt, values, rt.NewArray(), iteratedValueBytes)
}

// guardStringIterator guards the `next` of the prototype of the iterators that iter
// (String.prototype[Symbol.iterator]) makes.
func guardStringIterator(rt *goja.Runtime, iter goja.Value) bool {
	return guardIteratorNext(rt, iter, rt.ToValue(""), iteratedValueBytes)
}

// iteratedValueBytes is what goja's Go iteration loop keeps per value (a spread's array slot; a Set's entry keeps
// more): the low estimate the iterators' polls count as built (below).
const iteratedValueBytes = 16

// guardIteratorNext guards, with a poll every arraybuiltin.PollEvery calls, the `next` of the prototype of the
// iterator that calling makeIter on receiver makes, each value it yields estimated at valueBytes. A poll under goja's Go iteration loop (a spread, Array.from,
// new Set: gojainternal.InGoIteration) counts the values the loop has taken from this iterator so far as built
// (the realm's Checkpoint.Building) while the poll measures the realm: the loop holds them where no measurement of
// the realm's graph sees them, and a budget or the process's cap could not stop `Array.from("x".repeat(2**28))`
// before Go's fatal out of memory. A for-of keeps nothing of its own and counts nothing.
func guardIteratorNext(rt *goja.Runtime, makeIter, receiver goja.Value, valueBytes int64) bool {
	fn, ok := goja.AssertFunction(makeIter)
	if !ok {
		return false
	}
	it, err := fn(receiver)
	if err != nil {
		return false
	}
	io, _ := it.(*goja.Object)
	if io == nil || io.Prototype() == nil {
		return false
	}
	next, _ := io.Prototype().Get("next").(*goja.Object)
	var r *arraybuiltin.Realm
	var cp *depthguard.Checkpoint
	count := 0
	var iter *goja.Object // the iterator of the latest calls, and how many calls in a row took from it
	var taken int64
	return gojainternal.GuardCallOver(next, func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		if this, _ := call.This.(*goja.Object); this != iter {
			iter, taken = this, 0
		}
		taken++
		if count++; count >= arraybuiltin.PollEvery {
			count = 0
			if r == nil {
				r = walkRealm(rt)
				cp, _ = checkpointKey.Get(rt)
			}
			if r.Poll != nil {
				pollCounting(r, cp, taken, valueBytes)
			}
			gojainternal.EndIfInterrupted(rt)
		}
		return orig(call)
	})
}

// pollCounting runs the realm's poll with the taken values counted as built when a Go loop of goja's holds them.
func pollCounting(r *arraybuiltin.Realm, cp *depthguard.Checkpoint, taken, valueBytes int64) {
	if cp == nil || taken <= arraybuiltin.PollEvery || !gojainternal.InGoIteration() {
		r.Poll()
		return
	}
	pollBuilding(r, cp, taken*valueBytes) // regexpstop.go
}
