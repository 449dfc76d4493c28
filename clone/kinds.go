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
// is exactly the one goja uses for ordinary objects, arrays or dates, as
// learned once from sample values in a private runtime. Everything else is
// rejected, with a message naming its kind when the sample table knows it.
//
// If a goja upgrade renames the field, probeErr is set and Serialize fails
// closed; the package tests catch it.

type kind uint8

const (
	kindUnknown  kind = iota
	kindPlain         // ordinary object: clone own enumerable string keys
	kindArray         // dense goja array
	kindSparse        // sparse goja array
	kindDate          // Date (or subclass instance)
	kindLater         // cloneable in HTML, not yet in this version
	kindNever         // never cloneable
	kindFunction      // callable
)

type kindInfo struct {
	kind kind
	name string // for messages, e.g. "Map"
}

var (
	selfField = -1 // index of goja.Object.self
	probeErr  error

	kindsOnce sync.Once
	plainType reflect.Type // *goja.baseObject
	arrayType reflect.Type // *goja.arrayObject
	sparseTyp reflect.Type // *goja.sparseArrayObject
	dateType  reflect.Type // *goja.dateObject
	kindTable map[reflect.Type]kindInfo

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

// kindSamples are evaluated once in a private runtime to learn which Go type
// goja uses for each kind. Order matters: the first sample of a type wins, so
// the accepted kinds come first and cannot be shadowed.
var kindSamples = []struct {
	src  string
	info kindInfo
}{
	{`({})`, kindInfo{kindPlain, "Object"}},
	{`[]`, kindInfo{kindArray, "Array"}},
	{`(function () { var a = []; a[1e6] = 1; return a; })()`, kindInfo{kindSparse, "Array"}},
	{`new Date(0)`, kindInfo{kindDate, "Date"}},

	{`new Map()`, kindInfo{kindLater, "Map"}},
	{`new Set()`, kindInfo{kindLater, "Set"}},
	{`/x/`, kindInfo{kindLater, "RegExp"}},
	{`new Error()`, kindInfo{kindLater, "Error"}},
	{`new Number(0)`, kindInfo{kindLater, ""}}, // wrappers: named from the value, see wrapperName
	{`new String("")`, kindInfo{kindLater, "String"}},
	{`new ArrayBuffer(0)`, kindInfo{kindLater, "ArrayBuffer"}},
	{`new Uint8Array(0)`, kindInfo{kindLater, "TypedArray"}},
	{`new DataView(new ArrayBuffer(0))`, kindInfo{kindLater, "DataView"}},

	{`new WeakMap()`, kindInfo{kindNever, "WeakMap"}},
	{`new WeakSet()`, kindInfo{kindNever, "WeakSet"}},
	{`new Proxy({}, {})`, kindInfo{kindNever, "Proxy"}},
	{`Promise.resolve()`, kindInfo{kindNever, "Promise"}},
	{`(function* () {})()`, kindInfo{kindNever, "Generator"}},
	{`[].values()`, kindInfo{kindNever, "Array Iterator"}},
	{`new Map().entries()`, kindInfo{kindNever, "Map Iterator"}},
	{`new Set().values()`, kindInfo{kindNever, "Set Iterator"}},
	{`""[Symbol.iterator]()`, kindInfo{kindNever, "String Iterator"}},
	{`"a".matchAll(/a/g)`, kindInfo{kindNever, "RegExp String Iterator"}},
	{`(function () { return arguments; })()`, kindInfo{kindNever, "Arguments"}},
}

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
		for t, info := range table {
			switch info.kind {
			case kindPlain:
				plainType = t
			case kindArray:
				arrayType = t
			case kindSparse:
				sparseTyp = t
			case kindDate:
				dateType = t
			}
		}
		if plainType == nil || arrayType == nil || dateType == nil {
			probeErr = errors.New("jsworker: structured clone cannot identify goja objects (sample kinds missing)")
			return
		}
		kindTable = table
	})
}

// rejectObject builds the DataCloneError for an object Serialize does not
// accept. For a function it reads "name", which a static getter may
// override; an exception there just leaves the name out.
func rejectObject(rt *goja.Runtime, o *goja.Object, t reflect.Type) *DataCloneError {
	if _, ok := goja.AssertFunction(o); ok && t != nil && kindTable[t].kind == kindUnknown {
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
	info := kindTable[t]
	switch info.kind {
	case kindLater:
		name := info.name
		if name == "" {
			name = wrapperName(o)
		}
		if name == "Symbol" {
			return &DataCloneError{Message: "#<Symbol> could not be cloned."}
		}
		return &DataCloneError{Message: name + " objects cannot be cloned by this version."}
	case kindNever:
		return &DataCloneError{Message: "#<" + info.name + "> could not be cloned."}
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
