package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// Kind is the kind of a goja object as told by the Go type behind it. It
// cannot be forged from JavaScript: Object.setPrototypeOf(new WeakMap,
// Map.prototype) is still a WeakMap, and a Proxy is a Proxy whatever its
// target.
type Kind uint8

// The kinds. KindPlain is goja's usual ordinary object (what {} makes);
// KindOrdinary is every other Go type goja uses for ordinary objects (the
// lazily built prototypes, Math, the global object). KindUnknown is any type
// the sample table does not know: script functions, Go values reflected
// into JavaScript, dynamic objects, and everything when the probe failed.
const (
	KindUnknown Kind = iota
	KindInvalid      // a zero goja.Object, with no implementation
	KindPlain
	KindOrdinary
	KindArray
	KindArguments
	KindDate
	KindRegExp
	KindMap
	KindSet
	KindWeakMap
	KindWeakSet
	KindError
	KindPromise
	KindProxy
	KindPrimitive // Number, Boolean, BigInt and Symbol wrapper objects
	KindString    // String wrapper object
	KindArrayBuffer
	KindTypedArray
	KindDataView
	KindGenerator
	KindAsyncGenerator
	KindArrayIterator
	KindMapIterator
	KindSetIterator
	KindStringIterator
	KindRegExpStringIterator
	KindNativeFunction // one of goja's builtin functions, or a Go function given to the runtime
	numKinds
)

var kindNames = [numKinds]string{
	KindUnknown: "unknown", KindInvalid: "invalid", KindPlain: "Object", KindOrdinary: "Object",
	KindArray: "Array", KindArguments: "Arguments", KindDate: "Date", KindRegExp: "RegExp", KindMap: "Map",
	KindSet: "Set", KindWeakMap: "WeakMap", KindWeakSet: "WeakSet", KindError: "Error", KindPromise: "Promise",
	KindProxy: "Proxy", KindPrimitive: "primitive wrapper", KindString: "String", KindArrayBuffer: "ArrayBuffer",
	KindTypedArray: "TypedArray", KindDataView: "DataView", KindGenerator: "Generator",
	KindAsyncGenerator: "AsyncGenerator", KindArrayIterator: "Array Iterator", KindMapIterator: "Map Iterator",
	KindSetIterator: "Set Iterator", KindStringIterator: "String Iterator",
	KindRegExpStringIterator: "RegExp String Iterator", KindNativeFunction: "Function",
}

// String returns the class name of the kind as JavaScript engines print it
// ("Map", "Array Iterator"), or "unknown".
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// kindSamples teach the probe which Go type goja uses for each kind.
// required samples must run and be recognised; the others may be missing
// from an engine (async generators are not in goja yet). Two samples of
// different kinds sharing a Go type make the probe fail: the table would
// have to guess.
var kindSamples = []struct {
	src      string
	kind     Kind
	required bool
}{
	{`({})`, KindPlain, true},
	{`Object.create(null)`, KindPlain, true},
	{`Object.prototype`, KindOrdinary, true}, // a lazily built ordinary object (also Math, globalThis)
	{`RegExp.prototype`, KindOrdinary, true}, // an ordinary object goja watches for changes
	{`[]`, KindArray, true},
	{`(function () { var a = []; a[1e6] = 1; return a; })()`, KindArray, true},
	{`Array.prototype`, KindArray, true},
	{`(function () { return arguments; })()`, KindArguments, false},
	{`new Date(0)`, KindDate, true},
	{`/x/`, KindRegExp, true},
	{`new Map()`, KindMap, true},
	{`new Set()`, KindSet, true},
	{`new WeakMap()`, KindWeakMap, true},
	{`new WeakSet()`, KindWeakSet, true},
	{`new Error()`, KindError, true},
	{`new TypeError()`, KindError, true},
	{`Promise.resolve()`, KindPromise, true},
	{`new Proxy({}, {})`, KindProxy, true},
	{`new Proxy(function () {}, {})`, KindProxy, true},
	{`new Number(0)`, KindPrimitive, true},
	{`new Boolean(false)`, KindPrimitive, true},
	{`Object(1n)`, KindPrimitive, true},
	{`Object(Symbol())`, KindPrimitive, true},
	{`new String("")`, KindString, true},
	{`new ArrayBuffer(0)`, KindArrayBuffer, true},
	{`new Uint8Array(0)`, KindTypedArray, true},
	{`new Float64Array(0)`, KindTypedArray, true},
	{`new DataView(new ArrayBuffer(0))`, KindDataView, true},
	{`(function* () {})()`, KindGenerator, false},
	{`(async function* () {})()`, KindAsyncGenerator, false},
	{`[].values()`, KindArrayIterator, false},
	{`new Map().entries()`, KindMapIterator, false},
	{`new Set().values()`, KindSetIterator, false},
	{`""[Symbol.iterator]()`, KindStringIterator, false},
	{`"a".matchAll(/a/g)`, KindRegExpStringIterator, false},
	{`Math.max`, KindNativeFunction, true},
	{`Date`, KindNativeFunction, true}, // a lazily built constructor
	{`Map`, KindNativeFunction, true},
}

// notKindSamples must stay KindUnknown: above all, no function a script can
// make may pass for a native one.
var notKindSamples = []string{
	`(function () {})`, `(() => 1)`, `(class {})`, `(function* () {})`, `(async function () {})`,
	`(function () {}).bind(null)`,
}

var kinds struct {
	once     sync.Once
	err      error
	byTab    map[unsafe.Pointer]Kind // by the itab of goja.Object.self
	byType   map[reflect.Type]Kind   // the same, through reflect (the fallback)
	plainTab unsafe.Pointer          // ({})'s
	arrayTab unsafe.Pointer          // []'s
}

// Kinds locates object classification once per process and returns nil if
// it works, or the error that makes every ObjectKind answer KindUnknown.
func Kinds() error {
	if err := simulatedErr(); err != nil {
		return err
	}
	return loadKinds()
}

// loadKinds runs the probe once and returns its own error.
func loadKinds() error {
	kinds.once.Do(func() {
		if err := locateSelf(); err != nil {
			kinds.err = probeError("objects", err)
			return
		}
		if err := probeKinds(); err != nil {
			kinds.byTab, kinds.byType = nil, nil
			kinds.err = probeError("object kinds", err)
		}
	})
	return kinds.err
}

func probeKinds() error { return withProbeRuntime(probeKindsOn) }

// probeKindsOn classifies kindSamples and notKindSamples made in rt.
func probeKindsOn(rt *goja.Runtime) error {
	byTab := map[unsafe.Pointer]Kind{}
	byType := map[reflect.Type]Kind{}
	sampleOf := map[reflect.Type]string{}
	for _, s := range kindSamples {
		o, err := sample(rt, s.src)
		if err != nil {
			if s.required {
				return err
			}
			continue
		}
		t, tab := implType(o), selfOf(o).tab
		if t == nil || tab == nil {
			return fmt.Errorf("sample %s has no implementation", s.src)
		}
		if k, dup := byType[t]; dup && k != s.kind {
			return fmt.Errorf("%s (%s) and %s (%s) share the Go type %s", sampleOf[t], k, s.src, s.kind, t)
		}
		if k, dup := byTab[tab]; dup && k != s.kind {
			return fmt.Errorf("%s and %s share a type word", sampleOf[t], s.src)
		}
		byType[t], byTab[tab], sampleOf[t] = s.kind, s.kind, s.src
	}
	for _, src := range notKindSamples {
		o, err := sample(rt, src)
		if err != nil {
			return err
		}
		if k := byType[implType(o)]; k != KindUnknown {
			return fmt.Errorf("the script function %s has the Go type of %s", src, k)
		}
	}
	for _, v := range []goja.Value{rt.ToValue(struct{ A int }{}), rt.NewDynamicObject(nil), rt.ToValue(map[string]int{})} {
		if k := byType[implType(v.(*goja.Object))]; k != KindUnknown {
			return fmt.Errorf("a Go value reflected into the runtime has the Go type of %s", k)
		}
	}
	var zero goja.Object
	if implType(&zero) != nil || selfOf(&zero).tab != nil {
		return errors.New("a zero goja.Object has an implementation")
	}
	plain, _ := sample(rt, `({})`)
	array, _ := sample(rt, `[]`)
	kinds.byTab, kinds.byType = byTab, byType
	kinds.plainTab, kinds.arrayTab = selfOf(plain).tab, selfOf(array).tab
	return nil
}

// ObjectKind returns o's kind. It runs no JavaScript, never panics, and
// answers KindUnknown for everything if Kinds reports an error. A nil o is
// KindInvalid.
func ObjectKind(o *goja.Object) Kind {
	if Kinds() != nil {
		return KindUnknown
	}
	if o == nil {
		return KindInvalid
	}
	tab := selfOf(o).tab
	switch tab {
	case kinds.plainTab:
		return KindPlain
	case kinds.arrayTab:
		return KindArray
	case nil:
		return KindInvalid
	}
	if k, ok := kinds.byTab[tab]; ok {
		return k
	}
	// A type word the samples did not produce: ask reflect, which compares
	// types rather than type words, so the answer cannot differ.
	return kinds.byType[implType(o)]
}

// IsNativeFunction reports whether o is one of goja's builtin function
// objects (or a Go function given to the runtime): an object no script can
// make, only move around.
func IsNativeFunction(o *goja.Object) bool { return ObjectKind(o) == KindNativeFunction }
