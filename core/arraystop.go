package core

import (
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

// walkRealm is what arraybuiltin needs of rt: its checkpoint, run at each poll as the JSON builtins run it.
func walkRealm(rt *goja.Runtime) *arraybuiltin.Realm {
	r := &arraybuiltin.Realm{RT: rt}
	if cp, ok := checkpointKey.Get(rt); ok && cp != nil {
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

// callbackGuard routes forEach, every, some (each: the arraybuiltin.Each kind) or reduce, reduceRight (each < 0).
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

// inPlaceGuard routes a method that moves a receiver's elements in place: walk, unless the receiver is short or
// goja's dense array of the realm's Array.prototype (goja moves those slots at once).
func inPlaceGuard(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc, walk func(*arraybuiltin.Realm, *goja.Object, float64, []goja.Value) goja.Value) goja.Value {
	if nullish(call.This) {
		return orig(call)
	}
	o, n, long := longReceiver(rt, call.This)
	if !long {
		return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
	}
	if stored, ok := gojainternal.ArrayStored(o); ok && float64(stored) == n && o.Prototype() == rt.NewArray().Prototype() {
		return orig(goja.FunctionCall{This: o, Arguments: call.Arguments})
	}
	return walk(walkRealm(rt), o, n, call.Arguments)
}

// arrayWalkGuards are the Array.prototype methods routed to arraybuiltin past its threshold.
var arrayWalkGuards = map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value{
	"indexOf":     searchGuard(arraybuiltin.IndexOf),
	"includes":    searchGuard(arraybuiltin.Includes),
	"lastIndexOf": searchGuard(arraybuiltin.LastIndexOf),
	"forEach":     callbackGuard(arraybuiltin.ForEach, false),
	"every":       callbackGuard(arraybuiltin.Every, false),
	"some":        callbackGuard(arraybuiltin.Some, false),
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
}
