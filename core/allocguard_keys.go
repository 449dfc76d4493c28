package core

import (
	"errors"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// The allocation guard's key lists.
//
// Object.keys, values, entries, getOwnPropertyNames, getOwnPropertyDescriptors, assign, defineProperties and
// Reflect.ownKeys make a list of every own key of an object in one Go loop, and a typed array or a string has an
// index key per element: Object.keys of a 256 MiB Uint8Array is 2**28 strings, some 13 GB, asked of Go in one call
// that no budget checkpoint interrupts (found 2026-12-02: under `ulimit -v`, Go's fatal out of memory for
// `Object.keys(new Uint8Array(2**28))`, `Object.getOwnPropertyNames` of it, `Object.keys("x".repeat(2**28))`). V8
// refuses a list longer than its FixedArray limit, about 2**27, with "Invalid array length" (keys, values, entries)
// or "Too many properties to enumerate" (the others) — but only after building most of it, 20–50 s later. The guard
// counts the index keys first, running no JavaScript — a typed array's length, a string's, a dense array's slots —
// and refuses a list of more than maxListLength keys, or one whose estimated size is over MaxAllocationBytes, with
// V8's RangeError, before goja starts. Other objects' keys are properties the realm already holds (and its budget
// already counts), so they are left alone.

// keyListGuard is one guarded function: which arguments it lists the keys of, the estimated bytes per key of its
// result, and V8's message.
type keyListGuard struct {
	args    func(call goja.FunctionCall) []goja.Value
	perKey  float64
	message string
}

func firstArg(call goja.FunctionCall) []goja.Value  { return []goja.Value{call.Argument(0)} }
func secondArg(call goja.FunctionCall) []goja.Value { return []goja.Value{call.Argument(1)} }
func sources(call goja.FunctionCall) []goja.Value {
	if len(call.Arguments) < 2 {
		return nil
	}
	return call.Arguments[1:]
}

const (
	invalidLength = "Invalid array length"
	tooManyProps  = "Too many properties to enumerate"
)

// objectKeyGuards are the Object constructor's guarded statics. A key is a string (about 48 bytes with its slot),
// a value a slot (16), an entry a two-element array (about 160), a descriptor an object (about 200), a copied
// property a slot of the target's map (about 64).
var objectKeyGuards = map[string]keyListGuard{
	"keys":                      {firstArg, 48, invalidLength},
	"values":                    {firstArg, 16, invalidLength},
	"entries":                   {firstArg, 160, invalidLength},
	"getOwnPropertyNames":       {firstArg, 48, tooManyProps},
	"getOwnPropertyDescriptors": {firstArg, 200, tooManyProps},
	"assign":                    {sources, 64, tooManyProps},
	"defineProperties":          {secondArg, 64, tooManyProps},
}

var reflectOwnKeysGuard = keyListGuard{firstArg, 48, tooManyProps}

// indexKeys is how many index keys v has that a list of its own keys would hold, as far as it can be known without
// running JavaScript; 0 for the objects whose keys are properties the realm holds.
func indexKeys(v goja.Value) float64 {
	switch x := v.(type) {
	case goja.String:
		return float64(x.Length())
	case *goja.Object:
		switch gojainternal.ObjectKind(x) {
		case gojainternal.KindTypedArray:
			if ta, ok := gojainternal.TypedArrayOf(x); ok && !ta.Buffer.Detached() {
				return float64(ta.Length)
			}
		case gojainternal.KindString:
			return toLength(x.Get("length")) // a String object's own length: not writable, not configurable
		case gojainternal.KindArray:
			if n, ok := gojainternal.ArraySlots(x); ok {
				return float64(n)
			}
		}
	}
	return 0
}

// check throws g's RangeError if the key lists of call's arguments are too long to make.
func (g keyListGuard) check(rt *goja.Runtime, call goja.FunctionCall) {
	var n float64
	for _, a := range g.args(call) {
		n += indexKeys(a)
	}
	if n > maxListLength || n*g.perKey > float64(MaxAllocationBytes) {
		panic(rangeError(rt, g.message))
	}
}

func (g keyListGuard) guard(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	g.check(rt, call)
	return orig(call)
}

// objectTemplate is the derived template of the realms' Object constructors: its factories guard the statics
// above when goja makes them.
var objectTemplate = sync.OnceValues(func() (*gojainternal.Template, error) {
	hooks := map[string]func(*goja.Runtime, goja.Value){}
	for name, g := range objectKeyGuards {
		hooks[name] = guardMethod(g.guard)
	}
	sample, _ := goja.New().Get("Object").(*goja.Object)
	if sample == nil {
		return nil, errors.New("jsworker: a runtime has no Object constructor")
	}
	return gojainternal.DeriveTemplate(sample, hooks)
})

// objectMade is the global template's hook for Object: goja's own constructor gets the derived template when goja
// makes it (a realm that has not touched Object by the end of its setup: host realms).
func objectMade(rt *goja.Runtime, v goja.Value) {
	if !guardObjectOK(rt, v) {
		panic(rt.NewTypeError("jsworker: the allocation guard cannot guard Object"))
	}
}

// guardObjectOK gives goja's Object constructor v the derived template and guards now the statics it has made.
func guardObjectOK(rt *goja.Runtime, v goja.Value) bool {
	t, err := objectTemplate()
	ctor, _ := v.(*goja.Object)
	if err != nil || ctor == nil {
		return false
	}
	made, ok := t.Install(ctor)
	if !ok {
		return false
	}
	for _, name := range made {
		fn, _ := ctor.Get(name).(*goja.Object)
		if !guardMethodOK(rt, fn, objectKeyGuards[name].guard) {
			return false
		}
	}
	return true
}
