package core

import (
	"strconv"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/arraybuiltin"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// Long array walks that stop (issue 16): goja's indexOf, includes, lastIndexOf, forEach, every, some, reduce and
// reduceRight walk their receiver's whole length in one native call with nothing between two holes that looks at
// the interrupt flag, so `new Array(2**32 - 1).indexOf(1)` ran for minutes and no terminate, time limit or budget
// could stop it. The allocation guard's Array.prototype template (allocguard.go) routes a call of these whose
// receiver is longer than arraybuiltin.Threshold to internal/arraybuiltin, which walks in the specification's
// order, polls the realm's checkpoint and ends when the realm is interrupted, and skips at once the holes past a
// quiet array's stored slots. Shorter receivers go to goja's own method, unchanged.

// checkpointKey holds a realm's memory checkpoint (set by installDepthGuard) for the long walks' polls.
var checkpointKey = realmdata.NewKey[*depthguard.Checkpoint]("core.checkpoint")

// joiningKey holds a realm's arraybuiltin.Joining: the receivers of the joins and toLocaleStrings of arraybuiltin
// running on it, for their cycle check (goja's own joins keep their own stack; a cycle through both kinds is met
// again on one of the two).
var joiningKey = realmdata.NewKey[*arraybuiltin.Joining]("core.joining")

// joining is rt's Joining, made on first use.
func joining(rt *goja.Runtime) *arraybuiltin.Joining {
	if j, ok := joiningKey.Get(rt); ok && j != nil {
		return j
	}
	j := &arraybuiltin.Joining{}
	joiningKey.Set(rt, j)
	return j
}

// walkRealm is what arraybuiltin needs of rt: its checkpoint, run at each poll as the JSON builtins run it.
func walkRealm(rt *goja.Runtime) *arraybuiltin.Realm {
	r := &arraybuiltin.Realm{RT: rt, RangeError: func(msg string) { panic(rangeError(rt, msg)) }}
	if cp, ok := checkpointKey.Get(rt); ok && cp != nil {
		r.Building = &cp.Building
		r.Poll = func() {
			if cp.Poll != nil {
				cp.Poll()
			}
			if cp.Want.Load() {
				cp.Run()
			}
		}
	}
	return r
}

// longReceiver converts a method's receiver and reads its length once (goja's usual array without running
// anything), and reports whether it is longer than the threshold. A short one is passed to goja converted: a
// length accessor or a Proxy's get trap runs twice then, as with join's and fill's guards.
func longReceiver(rt *goja.Runtime, this goja.Value) (o *goja.Object, n float64, long bool) {
	o = this.ToObject(rt)
	if l, ok := gojainternal.ArrayLength(o); ok {
		n = float64(l)
	} else {
		n = toLength(o.Get("length"))
	}
	return o, n, n > arraybuiltin.Threshold
}

// searchGuard routes indexOf, includes or lastIndexOf.
func searchGuard(walk func(*arraybuiltin.Realm, *goja.Object, float64, []goja.Value) goja.Value) func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value {
	return func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		if nullish(call.This) {
			return orig(call) // goja's TypeError
		}
		o, n, long := longReceiver(rt, call.This)
		if !long {
			return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
		}
		return walk(walkRealm(rt), o, n, call.Arguments)
	}
}

// filterWalk is callbackGuard's each for filter.
const filterWalk = -2

// callbackGuard routes forEach, every, some (each: the arraybuiltin.Each kind), filter (filterWalk) or reduce,
// reduceRight (each -1).
func callbackGuard(each int, right bool) func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value {
	return func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		if nullish(call.This) {
			return orig(call)
		}
		o, n, long := longReceiver(rt, call.This)
		fn, callable := goja.AssertFunction(call.Argument(0))
		if !long || !callable {
			return orig(goja.FunctionCall{This: o, Arguments: call.Arguments}) // (goja's TypeError for fn)
		}
		if each == filterWalk {
			return arraybuiltin.Filter(walkRealm(rt), o, n, fn, call.Argument(1))
		}
		if each < 0 {
			return arraybuiltin.Reduce(walkRealm(rt), o, n, right, fn, call.Arguments[1:])
		}
		return arraybuiltin.Each(walkRealm(rt), o, n, each, fn, call.Argument(1))
	}
}

// reverseGuard routes reverse (and copyWithin: inPlaceGuard), unless the receiver is goja's usual array with every slot stored and the realm's
// Array.prototype: goja swaps those in place (a dense array is as long as memory allows, and fast), where every
// other long receiver took goja's index-by-index loop (`new Array(2**32 - 1).reverse()`: two billion pairs).
func reverseGuard(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	return inPlaceGuard(rt, call, orig, func(r *arraybuiltin.Realm, o *goja.Object, n float64, _ []goja.Value) goja.Value {
		return arraybuiltin.Reverse(r, o, n)
	})
}

// inPlaceGuard routes a method that moves a receiver's elements in place, or copies some of them (slice): walk,
// unless the receiver is short or goja's dense array of the realm's Array.prototype (goja moves or copies those
// slots at once; a dense array is as long as memory allows).
func inPlaceGuard(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc, walk func(*arraybuiltin.Realm, *goja.Object, float64, []goja.Value) goja.Value) goja.Value {
	if nullish(call.This) {
		return orig(call)
	}
	o, n, long := longReceiver(rt, call.This)
	if !long {
		return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
	}
	if denseArray(rt, o, n) {
		return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
	}
	return walk(walkRealm(rt), o, n, call.Arguments)
}

// denseArray reports whether o, of length n, is goja's usual array with every slot stored and the realm's
// Array.prototype: what goja's methods copy or move in one step.
func denseArray(rt *goja.Runtime, o *goja.Object, n float64) bool {
	stored, ok := gojainternal.ArrayStored(o)
	return ok && float64(stored) == n && o.Prototype() == rt.NewArray().Prototype()
}

// sortGuard is the guard of sort (arraybuiltin.Sort) or toSorted (arraybuiltin.ToSorted): a receiver longer than
// the allocation cap holds is refused (arrayResultGuard's rule), and one longer than the threshold is sorted by
// arraybuiltin (goja's sort.Stable converted both elements to strings at each of its n log² n comparisons, with
// nothing between two that could stop it).
func sortGuard(sort func(*arraybuiltin.Realm, *goja.Object, float64, goja.Callable) goja.Value) func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value {
	return func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		cmpArg := call.Argument(0)
		cmp, callable := goja.AssertFunction(cmpArg)
		if nullish(call.This) || !callable && !goja.IsUndefined(cmpArg) {
			return orig(call) // goja's TypeError (comparefn first, as the specification orders it)
		}
		o, n, long := longReceiver(rt, call.This)
		if n > maxArrayElements() {
			panic(rangeError(rt, "Invalid array length"))
		}
		if !long {
			return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
		}
		return sort(walkRealm(rt), o, n, cmp)
	}
}

// mapGuard is map's guard: a result longer than the allocation cap holds is refused (arrayResultGuard's rule), and
// a long receiver whose slots are not all stored is arraybuiltin.Map's (goja's loop asks every index, though the
// callback runs only for the present ones: `new Array(2**27).map(f)`, 13 s nothing could stop).
func mapGuard(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	if nullish(call.This) {
		return orig(call)
	}
	fn, callable := goja.AssertFunction(call.Argument(0))
	if !callable {
		return orig(call) // goja's TypeError, after its read of the length
	}
	o, n, long := longReceiver(rt, call.This)
	if n > maxArrayElements() {
		panic(rangeError(rt, "Invalid array length"))
	}
	if !long || denseArray(rt, o, n) {
		return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
	}
	return arraybuiltin.Map(walkRealm(rt), o, n, fn, call.Argument(1))
}

// arrayWalkGuards are the Array.prototype methods routed to arraybuiltin past its threshold.
var arrayWalkGuards = map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value{
	"indexOf":     searchGuard(arraybuiltin.IndexOf),
	"includes":    searchGuard(arraybuiltin.Includes),
	"lastIndexOf": searchGuard(arraybuiltin.LastIndexOf),
	"forEach":     callbackGuard(arraybuiltin.ForEach, false),
	"every":       callbackGuard(arraybuiltin.Every, false),
	"some":        callbackGuard(arraybuiltin.Some, false),
	"filter":      callbackGuard(filterWalk, false),
	"reduce":      callbackGuard(-1, false),
	"reduceRight": callbackGuard(-1, true),
	"reverse":     reverseGuard,
	"copyWithin": func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		return inPlaceGuard(rt, call, orig, arraybuiltin.CopyWithin)
	},
	"shift": func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		return inPlaceGuard(rt, call, orig, func(r *arraybuiltin.Realm, o *goja.Object, n float64, _ []goja.Value) goja.Value {
			return arraybuiltin.Shift(r, o, n)
		})
	},
	"unshift": func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		return inPlaceGuard(rt, call, orig, arraybuiltin.Unshift)
	},
	"slice": func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		return inPlaceGuard(rt, call, orig, arraybuiltin.Slice)
	},
	"splice": func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		return inPlaceGuard(rt, call, orig, arraybuiltin.Splice)
	},
	"concat": concatGuard,
	"toLocaleString": func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		if nullish(call.This) {
			return orig(call)
		}
		o, n, long := longReceiver(rt, call.This)
		if !long {
			return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
		}
		return arraybuiltin.ToLocaleString(walkRealm(rt), joining(rt), o, n)
	},
	// flat and flatMap are always ours: goja's recursion has no bound (`c[0] = c; c.flat(Infinity)` overflowed
	// the Go stack, fatally), and its loop none either.
	"flat": func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		if nullish(call.This) {
			return orig(call)
		}
		o, n, _ := longReceiver(rt, call.This)
		return arraybuiltin.Flat(walkRealm(rt), o, n, call.Argument(0))
	},
	"flatMap": func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		if nullish(call.This) {
			return orig(call)
		}
		o, n, _ := longReceiver(rt, call.This)
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			return orig(goja.FunctionCall{This: o, Arguments: call.Arguments}) // goja's TypeError, after the length
		}
		return arraybuiltin.FlatMap(walkRealm(rt), o, n, fn, call.Argument(1))
	},
}

// concatGuard routes concat when the receiver or an argument is an object goja would walk index by index without
// bound: an array longer than the threshold whose slots are not all stored, or any object that is not goja's
// array (an array-like is spread when its Symbol.isConcatSpreadable says so, whatever its length:
// `[].concat({length: 2**53 - 1, [Symbol.isConcatSpreadable]: true})`). Dense arrays stay goja's (their lengths
// are what memory holds), unless together they are more elements than the allocation cap holds, which ours then
// build with polls, counted, so that the cap or a budget stops them; past 2**22 elements in all the realm is
// measured first with what goja will make counted (chargeAhead), so that a budget ends the worker before.
func concatGuard(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	if nullish(call.This) {
		return orig(call)
	}
	o := call.This.ToObject(rt)
	total, ours := 0.0, false
	for i := -1; i < len(call.Arguments) && !ours; i++ {
		e := goja.Value(o)
		if i >= 0 {
			e = call.Arguments[i]
		}
		eo, _ := e.(*goja.Object)
		if eo == nil {
			total++
			continue
		}
		l, isArray := gojainternal.ArrayLength(eo)
		stored, _ := gojainternal.ArrayStored(eo)
		switch {
		case !isArray:
			ours = true
		case l > arraybuiltin.Threshold && stored != int(l):
			ours = true
		default:
			total += float64(l)
		}
	}
	if ours || total > maxArrayElements() {
		return arraybuiltin.Concat(walkRealm(rt), o, call.Arguments)
	}
	if total > 1<<22 {
		chargeAhead(rt, int64(total)*16)
	}
	return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
}

// arrayMade is the hook of the global Array: its `from` is guarded in place (guardArrayFrom).
func arrayMade(rt *goja.Runtime, v goja.Value) {
	ctor, _ := v.(*goja.Object)
	if ctor == nil {
		return
	}
	if from, _ := ctor.Get("from").(*goja.Object); from != nil {
		gojainternal.GuardCallOver(from, func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
			return guardArrayFrom(rt, ctor, call, orig)
		})
	}
}

// guardArrayFrom is Array.from(items, mapFn, thisArg) called on the realm's Array with an object that has no
// Symbol.iterator: goja reads such an array-like's elements in one Go loop into a slice as long as its length
// (`Array.from({length: 2**32 - 1})`: Go's fatal out of memory at once; Node aborts the process too). Here the
// length is checked first — more elements than an array may have, or than the allocation cap holds at 16 bytes an
// element, is a RangeError "Invalid array length" — and the elements are read in the specification's order with a
// poll every arraybuiltin.PollEvery, what is read so far counted as built. Other calls are goja's.
func guardArrayFrom(rt *goja.Runtime, ctor *goja.Object, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	items, _ := call.Argument(0).(*goja.Object)
	if items == nil || call.This != goja.Value(ctor) || gojainternal.ObjectKind(items) == gojainternal.KindProxy {
		return orig(call)
	}
	var mapFn goja.Callable
	if m := call.Argument(1); !goja.IsUndefined(m) {
		fn, ok := goja.AssertFunction(m)
		if !ok {
			return orig(call) // goja's TypeError
		}
		mapFn = fn
	}
	if it := items.GetSymbol(goja.SymIterator); it != nil && !goja.IsUndefined(it) && !goja.IsNull(it) {
		return orig(call) // the iterator's path (its next polls: iterstop.go)
	}
	n := toLength(items.Get("length"))
	if n > maxListLength || n*16 > float64(MaxAllocationBytes) {
		panic(rangeError(rt, "Invalid array length"))
	}
	r := walkRealm(rt)
	if r.Building != nil { // what is read so far counts as built, at a measurement inside a getter or mapFn too
		defer func(b *int64, was int64) { *b = was }(r.Building, *r.Building)
	}
	values := make([]any, 0, int(min(n, arraybuiltin.Threshold)))
	for k := 0; k < int(n); k++ {
		if k > 0 && k%arraybuiltin.PollEvery == 0 {
			if r.Building != nil {
				*r.Building += arraybuiltin.PollEvery * 16
			}
			if r.Poll != nil {
				r.Poll()
			}
			gojainternal.EndIfInterrupted(rt)
		}
		key := strconv.Itoa(k)
		v := items.Get(key)
		if v == nil {
			v = goja.Undefined()
		}
		if mapFn != nil {
			var err error
			if v, err = mapFn(call.Argument(2), v, rt.ToValue(k)); err != nil {
				panic(err)
			}
		}
		values = append(values, v)
	}
	return rt.NewArray(values...)
}
