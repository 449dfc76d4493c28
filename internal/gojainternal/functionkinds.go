package gojainternal

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// Whether goja has made a realm's AsyncFunction and GeneratorFunction (goja.Runtime.global.AsyncFunctionPrototype
// and GeneratorFunctionPrototype, made lazily, each with its constructor, when the realm makes its first async
// function or generator object): internal/depthguard guards the two constructors only once they can be reached. The
// offsets are found by name with reflect once and confirmed on a sample runtime; a goja upgrade that renames or
// retypes the fields makes FunctionKindsMade answer ok=false.
var functionKinds struct {
	once            sync.Once
	err             error
	offGlobal       uintptr
	offAsync, offGn uintptr
}

func probeFunctionKinds() {
	g, ok := reflect.TypeFor[goja.Runtime]().FieldByName("global")
	if !ok || g.Type.Kind() != reflect.Struct {
		functionKinds.err = errors.New("gojainternal: goja.Runtime has no struct field global (goja changed)")
		return
	}
	objPtr := reflect.TypeFor[*goja.Object]()
	a, okA := g.Type.FieldByName("AsyncFunctionPrototype")
	gn, okG := g.Type.FieldByName("GeneratorFunctionPrototype")
	if !okA || !okG || a.Type != objPtr || gn.Type != objPtr {
		functionKinds.err = errors.New("gojainternal: goja's global has no *Object fields AsyncFunctionPrototype and GeneratorFunctionPrototype (goja changed)")
		return
	}
	functionKinds.offGlobal, functionKinds.offAsync, functionKinds.offGn = g.Offset, a.Offset, gn.Offset
	rt := goja.New()
	a0, g0 := readFunctionKinds(rt)
	v, err := rt.RunString(`[Object.getPrototypeOf(async function () {}), Object.getPrototypeOf(function* () {})]`)
	a1, g1 := readFunctionKinds(rt)
	pair, _ := v.(*goja.Object)
	if err != nil || pair == nil || a0 != nil || g0 != nil || a1 == nil || g1 == nil ||
		pair.Get("0") != goja.Value(a1) || pair.Get("1") != goja.Value(g1) {
		functionKinds.err = errors.New("gojainternal: goja's AsyncFunctionPrototype and GeneratorFunctionPrototype are not made on first use (goja changed)")
	}
}

func readFunctionKinds(rt *goja.Runtime) (async, gen *goja.Object) {
	base := unsafe.Add(unsafe.Pointer(rt), functionKinds.offGlobal)
	return *(**goja.Object)(unsafe.Add(base, functionKinds.offAsync)), *(**goja.Object)(unsafe.Add(base, functionKinds.offGn))
}

// FunctionKindsMade reports whether goja has made rt's AsyncFunction.prototype (and with it AsyncFunction) and
// GeneratorFunction.prototype (and GeneratorFunction); ok=false when the fields cannot be read. Call it on the
// runtime's own goroutine.
func FunctionKindsMade(rt *goja.Runtime) (async, gen, ok bool) {
	functionKinds.once.Do(probeFunctionKinds)
	if functionKinds.err != nil {
		return false, false, false
	}
	a, g := readFunctionKinds(rt)
	return a != nil, g != nil, true
}
