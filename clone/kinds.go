package clone

import (
	"math/big"
	"reflect"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Telling object kinds apart.
//
// goja reports ClassName "Object" and a map ExportType for plain objects and
// also for WeakMap, WeakSet, DataView, generators and iterators, and a
// prototype check can be fooled (Object.setPrototypeOf(new WeakMap,
// Object.prototype) looks plain). The one fact that cannot be forged from JS
// is the Go type behind the object, which internal/gojainternal reads (the
// one package that knows goja's internals). An object is accepted only when
// its kind is a cloneable one; everything else is rejected, with a message
// naming its kind when gojainternal knows it.
//
// If gojainternal cannot read this goja (Kinds returns an error), Serialize,
// Deserialize and CaptureBuiltins fail closed with that error; the package
// tests of gojainternal catch it.

type kind = gojainternal.Kind

const (
	kindPlain    = gojainternal.KindPlain
	kindOrdinary = gojainternal.KindOrdinary
	kindArray    = gojainternal.KindArray
	kindDate     = gojainternal.KindDate
	kindRegExp   = gojainternal.KindRegExp
	kindMap      = gojainternal.KindMap
	kindSet      = gojainternal.KindSet
	kindError    = gojainternal.KindError
	kindWrapper  = gojainternal.KindPrimitive // Boolean, Number, BigInt (and Symbol: rejected) wrapper
	kindString   = gojainternal.KindString    // String wrapper
	kindBuffer   = gojainternal.KindArrayBuffer
	kindTyped    = gojainternal.KindTypedArray
	kindDataView = gojainternal.KindDataView
)

// kindOf returns the kind of o.
func kindOf(o *goja.Object) kind { return gojainternal.ObjectKind(o) }

// isArrayBuffer reports whether o is an ArrayBuffer (or one of sharedmem's
// SharedArrayBuffers, which are ArrayBuffers to goja).
func isArrayBuffer(o *goja.Object) bool { return kindOf(o) == kindBuffer }

// rejectObject builds the DataCloneError for an object Serialize does not
// accept. For a function it reads "name", which a static getter may
// override; an exception there just leaves the name out.
func rejectObject(rt *goja.Runtime, o *goja.Object) *DataCloneError {
	k := kindOf(o)
	if _, ok := goja.AssertFunction(o); ok && (k == gojainternal.KindUnknown || k == gojainternal.KindNativeFunction) {
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
	switch k {
	case gojainternal.KindWeakMap, gojainternal.KindWeakSet, gojainternal.KindProxy, gojainternal.KindPromise,
		gojainternal.KindGenerator, gojainternal.KindAsyncGenerator, gojainternal.KindArrayIterator,
		gojainternal.KindMapIterator, gojainternal.KindSetIterator, gojainternal.KindStringIterator,
		gojainternal.KindRegExpStringIterator, gojainternal.KindArguments:
		return &DataCloneError{Message: "#<" + k.String() + "> could not be cloned."}
	case kindWrapper:
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
