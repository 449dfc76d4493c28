package inspector

import (
	"log"
	"reflect"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Telling object kinds apart without running JavaScript.
//
// goja's ClassName is "Object" for Map, Set, WeakMap, WeakSet, typed arrays,
// DataView, iterators and generators alike, and a prototype check runs the
// realm's code (and can be forged). The kind comes from
// internal/gojainternal, which reads the Go type behind the object.
//
// Failing closed: if gojainternal cannot read this goja (a goja upgrade
// changed its internals; its tests fail loudly), the inspector keeps
// working but classifies through goja's public API only (ClassName and
// ExportType). That still tells arrays, arguments, errors, dates, regexps,
// promises, proxies and ArrayBuffers apart, and above all never mistakes a
// Proxy for another object (its traps are never run); Maps, Sets, typed
// arrays and the like are then shown as generic objects, with no entries
// or internal properties. The reason is logged once per process (package
// log), naming gojainternal's error.

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

var (
	kindsFailure sync.Once

	typePromise     = reflect.TypeFor[*goja.Promise]()
	typeProxy       = reflect.TypeFor[goja.Proxy]()
	typeArrayBuffer = reflect.TypeFor[goja.ArrayBuffer]()
)

// fromInternal maps gojainternal's kinds to the inspector's; kinds missing
// here are classified by ClassName.
var fromInternal = map[gojainternal.Kind]kindEntry{
	gojainternal.KindArray:                {kindArray, ""},
	gojainternal.KindArguments:            {kindArguments, ""},
	gojainternal.KindRegExp:               {kindRegExp, ""},
	gojainternal.KindDate:                 {kindDate, ""},
	gojainternal.KindMap:                  {kindMap, "Map"},
	gojainternal.KindSet:                  {kindSet, "Set"},
	gojainternal.KindWeakMap:              {kindWeakMap, "WeakMap"},
	gojainternal.KindWeakSet:              {kindWeakSet, "WeakSet"},
	gojainternal.KindError:                {kindError, ""},
	gojainternal.KindPromise:              {kindPromise, "Promise"},
	gojainternal.KindProxy:                {kindProxy, ""},
	gojainternal.KindTypedArray:           {kindTypedArray, ""},
	gojainternal.KindArrayBuffer:          {kindArrayBuffer, "ArrayBuffer"},
	gojainternal.KindDataView:             {kindDataView, "DataView"},
	gojainternal.KindArrayIterator:        {kindIterator, "Array Iterator"},
	gojainternal.KindMapIterator:          {kindIterator, "Map Iterator"},
	gojainternal.KindSetIterator:          {kindIterator, "Set Iterator"},
	gojainternal.KindStringIterator:       {kindIterator, "String Iterator"},
	gojainternal.KindRegExpStringIterator: {kindIterator, "RegExp String Iterator"},
	gojainternal.KindGenerator:            {kindGenerator, "Generator"},
	gojainternal.KindAsyncGenerator:       {kindGenerator, "AsyncGenerator"},
	gojainternal.KindPrimitive:            {kindWrapper, ""},
	gojainternal.KindString:               {kindWrapper, ""},
}

// classify returns o's kind and, for kinds goja names "Object", the class
// name to report. It runs no JavaScript.
func classify(o *goja.Object) kindEntry {
	if err := gojainternal.Kinds(); err != nil {
		kindsFailure.Do(func() {
			log.Printf("jsworker inspector: %v; objects are classified by class name only "+
				"(Map, Set, typed arrays, iterators ... are shown as generic objects)", err)
		})
	} else if e, ok := fromInternal[gojainternal.ObjectKind(o)]; ok {
		return e
	}
	return classifyPublic(o)
}

// classifyPublic classifies o through goja's public API only.
func classifyPublic(o *goja.Object) kindEntry {
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
