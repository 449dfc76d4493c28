package core

import (
	_ "embed"
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/arraybuiltin"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// MaxAllocationBytes is the largest single buffer a script may ask for (an ArrayBuffer, SharedArrayBuffer or typed
// array; a dense Array.prototype.fill of this many bytes' worth of slots): half the memory the process can have
// (physicalMemory: the machine's, its cgroup's limit, half its address-space limit), at most 32 GiB. Larger requests throw a catchable RangeError ("Array buffer allocation failed") where goja would
// otherwise ask Go for the memory, and Go aborts the whole process when it cannot have it. Strings are held to
// V8's limit, 2**29 − 24 code units ("Invalid string length"). See docs/limits.md.
var MaxAllocationBytes = min(physicalMemory()/2, 32<<30)

// maxStringLength is V8's limit on a string's length in UTF-16 code units.
const maxStringLength = 1<<29 - 24

// The allocation guard.
//
// Every realm core makes (setupRealm, OpenHostRealm) refuses the single allocations too large to satisfy with a
// catchable RangeError, before goja makes them: the typed-array constructors, ArrayBuffer, SharedArrayBuffer,
// String.prototype.repeat/padStart/padEnd and Array.prototype.join/fill check their arguments first, and so do
// Function.prototype.apply, Reflect.apply/construct and Array.prototype's sort, map and copying methods
// (allocguard_lists.go).
//
// The guard costs a realm nothing until a script touches one of those builtins (installLazyAllocGuard): goja makes
// each of them the first time it is looked up, from a process-wide template, and the realm's global object,
// String.prototype and Array.prototype are given derived templates (gojainternal.Template) whose factories guard
// what they make, in Go, in place (gojainternal.GuardConstruct/GuardCall: the same object, with its identity,
// statics and descriptors, preceded by a check). ArrayBuffer is the exception: goja makes ArrayBuffers for Go code
// (Runtime.NewArrayBuffer, used by node's Buffer, crypto and fs, by structured clone and the C API) and a script
// reaches the constructor from any of them through .constructor (goja makes it with its prototype for the first buffer,
// never through the global template, so a template hook would not see it: TestAllocGuard_BufferLate*), so it is
// guarded when the realm is made. The SharedArrayBuffer constructor is sharedmem's, which refuses the same lengths
// itself (RealmOptions.MaxAllocation).
//
// If goja's internals are not as gojainternal expects, the guard is the eager JavaScript of js/allocguard.js
// (installEagerAllocGuard), which wraps every guarded builtin when the realm is made.

//go:embed js/allocguard.js
var allocGuardJS string

var allocGuardSource = jsutil.NewSource("jsworker:allocguard", allocGuardJS)

// guardedViews are the typed-array constructors and their element sizes.
var guardedViews = [...]struct {
	name string
	size float64
}{
	{"Int8Array", 1}, {"Uint8Array", 1}, {"Uint8ClampedArray", 1}, {"Int16Array", 2}, {"Uint16Array", 2},
	{"Int32Array", 4}, {"Uint32Array", 4}, {"Float32Array", 4}, {"Float64Array", 8}, {"BigInt64Array", 8},
	{"BigUint64Array", 8},
}

// lazyTemplates are the derived templates of the realms' global object, String.prototype and Array.prototype,
// made once per process.
type lazyTemplates struct{ global, stringProto, arrayProto, funcProto, objectProto *gojainternal.Template }

// typedProtoTemplate is %TypedArray%.prototype's derived template (typedArrayTemplate), made with the others; nil
// without symbol hooks. (Not in lazyTemplates: the typed-array constructors' hook, which lazyGuard makes, reads it.)
var typedProtoTemplate atomic.Pointer[gojainternal.Template]

// iterationMakers are the hooked names of Array.prototype and %TypedArray%.prototype that make array iterators
// (iterstop.go).
var iterationMakers = map[string]bool{"values": true, "keys": true, "entries": true}

var lazyGuard = sync.OnceValues(func() (*lazyTemplates, error) {
	if err := errors.Join(gojainternal.LazyGuard(), gojainternal.Kinds()); err != nil {
		return nil, err
	}
	hooks := map[string]func(*goja.Runtime, goja.Value){}
	for _, v := range guardedViews {
		hooks[v.name] = func(rt *goja.Runtime, ctor goja.Value) { guardView(rt, ctor, v.size) }
	}
	hooks["eval"] = depthguard.EvalMade // eval checks its text first, from when goja makes it (installDepthGuard)
	hooks["Reflect"] = guardReflect     // allocguard_lists.go
	hooks["Object"] = objectMade        // allocguard_keys.go
	hooks["RegExp"] = regexpMade        // regexpstop.go
	hooks["Array"] = arrayMade          // arraystop.go: Array.from
	if _, err := objectTemplate(); err != nil {
		return nil, err
	}
	sample := goja.New()
	global, err := gojainternal.DeriveTemplate(sample.GlobalObject(), hooks)
	if err != nil {
		return nil, err
	}
	str, err := gojainternal.DeriveTemplate(sample.ToValue("").ToObject(sample).Prototype(), map[string]func(*goja.Runtime, goja.Value){
		"repeat": guardMethod(guardRepeat), "padStart": guardMethod(guardPad), "padEnd": guardMethod(guardPad),
		"split": both(guardMethod(guardSplit), regexpUsed), // allocguard_split.go
		// regexpstop.go: the RegExp methods these call are guarded from their first lookup on
		"match": regexpUsed, "replace": regexpUsed, "search": regexpUsed, "matchAll": matchAllMade,
		"replaceAll": both(guardMethod(guardReplaceAll), regexpUsed),
	})
	if err != nil {
		return nil, err
	}
	if s, err := str.WithSymbolHooks(map[*goja.Symbol]func(*goja.Runtime, goja.Value){
		goja.SymIterator: stringIteratorMade, // iterstop.go
	}); err == nil {
		str = s
	} // (without symbol hooks, iteration is not polled)
	arrHooks := map[string]func(*goja.Runtime, goja.Value){}
	for name, g := range arrayGuards {
		arrHooks[name] = guardMethod(g)
	}
	for name := range iterationMakers {
		arrHooks[name] = arrayIterationMade
	}
	arr, err := gojainternal.DeriveTemplate(sample.NewArray().Prototype(), arrHooks)
	if err != nil {
		return nil, err
	}
	var typed *gojainternal.Template
	if a, err := arr.WithSymbolHooks(map[*goja.Symbol]func(*goja.Runtime, goja.Value){
		goja.SymIterator: arrayIteratorMade, // iterstop.go
	}); err == nil {
		arr = a
		typed, err = typedArrayTemplate(sample)
		if err != nil {
			return nil, err
		}
	} // (without symbol hooks, iteration is not polled)
	fn, err := gojainternal.DeriveTemplate(functionPrototype(sample), map[string]func(*goja.Runtime, goja.Value){
		"apply": guardMethod(guardApply),
	})
	if err != nil {
		return nil, err
	}
	obj, err := gojainternal.DeriveTemplate(sample.NewObject().Prototype(), map[string]func(*goja.Runtime, goja.Value){
		"toLocaleString": guardMethod(guardObjectToLocaleString),
	})
	if err != nil {
		return nil, err
	}
	typedProtoTemplate.Store(typed)
	return &lazyTemplates{global: global, stringProto: str, arrayProto: arr, funcProto: fn, objectProto: obj}, nil
})

// typedArrayTemplate derives %TypedArray%.prototype's template (sample's), whose methods that make array iterators
// have the realm guard the iterator's prototype (iterstop.go).
func typedArrayTemplate(sample *goja.Runtime) (*gojainternal.Template, error) {
	ctor, _ := sample.Get("Uint8Array").(*goja.Object)
	if ctor == nil {
		return nil, errors.New("jsworker: the allocation guard cannot find Uint8Array")
	}
	proto, _ := ctor.Get("prototype").(*goja.Object)
	if proto == nil || proto.Prototype() == nil {
		return nil, errors.New("jsworker: the allocation guard cannot find %TypedArray%.prototype")
	}
	hooks := map[string]func(*goja.Runtime, goja.Value){}
	for name, g := range typedGuards {
		hooks[name] = guardMethod(g)
	}
	for name := range iterationMakers {
		hooks[name] = arrayIterationMade
	}
	t, err := gojainternal.DeriveTemplate(proto.Prototype(), hooks)
	if err != nil {
		return nil, err
	}
	return t.WithSymbolHooks(map[*goja.Symbol]func(*goja.Runtime, goja.Value){goja.SymIterator: arrayIterationMade})
}

// guardTypedArrayIteration gives the realm's %TypedArray%.prototype (the prototype of ctor's prototype) the derived
// template, once, when the realm makes its first typed-array constructor; what it made before is guarded now.
func guardTypedArrayIteration(rt *goja.Runtime, ctor *goja.Object) bool {
	t := typedProtoTemplate.Load()
	if t == nil {
		return true // not polled (iterstop.go): nothing to do
	}
	proto, _ := ctor.Get("prototype").(*goja.Object)
	if proto == nil || proto.Prototype() == nil {
		return false
	}
	tp := proto.Prototype()
	made, ok := t.Install(tp)
	iterating := false
	for _, name := range made {
		iterating = iterating || iterationMakers[name]
	}
	if symbols, known := gojainternal.SymbolsMade(tp); iterating || !ok || (known && symbols) {
		arrayIterationMade(rt, nil)
	}
	for name, guard := range typedGuards {
		if !ok || slices.Contains(made, name) {
			if fn, _ := tp.Get(name).(*goja.Object); !guardMethodOK(rt, fn, guard) {
				return false
			}
		}
	}
	return true
}

// typedGuards are the guards of %TypedArray%.prototype's methods whose goja loops walk a long typed array with
// nothing between two elements that looks at the interrupt flag.
var typedGuards = map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value{
	"join": guardTypedJoin, "toLocaleString": guardTypedToLocaleString,
	"indexOf":     typedSearchGuard(arraybuiltin.TypedIndexOf),
	"lastIndexOf": typedSearchGuard(arraybuiltin.TypedLastIndexOf),
	"includes":    typedSearchGuard(arraybuiltin.TypedIncludes),
}

// typedSearchGuard routes indexOf, lastIndexOf or includes (which) of a typed array (typedGuard).
func typedSearchGuard(which int) func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value {
	return typedGuard(func(r *arraybuiltin.Realm, o *goja.Object, n int, call goja.FunctionCall) goja.Value {
		return arraybuiltin.TypedSearch(r, o, n, which, call.Arguments)
	})
}

// guardTypedJoin is %TypedArray%.prototype.join, routed to arraybuiltin.TypedJoin (typedGuard).
var guardTypedJoin = typedGuard(func(r *arraybuiltin.Realm, o *goja.Object, n int, call goja.FunctionCall) goja.Value {
	return arraybuiltin.TypedJoin(r, o, n, call.Argument(0))
})

// guardTypedToLocaleString is %TypedArray%.prototype.toLocaleString, routed to arraybuiltin.TypedToLocaleString.
var guardTypedToLocaleString = typedGuard(func(r *arraybuiltin.Realm, o *goja.Object, n int, _ goja.FunctionCall) goja.Value {
	return arraybuiltin.TypedToLocaleString(r, o, n)
})

// typedGuard routes a %TypedArray%.prototype method: a typed array longer than arraybuiltin.Threshold goes to walk,
// which reads its buffer with polls (goja's loop could not be stopped); a shorter one, a detached one and anything
// else are goja's (its TypeError for what is no typed array).
func typedGuard(walk func(r *arraybuiltin.Realm, o *goja.Object, n int, call goja.FunctionCall) goja.Value) func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value {
	return func(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
		o, _ := call.This.(*goja.Object)
		t, ok := gojainternal.TypedArrayOf(o)
		if !ok || t.Length <= arraybuiltin.Threshold || t.Buffer.Detached() {
			return orig(call)
		}
		return walk(walkRealm(rt), o, t.Length, call)
	}
}

// installAllocGuard guards rt's allocating builtins (see above). Every realm core makes calls it, after web.Install
// and before any script runs.
func installAllocGuard(rt *goja.Runtime) error {
	if t, err := lazyGuard(); err == nil {
		return installLazyAllocGuard(rt, t)
	}
	return installEagerAllocGuard(rt)
}

// installDepthGuard installs the call-depth guard (internal/depthguard) with checkpoint cp in a realm core makes,
// before any other setup. Where the allocation guard's templates work (installAllocGuard runs later), the realm's eval
// is guarded when goja makes it, by the global template's hook (depthguard.EvalMade); otherwise at once.
func installDepthGuard(rt *goja.Runtime, size int, cp *depthguard.Checkpoint) error {
	checkpointKey.Set(rt, cp) // arraystop.go: the long array walks poll it
	if _, err := lazyGuard(); err == nil {
		return depthguard.InstallLazyEval(rt, size, cp)
	}
	return depthguard.InstallWithCheckpoint(rt, size, cp)
}

// installLazyAllocGuard gives rt's global object, String.prototype and Array.prototype the derived templates, guards
// at once what setup already made of them, and guards ArrayBuffer. Structured clone takes the engine's typed-array
// constructors when it first needs them (CaptureTypedArrays), through the same templates.
func installLazyAllocGuard(rt *goja.Runtime, t *lazyTemplates) error {
	if err := clone.CaptureTypedArrays(rt); err != nil {
		return err
	}
	g := rt.GlobalObject()
	made, ok := t.global.Install(g)
	if !ok {
		made = make([]string, 0, len(guardedViews)+1)
		for _, v := range guardedViews {
			made = append(made, v.name)
		}
		made = append(made, "eval", "Reflect", "Object", "RegExp", "Array")
	}
	for _, name := range made {
		ctor, ok := gojainternal.TemplateValue(rt, g, name)
		if !ok {
			return errors.New("jsworker: the allocation guard cannot find " + name)
		}
		if name == "eval" {
			depthguard.EvalMade(rt, ctor) // made before the template was installed: guarded now
			continue
		}
		if name == "Reflect" {
			if !guardReflectOK(rt, ctor) {
				return errors.New("jsworker: the allocation guard cannot guard Reflect")
			}
			continue
		}
		if name == "RegExp" {
			regexpMade(rt, ctor)
			continue
		}
		if name == "Array" {
			arrayMade(rt, ctor)
			continue
		}
		if name == "Object" {
			if !guardObjectOK(rt, ctor) {
				return errors.New("jsworker: the allocation guard cannot guard Object")
			}
			continue
		}
		for _, v := range guardedViews {
			if v.name == name && !guardViewOK(rt, ctor, v.size) {
				return errors.New("jsworker: the allocation guard cannot guard " + name)
			}
		}
	}
	ab, ok := gojainternal.TemplateValue(rt, g, "ArrayBuffer")
	if !ok || !guardBuffer(rt, ab) {
		return errors.New("jsworker: the allocation guard cannot guard ArrayBuffer")
	}
	for _, p := range []struct {
		proto *goja.Object
		t     *gojainternal.Template
		names map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value
	}{
		{rt.ToValue("").ToObject(rt).Prototype(), t.stringProto, map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value{
			"repeat": guardRepeat, "padStart": guardPad, "padEnd": guardPad, "split": guardSplit,
			"replaceAll": guardReplaceAll, "match": nil, "replace": nil, "search": nil, "matchAll": nil}},
		{rt.NewArray().Prototype(), t.arrayProto, arrayGuards},
		{functionPrototype(rt), t.funcProto, map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value{
			"apply": guardApply}},
		{rt.NewObject().Prototype(), t.objectProto, map[string]func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value{
			"toLocaleString": guardObjectToLocaleString}},
	} {
		made, ok := p.t.Install(p.proto)
		if !ok {
			made = made[:0]
			for name := range p.names {
				made = append(made, name)
			}
		}
		for _, name := range made {
			if p.t == t.arrayProto && iterationMakers[name] {
				arrayIterationMade(rt, nil) // (below: with the symbols)
				continue
			}
			fn, _ := p.proto.Get(name).(*goja.Object)
			if p.t == t.stringProto && stringRegExpMethods[name] {
				if name == "matchAll" {
					matchAllMade(rt, fn)
				}
				regexpUsed(rt, fn)
				if p.names[name] == nil {
					continue
				}
			}
			if !guardMethodOK(rt, fn, p.names[name]) {
				return errors.New("jsworker: the allocation guard cannot guard " + name)
			}
		}
		// Array.prototype's symbol properties made before its template was installed (or with no template): the
		// hook of Symbol.iterator will not run, so the array iterator is guarded now (iterstop.go).
		if p.t == t.arrayProto {
			if made, known := gojainternal.SymbolsMade(p.proto); known && (made || !ok) &&
				!guardArrayIterator(rt, p.proto.GetSymbol(goja.SymIterator)) {
				return errors.New("jsworker: the allocation guard cannot guard the array iterator")
			}
		}
		if p.t == t.stringProto {
			if made, known := gojainternal.SymbolsMade(p.proto); known && (made || !ok) &&
				!guardStringIterator(rt, p.proto.GetSymbol(goja.SymIterator)) {
				return errors.New("jsworker: the allocation guard cannot guard the string iterator")
			}
		}
	}
	return nil
}

// installEagerAllocGuard wraps the realm's allocating constructors and methods in JavaScript (js/allocguard.js),
// when goja's templates cannot be read. Structured clone captures the engine's typed-array constructors first (or
// takes them from the engine later): the guard replaces those globals with wrappers.
func installEagerAllocGuard(rt *goja.Runtime) error {
	if err := clone.CaptureTypedArrays(rt); err != nil {
		return err
	}
	install, err := allocGuardSource.Call(rt, rt.ToValue(MaxAllocationBytes))
	if err != nil {
		return err
	}
	fn, _ := goja.AssertFunction(install)
	_, err = fn(goja.Undefined(), rt.GlobalObject())
	return err
}

// guardView is the global template's hook for a typed-array constructor: it runs while goja makes the property, so
// it cannot report an error but by throwing (which only a changed goja would make it do).
func guardView(rt *goja.Runtime, ctor goja.Value, size float64) {
	if !guardViewOK(rt, ctor, size) {
		panic(rt.NewTypeError("jsworker: the allocation guard cannot guard a typed-array constructor"))
	}
}

// guardViewOK makes the typed-array constructor ctor refuse a length (or an array-like's length) whose bytes exceed
// MaxAllocationBytes (a buffer or another view as the first argument allocates nothing new or is bounded by it), and
// has typed arrays' iteration poll (iterstop.go).
func guardViewOK(rt *goja.Runtime, ctor goja.Value, size float64) bool {
	o, _ := ctor.(*goja.Object)
	return guardViewLength(rt, o, size) && guardTypedArrayIteration(rt, o)
}

func guardViewLength(rt *goja.Runtime, o *goja.Object, size float64) bool {
	return gojainternal.GuardConstruct(o, func(args []goja.Value) {
		if len(args) == 0 {
			return
		}
		var n float64
		if a, ok := args[0].(*goja.Object); ok {
			if _, callable := goja.AssertFunction(a); !callable {
				switch gojainternal.ObjectKind(a) {
				case gojainternal.KindArrayBuffer, gojainternal.KindTypedArray, gojainternal.KindDataView:
					return
				}
				n = toInteger(a.Get("length"))
			} else {
				n = toInteger(a)
			}
		} else {
			n = toInteger(args[0])
		}
		if n*size > float64(MaxAllocationBytes) {
			panic(rangeError(rt, "Invalid typed array length: "+rt.ToValue(n).String()))
		}
	})
}

// guardBuffer makes the ArrayBuffer constructor ab refuse a length over MaxAllocationBytes.
func guardBuffer(rt *goja.Runtime, ab goja.Value) bool {
	o, _ := ab.(*goja.Object)
	return gojainternal.GuardConstruct(o, func(args []goja.Value) {
		if len(args) > 0 && toInteger(args[0]) > float64(MaxAllocationBytes) {
			panic(rangeError(rt, "Array buffer allocation failed"))
		}
	})
}

// guardMethod turns a method guard into a prototype template's hook.
func guardMethod(guard func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value) func(*goja.Runtime, goja.Value) {
	return func(rt *goja.Runtime, v goja.Value) {
		fn, _ := v.(*goja.Object)
		if !guardMethodOK(rt, fn, guard) {
			panic(rt.NewTypeError("jsworker: the allocation guard cannot guard a method"))
		}
	}
}

func guardMethodOK(rt *goja.Runtime, fn *goja.Object, guard func(*goja.Runtime, goja.FunctionCall, gojainternal.CallFunc) goja.Value) bool {
	return fn != nil && gojainternal.GuardCall(fn, func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		return guard(rt, call, orig)
	})
}

// The method guards convert the receiver and the arguments once, check, and call goja's method with the converted
// values (so that a valueOf or toString runs once, as without the guard).

// stringRegExpMethods are String.prototype's methods whose hooks guard the realm's RegExp.prototype
// (regexpstop.go).
var stringRegExpMethods = map[string]bool{"match": true, "matchAll": true, "replace": true, "replaceAll": true,
	"search": true, "split": true}

// both is a template hook that runs a, then b.
func both(a, b func(*goja.Runtime, goja.Value)) func(*goja.Runtime, goja.Value) {
	return func(rt *goja.Runtime, v goja.Value) { a(rt, v); b(rt, v) }
}

// guardRepeat is String.prototype.repeat(count).
func guardRepeat(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	if nullish(call.This) {
		return orig(call) // goja's TypeError
	}
	s := call.This.ToString()
	n := toInteger(call.Argument(0))
	if l := float64(strLen(s)); l > 0 && !math.IsInf(n, 1) && n*l > maxStringLength {
		panic(rangeError(rt, "Invalid string length"))
	}
	return orig(goja.FunctionCall{This: s, Arguments: []goja.Value{rt.ToValue(n)}})
}

// guardPad is String.prototype.padStart and padEnd(maxLength, fillString).
func guardPad(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	if nullish(call.This) {
		return orig(call)
	}
	s := call.This.ToString()
	n := toInteger(call.Argument(0))
	fill := goja.Value(rt.ToValue(" "))
	if f := call.Argument(1); !goja.IsUndefined(f) {
		fill = f.ToString()
	}
	if n > maxStringLength && n > float64(strLen(s)) && strLen(fill) > 0 {
		panic(rangeError(rt, "Invalid string length"))
	}
	return orig(goja.FunctionCall{This: s, Arguments: []goja.Value{rt.ToValue(n), fill}})
}

// guardJoin is Array.prototype.join(separator).
func guardJoin(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	o := call.This.ToObject(rt)
	n := toInteger(o.Get("length"))
	sep := goja.Value(rt.ToValue(","))
	if s := call.Argument(0); !goja.IsUndefined(s) {
		sep = s.ToString()
	}
	if n > 1 && (n-1)*float64(strLen(sep)) > maxStringLength {
		panic(rangeError(rt, "Invalid string length"))
	}
	if n > arraybuiltin.Threshold { // arraystop.go
		return arraybuiltin.Join(walkRealm(rt), joining(rt), o, math.Min(n, 1<<53-1), sep)
	}
	return orig(goja.FunctionCall{This: o, Arguments: []goja.Value{sep}})
}

// guardObjectToLocaleString is Object.prototype.toLocaleString: Invoke(this, "toString"). goja calls the method
// it reads without looking whether there is one, so `({toString: undefined}).toLocaleString()` was a Go nil
// dereference — out of a host realm's RunScript, a panic in the host — where V8 throws a TypeError; the guard
// throws V8's for a toString that is undefined or null, and calls goja's otherwise (its TypeError for one that is
// not callable).
func guardObjectToLocaleString(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	if nullish(call.This) {
		return orig(call) // goja's TypeError
	}
	o, _ := call.This.(*goja.Object)
	if o == nil {
		o = call.This.ToObject(rt)
	}
	switch f := o.Get("toString"); {
	case f == nil || goja.IsUndefined(f):
		panic(rt.NewTypeError("undefined is not a function"))
	case goja.IsNull(f):
		panic(rt.NewTypeError("object null is not a function"))
	default:
		fn, ok := goja.AssertFunction(f)
		if !ok {
			return orig(call)
		}
		v, err := fn(call.This)
		if err != nil {
			panic(err)
		}
		return v
	}
}

// guardFill is Array.prototype.fill(value, start, end): a dense fill of more slots than MaxAllocationBytes holds
// (16 bytes a slot) is refused.
func guardFill(rt *goja.Runtime, call goja.FunctionCall, orig gojainternal.CallFunc) goja.Value {
	o := call.This.ToObject(rt)
	n := toInteger(o.Get("length"))
	s := clampIndex(toInteger(call.Argument(1)), n)
	e := n
	if end := call.Argument(2); !goja.IsUndefined(end) {
		e = toInteger(end)
	}
	e = clampIndex(e, n)
	if e-s > math.Floor(float64(MaxAllocationBytes)/16) {
		panic(rangeError(rt, "Invalid array length"))
	}
	return orig(goja.FunctionCall{This: o, Arguments: []goja.Value{call.Argument(0), rt.ToValue(s), rt.ToValue(e)}})
}

// clampIndex is a relative index (negative: from the end) clamped to [0, n].
func clampIndex(i, n float64) float64 {
	if i < 0 {
		return math.Max(n+i, 0)
	}
	return math.Min(i, n)
}

// toInteger is ToIntegerOrInfinity: ToNumber, NaN to 0, truncated.
func toInteger(v goja.Value) float64 {
	n := v.ToFloat()
	if math.IsNaN(n) {
		return 0
	}
	return math.Trunc(n)
}

func nullish(v goja.Value) bool { return v == nil || goja.IsUndefined(v) || goja.IsNull(v) }

// strLen is the length in UTF-16 code units of a string value.
func strLen(v goja.Value) int {
	if s, ok := v.(goja.String); ok {
		return s.Length()
	}
	return len(v.String())
}

// rangeError makes a RangeError of the engine's own (a script may have replaced the global).
func rangeError(rt *goja.Runtime, msg string) goja.Value {
	ctor, ok := gojainternal.TemplateValue(rt, rt.GlobalObject(), "RangeError")
	if !ok {
		ctor = rt.GlobalObject().Get("RangeError")
	}
	e, err := rt.New(ctor, rt.ToValue(msg))
	if err != nil {
		panic(err)
	}
	return e
}
