package core

import (
	"math"
	"strconv"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/arraybuiltin"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// The allocation guard's list builtins: goja makes a Go slice as long as an argument list or an array's length,
// at once, for
//
//   - Function.prototype.apply, Reflect.apply and Reflect.construct (CreateListFromArrayLike: one slot per
//     element of the array-like, then as many on the call stack): `Math.max.apply(null, {length: 2**32 - 1})`
//     asked Go for 64 GiB, and Go aborts the process when it cannot have it;
//   - Array.prototype.sort (the values of a sparse array), map (a dense result), toReversed, toSorted, with and
//     toSpliced (a dense copy): `a.length = 2**32 - 1; a.sort()` did the same.
//
// V8 refuses these with a RangeError: an argument list longer than its stack allows ("Maximum call stack size
// exceeded", from about 125,000 arguments) or than an array may be ("Invalid array length", past about 2**27). The
// guard refuses an argument list of more than maxCallArguments elements the first way, and one over maxListLength
// elements or an array result of more than MaxAllocationBytes / 16 slots the second way, before goja allocates.

// maxCallArguments is the longest argument list apply, Reflect.apply and Reflect.construct accept (V8: about
// 125,000); a list this long takes 16 MiB as a slice and as much on goja's stack.
const maxCallArguments = 1 << 20

// maxListLength is where V8 stops calling an argument list too deep for the stack and calls it too long for an
// array ("Invalid array length"): its FixedArray limit, about 2**27 elements on 64-bit machines.
const maxListLength = 1 << 27

// maxArrayElements is the largest dense array a builtin may make: one 16-byte interface value a slot.
func maxArrayElements() float64 { return math.Floor(float64(MaxAllocationBytes) / 16) }

// checkArgumentList throws the RangeError V8 throws for an argument list of n elements too long to pass.
func checkArgumentList(rt *goja.Runtime, n float64) {
	switch {
	case n > maxListLength:
		panic(rangeError(rt, "Invalid array length"))
	case n > maxCallArguments:
		panic(rangeError(rt, depthguard.Message))
	}
}

// argumentList checks the array-like list of an apply-like call and returns what to pass to goja in its place.
// Reading its length is what CreateListFromArrayLike does first; an Array, an arguments object or a typed array is
// passed on as it is (goja reads its length again, which nothing can observe but a script that redefined the length
// of an arguments object or a typed array's prototype); any other object (a Proxy, an object whose length or
// elements are accessors) is read here, once, in the specification's order, and goja is given the copy, so that no
// trap or getter runs twice.
func argumentList(rt *goja.Runtime, list goja.Value) goja.Value {
	o, ok := list.(*goja.Object)
	if !ok {
		return list // not an object: goja's TypeError
	}
	n := toLength(o.Get("length"))
	checkArgumentList(rt, n)
	switch gojainternal.ObjectKind(o) {
	case gojainternal.KindArray, gojainternal.KindArguments, gojainternal.KindTypedArray:
		return o
	}
	vals := make([]any, int(n))
	for i := range vals {
		v := o.Get(strconv.Itoa(i))
		if v == nil {
			v = goja.Undefined()
		}
		vals[i] = v
	}
	return rt.NewArray(vals...)
}

// guardApply is Function.prototype.apply(thisArg, argArray).
func guardApply(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	list := call.Argument(1)
	if _, callable := goja.AssertFunction(call.This); !callable || nullish(list) {
		return orig(call) // goja's TypeError, or a call without arguments
	}
	return orig(goja.FunctionCall{This: call.This, Arguments: []goja.Value{call.Argument(0), argumentList(rt, list)}})
}

// guardReflectApply is Reflect.apply(target, thisArg, argumentsList).
func guardReflectApply(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	if _, callable := goja.AssertFunction(call.Argument(0)); !callable {
		return orig(call)
	}
	return orig(goja.FunctionCall{This: call.This,
		Arguments: []goja.Value{call.Argument(0), call.Argument(1), argumentList(rt, call.Argument(2))}})
}

// guardReflectConstruct is Reflect.construct(target, argumentsList[, newTarget]).
func guardReflectConstruct(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	_, callable := goja.AssertFunction(call.Argument(0))
	if len(call.Arguments) > 2 {
		_, newCallable := goja.AssertFunction(call.Arguments[2])
		callable = callable && newCallable
	}
	if !callable {
		return orig(call) // goja's TypeError, before the list is read
	}
	args := append([]goja.Value{call.Argument(0), argumentList(rt, call.Argument(1))}, call.Arguments[min(2, len(call.Arguments)):]...)
	return orig(goja.FunctionCall{This: call.This, Arguments: args})
}

// guardReflect is the global template's hook for Reflect: its apply and construct are guarded in place when goja
// makes the object.
func guardReflect(rt *goja.Runtime, v goja.Value) {
	if !guardReflectOK(rt, v) {
		panic(rt.NewTypeError("jsworker: the allocation guard cannot guard Reflect"))
	}
}

func guardReflectOK(rt *goja.Runtime, v goja.Value) bool {
	o, _ := v.(*goja.Object)
	if o == nil {
		return false
	}
	a, _ := o.Get("apply").(*goja.Object)
	c, _ := o.Get("construct").(*goja.Object)
	k, _ := o.Get("ownKeys").(*goja.Object)
	return guardMethodOK(rt, a, guardReflectApply) && guardMethodOK(rt, c, guardReflectConstruct) &&
		guardMethodOK(rt, k, reflectOwnKeysGuard.guard) // allocguard_keys.go
}

// The callback an Array.prototype method checks before it allocates.
const (
	noCallback       = iota
	optionalCallback // sort, toSorted: undefined or callable (argument 0)
	requiredCallback // map: callable (argument 0)
)

// arrayResultGuard is an Array.prototype method that makes a slice as long as its receiver (sort, map,
// toReversed, toSorted, with, toSpliced): a receiver longer than maxArrayElements (with extra's elements added, for
// toSpliced's items) is refused. A bad callback is left to goja, so that it is goja's TypeError first, as the
// specification orders it. The receiver is converted once and passed on; its length is read here and again by goja
// (as join's and fill's guards do), which only a length accessor or a Proxy can observe.
func arrayResultGuard(callback int, extra func(call goja.FunctionCall) float64) func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value {
	return func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		if nullish(call.This) {
			return orig(call) // goja's TypeError
		}
		if callback != noCallback {
			f := call.Argument(0)
			if _, callable := goja.AssertFunction(f); !callable && !(callback == optionalCallback && goja.IsUndefined(f)) {
				return orig(call)
			}
		}
		o := call.This.ToObject(rt)
		n := toLength(o.Get("length"))
		if extra != nil {
			n += extra(call)
		}
		if n > maxArrayElements() {
			panic(rangeError(rt, "Invalid array length"))
		}
		return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
	}
}

// toSplicedItems is how many items toSpliced inserts: its arguments after the first two.
func toSplicedItems(call goja.FunctionCall) float64 { return float64(max(len(call.Arguments)-2, 0)) }

// arrayListGuards are the Array.prototype methods arrayResultGuard guards.
var arrayListGuards = map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value{
	"sort":       sortGuard(arraybuiltin.Sort), // arraystop.go
	"toSorted":   sortGuard(arraybuiltin.ToSorted),
	"map":        mapGuard, // arraystop.go
	"toReversed": arrayResultGuard(noCallback, nil),
	"with":       arrayResultGuard(noCallback, nil),
	"toSpliced":  arrayResultGuard(noCallback, toSplicedItems),
}

// arrayGuards are every guard of Array.prototype's methods.
var arrayGuards = func() map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value {
	m := map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value{"join": guardJoin, "fill": guardFill}
	for name, g := range arrayListGuards {
		m[name] = g
	}
	for name, g := range arrayWalkGuards { // arraystop.go
		m[name] = g
	}
	return m
}()

// functionPrototype is rt's Function.prototype, reached without making the Function constructor (a lazy global).
func functionPrototype(rt *goja.Runtime) *goja.Object {
	return rt.ToValue(func(goja.FunctionCall) goja.Value { return nil }).(*goja.Object).Prototype()
}

// toLength is ToLength: ToIntegerOrInfinity clamped to [0, 2**53 − 1].
func toLength(v goja.Value) float64 {
	if v == nil {
		return 0
	}
	return math.Min(math.Max(toInteger(v), 0), 1<<53-1)
}
