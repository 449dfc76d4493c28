package clone

import (
	"errors"
	"math/big"
	"reflect"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// Telling object kinds apart.
//
// goja reports ClassName "Object" and a map ExportType for plain objects and
// also for WeakMap, WeakSet, DataView, generators and iterators, and a
// prototype check can be fooled (Object.setPrototypeOf(new WeakMap,
// Object.prototype) looks plain). The one fact that cannot be forged from JS
// is the Go type behind the object, the dynamic type of goja.Object's
// unexported interface field "self". We read that type with reflect (no
// unsafe, no allocation, about 10 ns) and accept an object only when its type
// is one goja uses for a cloneable kind, as learned once from sample values
// in a private runtime. Everything else is rejected, with a message naming
// its kind when the sample table knows it.
//
// If a goja upgrade renames the field, probeErr is set and Serialize fails
// closed; the package tests catch it.

type kind uint8

const (
	kindUnknown  kind = iota
	kindPlain         // ordinary object: clone own enumerable string keys
	kindArray         // Array exotic object
	kindDate          // Date (or subclass instance)
	kindRegExp        // RegExp
	kindMap           // Map
	kindSet           // Set
	kindError         // Error and its subclasses
	kindWrapper       // Boolean, Number, BigInt (and Symbol: rejected) wrapper
	kindString        // String wrapper
	kindBuffer        // ArrayBuffer (and SharedArrayBuffer)
	kindTyped         // typed array
	kindDataView      // DataView
	kindNever         // never cloneable
)

type kindInfo struct {
	kind kind
	name string // for messages, e.g. "WeakMap"
}

var (
	selfField = -1 // index of goja.Object.self
	probeErr  error

	kindsOnce  sync.Once
	kindTable  map[reflect.Type]kindInfo
	plainType  reflect.Type // *goja.baseObject, the usual plain object
	arrayType  reflect.Type // *goja.arrayObject, the usual array
	bufferType reflect.Type // *goja.arrayBufferObject

	asciiStringType = reflect.TypeOf(goja.StringFromUTF16(nil))
)

func init() {
	f, ok := reflect.TypeFor[goja.Object]().FieldByName("self")
	if !ok || f.Type.Kind() != reflect.Interface || len(f.Index) != 1 {
		probeErr = errors.New("jsworker: structured clone cannot identify goja objects (goja.Object layout changed)")
		return
	}
	selfField = f.Index[0]
}

// implType returns the Go type implementing o inside goja, or nil for a
// zero goja.Object.
func implType(o *goja.Object) reflect.Type {
	self := reflect.ValueOf(o).Elem().Field(selfField)
	if self.IsNil() {
		return nil
	}
	return self.Elem().Type()
}

// kindOf returns the kind of an object of Go type t.
func kindOf(t reflect.Type) kind { return kindTable[t].kind }

// kindSamples are evaluated once in a private runtime to learn which Go type
// goja uses for each kind. Order matters: the first sample of a type wins, so
// the accepted kinds come first and cannot be shadowed.
var kindSamples = []struct {
	src  string
	info kindInfo
}{
	{`({})`, kindInfo{kindPlain, "Object"}},
	{`Object.prototype`, kindInfo{kindPlain, "Object"}}, // a lazily built ordinary object (also Math)
	{`RegExp.prototype`, kindInfo{kindPlain, "Object"}}, // an ordinary object goja watches for changes
	{`[]`, kindInfo{kindArray, "Array"}},
	{`(function () { var a = []; a[1e6] = 1; return a; })()`, kindInfo{kindArray, "Array"}},
	{`Array.prototype`, kindInfo{kindArray, "Array"}},
	{`new Date(0)`, kindInfo{kindDate, "Date"}},
	{`/x/`, kindInfo{kindRegExp, "RegExp"}},
	{`new Map()`, kindInfo{kindMap, "Map"}},
	{`new Set()`, kindInfo{kindSet, "Set"}},
	{`new Error()`, kindInfo{kindError, "Error"}},
	{`new Number(0)`, kindInfo{kindWrapper, ""}}, // named from the value, see wrapperName
	{`new String("")`, kindInfo{kindString, "String"}},
	{`new ArrayBuffer(0)`, kindInfo{kindBuffer, "ArrayBuffer"}},
	{`new Uint8Array(0)`, kindInfo{kindTyped, "TypedArray"}},
	{`new DataView(new ArrayBuffer(0))`, kindInfo{kindDataView, "DataView"}},

	{`new WeakMap()`, kindInfo{kindNever, "WeakMap"}},
	{`new WeakSet()`, kindInfo{kindNever, "WeakSet"}},
	{`new Proxy({}, {})`, kindInfo{kindNever, "Proxy"}},
	{`Promise.resolve()`, kindInfo{kindNever, "Promise"}},
	{`(function* () {})()`, kindInfo{kindNever, "Generator"}},
	{`(async function* () {})()`, kindInfo{kindNever, "AsyncGenerator"}}, // not in goja yet
	{`[].values()`, kindInfo{kindNever, "Array Iterator"}},
	{`new Map().entries()`, kindInfo{kindNever, "Map Iterator"}},
	{`new Set().values()`, kindInfo{kindNever, "Set Iterator"}},
	{`""[Symbol.iterator]()`, kindInfo{kindNever, "String Iterator"}},
	{`"a".matchAll(/a/g)`, kindInfo{kindNever, "RegExp String Iterator"}},
	{`(function () { return arguments; })()`, kindInfo{kindNever, "Arguments"}},
}

// nativeFuncSamples are builtins whose Go types are those of goja's own
// function objects (see realm.go).
var nativeFuncSamples = []string{`Math.max`, `Date`, `Map`}

// loadKinds fills the kind table once per process.
func loadKinds() {
	kindsOnce.Do(func() {
		if probeErr != nil {
			return
		}
		rt := goja.New()
		table := make(map[reflect.Type]kindInfo, len(kindSamples))
		for _, s := range kindSamples {
			v, err := rt.RunString(s.src)
			if err != nil {
				continue // an engine without this builtin: its objects stay unknown
			}
			o, ok := v.(*goja.Object)
			if !ok {
				continue
			}
			t := implType(o)
			if _, dup := table[t]; !dup {
				table[t] = s.info
			}
		}
		for _, src := range nativeFuncSamples {
			if v, err := rt.RunString(src); err == nil {
				if o, ok := v.(*goja.Object); ok {
					nativeFuncTypes[implType(o)] = true
				}
			}
		}
		sample := func(src string) reflect.Type {
			v, _ := rt.RunString(src)
			if o, ok := v.(*goja.Object); ok {
				return implType(o)
			}
			return nil
		}
		plainType, arrayType, bufferType = sample(`({})`), sample(`[]`), sample(`new ArrayBuffer(0)`)
		if kindIn(table, plainType) != kindPlain || kindIn(table, arrayType) != kindArray ||
			kindIn(table, bufferType) != kindBuffer || len(nativeFuncTypes) == 0 {
			probeErr = errors.New("jsworker: structured clone cannot identify goja objects (sample kinds missing)")
			return
		}
		kindTable = table
		loadNamesHint(rt)
	})
}

func kindIn(table map[reflect.Type]kindInfo, t reflect.Type) kind {
	if t == nil {
		return kindUnknown
	}
	return table[t].kind
}

// rejectObject builds the DataCloneError for an object Serialize does not
// accept. For a function it reads "name", which a static getter may
// override; an exception there just leaves the name out.
func rejectObject(rt *goja.Runtime, o *goja.Object, t reflect.Type) *DataCloneError {
	info := kindTable[t]
	if _, ok := goja.AssertFunction(o); ok && info.kind == kindUnknown {
		name := ""
		rt.Try(func() {
			if s, ok := o.Get("name").(goja.String); ok {
				name = s.String()
			}
		})
		if len(name) > 64 {
			name = strings.ToValidUTF8(name[:64], "") + "…"
		}
		return &DataCloneError{Message: "function " + name + "() {…} could not be cloned."}
	}
	if info.kind == kindNever {
		return &DataCloneError{Message: "#<" + info.name + "> could not be cloned."}
	}
	if info.kind == kindWrapper {
		return &DataCloneError{Message: "#<" + wrapperName(o) + "> could not be cloned."}
	}
	return &DataCloneError{Message: "#<" + o.ClassName() + "> could not be cloned."}
}

// wrapperName names a primitive wrapper object by its primitive's type.
func wrapperName(o *goja.Object) string {
	switch o.ExportType() {
	case reflect.TypeFor[bool]():
		return "Boolean"
	case reflect.TypeFor[*big.Int]():
		return "BigInt"
	case reflect.TypeFor[string]():
		return "Symbol"
	}
	return "Number"
}
