package inspector

import (
	"reflect"
	"sync"

	"github.com/dop251/goja"
)

// Telling object kinds apart without running JavaScript.
//
// goja's ClassName is "Object" for Map, Set, WeakMap, WeakSet, typed arrays,
// DataView, iterators and generators alike, and a prototype check runs the
// realm's code (and can be forged). As package clone does, we read the Go
// type behind goja.Object's unexported "self" field with reflect and look it
// up in a table learned once from sample values. If a goja upgrade changes the
// layout, the table stays empty and classification falls back to ClassName
// and ExportType, which still tell arrays, errors, dates, regexps, promises,
// proxies and ArrayBuffers apart; the package tests fail loudly.

type objKind uint8

const (
	kindPlain objKind = iota
	kindArray
	kindArguments
	kindRegExp
	kindDate
	kindMap
	kindSet
	kindWeakMap
	kindWeakSet
	kindError
	kindPromise
	kindProxy
	kindTypedArray
	kindArrayBuffer
	kindDataView
	kindIterator
	kindGenerator
	kindWrapper // Number, String, Boolean, BigInt or Symbol object
)

// subtype is CDP's RemoteObject.subtype for each kind ("" for none).
var subtypes = [...]string{
	kindPlain:       "",
	kindArray:       "array",
	kindArguments:   "array",
	kindRegExp:      "regexp",
	kindDate:        "date",
	kindMap:         "map",
	kindSet:         "set",
	kindWeakMap:     "weakmap",
	kindWeakSet:     "weakset",
	kindError:       "error",
	kindPromise:     "promise",
	kindProxy:       "proxy",
	kindTypedArray:  "typedarray",
	kindArrayBuffer: "arraybuffer",
	kindDataView:    "dataview",
	kindIterator:    "iterator",
	kindGenerator:   "generator",
	kindWrapper:     "",
}

type kindEntry struct {
	kind objKind
	name string // class name for kinds whose ClassName is "Object", e.g. "Map Iterator"
}

var kindSamples = []struct {
	src   string
	entry kindEntry
}{
	{`({})`, kindEntry{kindPlain, ""}}, // first: a kind sharing this Go type stays plain
	{`[]`, kindEntry{kindArray, ""}},
	{`(function () { var a = []; a[1e6] = 1; return a; })()`, kindEntry{kindArray, ""}},
	{`(function () { return arguments; })()`, kindEntry{kindArguments, ""}},
	{`/x/`, kindEntry{kindRegExp, ""}},
	{`new Date(0)`, kindEntry{kindDate, ""}},
	{`new Map()`, kindEntry{kindMap, "Map"}},
	{`new Set()`, kindEntry{kindSet, "Set"}},
	{`new WeakMap()`, kindEntry{kindWeakMap, "WeakMap"}},
	{`new WeakSet()`, kindEntry{kindWeakSet, "WeakSet"}},
	{`new Error()`, kindEntry{kindError, ""}},
	{`Promise.resolve()`, kindEntry{kindPromise, "Promise"}},
	{`new Proxy({}, {})`, kindEntry{kindProxy, ""}},
	{`new Uint8Array(0)`, kindEntry{kindTypedArray, ""}},
	{`new ArrayBuffer(0)`, kindEntry{kindArrayBuffer, "ArrayBuffer"}},
	{`new DataView(new ArrayBuffer(0))`, kindEntry{kindDataView, "DataView"}},
	{`[].values()`, kindEntry{kindIterator, "Array Iterator"}},
	{`new Map().entries()`, kindEntry{kindIterator, "Map Iterator"}},
	{`new Set().values()`, kindEntry{kindIterator, "Set Iterator"}},
	{`""[Symbol.iterator]()`, kindEntry{kindIterator, "String Iterator"}},
	{`"a".matchAll(/a/g)`, kindEntry{kindIterator, "RegExp String Iterator"}},
	{`(function* () {})()`, kindEntry{kindGenerator, "Generator"}},
	{`new Number(0)`, kindEntry{kindWrapper, ""}},
	{`new String("")`, kindEntry{kindWrapper, ""}},
}

var (
	selfField = -1 // index of goja.Object.self, -1 when the layout is unknown
	kindsOnce sync.Once
	kindTable map[reflect.Type]kindEntry

	typePromise     = reflect.TypeFor[*goja.Promise]()
	typeProxy       = reflect.TypeFor[goja.Proxy]()
	typeArrayBuffer = reflect.TypeFor[goja.ArrayBuffer]()
)

func init() {
	f, ok := reflect.TypeFor[goja.Object]().FieldByName("self")
	if ok && f.Type.Kind() == reflect.Interface && len(f.Index) == 1 {
		selfField = f.Index[0]
	}
}

// implType returns the Go type implementing o inside goja, or nil.
func implType(o *goja.Object) reflect.Type {
	if selfField < 0 {
		return nil
	}
	self := reflect.ValueOf(o).Elem().Field(selfField)
	if self.IsNil() {
		return nil
	}
	return self.Elem().Type()
}

func loadKinds() {
	kindsOnce.Do(func() {
		table := make(map[reflect.Type]kindEntry, len(kindSamples))
		if selfField >= 0 {
			rt := goja.New()
			for _, s := range kindSamples {
				v, err := rt.RunString(s.src)
				if err != nil {
					continue
				}
				o, ok := v.(*goja.Object)
				if !ok {
					continue
				}
				if t := implType(o); t != nil {
					if _, dup := table[t]; !dup {
						table[t] = s.entry
					}
				}
			}
		}
		kindTable = table
	})
}

// classify returns o's kind and, for kinds goja names "Object", the class
// name to report. It runs no JavaScript.
func classify(o *goja.Object) kindEntry {
	loadKinds()
	if e, ok := kindTable[implType(o)]; ok && e.kind != kindPlain {
		return e
	}
	switch o.ClassName() {
	case "Array":
		return kindEntry{kindArray, ""}
	case "Arguments":
		return kindEntry{kindArguments, ""}
	case "RegExp":
		return kindEntry{kindRegExp, ""}
	case "Date":
		return kindEntry{kindDate, ""}
	case "Error":
		return kindEntry{kindError, ""}
	}
	switch o.ExportType() {
	case typePromise:
		return kindEntry{kindPromise, "Promise"}
	case typeProxy:
		return kindEntry{kindProxy, ""}
	case typeArrayBuffer:
		return kindEntry{kindArrayBuffer, "ArrayBuffer"}
	}
	return kindEntry{kindPlain, ""}
}

// isProxy reports whether o is a Proxy, whose traps must never be triggered.
func isProxy(o *goja.Object) bool {
	return classify(o).kind == kindProxy
}
