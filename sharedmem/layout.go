package sharedmem

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// Reading typed arrays from Go.
//
// goja exports no TypedArray type. The public route (the intrinsic `buffer`
// getter called as a goja.Callable, then Export) costs two JavaScript-level
// calls and an allocation per Atomics operation, and Export of a view whose
// buffer was detached returns a slice over address nil+offset that crashes
// when touched. Instead, the Go types behind goja's typed arrays and
// ArrayBuffers are located once with reflect (their names and field types
// are checked, then the offsets are confirmed on sample objects), and the
// hot path reads four fields through those offsets: the viewed buffer, the
// element offset and length, and the buffer's detached flag and bytes. The
// buffer's detached flag is always read before its bytes.
//
// If a goja upgrade changes any of it, layoutErr is set, Install fails
// (closed) and the package tests fail loudly. The fields read are exactly
// those goja itself documents as immutable for a view's life: a view's
// buffer, offset and length never change (goja has no length-tracking
// views); only the buffer's bytes can go away (detach), and that is checked.

type elemKind uint8

const (
	kindNone elemKind = iota
	kindInt8
	kindUint8
	kindUint8Clamped
	kindInt16
	kindUint16
	kindInt32
	kindUint32
	kindFloat32
	kindFloat64
	kindBigInt64
	kindBigUint64
)

var kindNames = [...]string{"", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
	"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"}

var kindSize = [...]int{0, 1, 1, 1, 2, 2, 4, 4, 4, 8, 8, 8}

// integer reports whether Atomics accepts the kind (Uint8Clamped and the
// float kinds are refused).
func (k elemKind) integer() bool {
	return k != kindNone && k != kindUint8Clamped && k != kindFloat32 && k != kindFloat64
}

func (k elemKind) bigint() bool { return k == kindBigInt64 || k == kindBigUint64 }

var layout struct {
	once sync.Once
	err  error

	selfIndex  int          // goja.Object.self
	taType     reflect.Type // *goja.typedArrayObject
	taStruct   reflect.Type // goja.typedArrayObject
	taArrIndex int          // typedArrayObject.typedArray (interface)

	taBuf, taLength, taOffset uintptr // offsets in typedArrayObject
	abDetached, abData        uintptr // offsets in arrayBufferObject

	// arrKinds maps the dynamic type of typedArrayObject.typedArray (one
	// Go type per kind: *goja.int32Array, ...) to the kind, most used first.
	arrKinds []arrKind

	// The fast path compares interface type words (itab pointers) instead
	// of going through reflect: selfOff and taArrOff locate the two
	// interfaces, taTab is the type word of a typed array's self, and
	// arrKinds[i].tab that of each kind's typedArray. A mismatch falls back
	// to reflect, so the fast path can only ever miss, never mislead.
	selfOff, taArrOff uintptr
	taTab             unsafe.Pointer

	// intTab is the type word of a goja integer Value (see realm.intValue);
	// nil if the probe could not confirm it, and then ToValue is used.
	intTab unsafe.Pointer
}

type arrKind struct {
	t   reflect.Type
	tab unsafe.Pointer
	k   elemKind
}

// iface is the memory layout of a non-empty Go interface value.
type iface struct{ tab, data unsafe.Pointer }

func loadLayout() error {
	layout.once.Do(func() { layout.err = probeLayout() })
	return layout.err
}

// fieldOffset returns the offset of the field name in struct t, following
// embedded structs, and checks its type with ok.
func fieldOffset(t reflect.Type, name string, ok func(reflect.Type) bool) (uintptr, error) {
	f, found := t.FieldByName(name)
	if !found || !ok(f.Type) {
		return 0, fmt.Errorf("field %s.%s missing or of an unexpected type", t, name)
	}
	var off uintptr
	cur := t
	for _, i := range f.Index {
		sf := cur.Field(i)
		off += sf.Offset
		cur = sf.Type
	}
	return off, nil
}

func probeLayout() (err error) {
	fail := func(e error) error {
		return fmt.Errorf("sharedmem: cannot read goja typed arrays (goja's internals changed): %w", e)
	}
	defer func() {
		if x := recover(); x != nil {
			err = fail(fmt.Errorf("%v", x))
		}
	}()
	self, ok := reflect.TypeFor[goja.Object]().FieldByName("self")
	if !ok || self.Type.Kind() != reflect.Interface || len(self.Index) != 1 {
		return fail(errors.New("goja.Object.self"))
	}
	layout.selfIndex = self.Index[0]
	layout.selfOff = self.Offset
	if self.Type.Size() != unsafe.Sizeof(iface{}) {
		return fail(errors.New("interface layout"))
	}

	abf := reflect.TypeFor[goja.ArrayBuffer]()
	if abf.NumField() != 1 || abf.Field(0).Type.Kind() != reflect.Pointer {
		return fail(errors.New("goja.ArrayBuffer layout"))
	}
	abPtr := abf.Field(0).Type
	abStruct := abPtr.Elem()
	isBool := func(t reflect.Type) bool { return t.Kind() == reflect.Bool }
	isBytes := func(t reflect.Type) bool { return t == reflect.TypeFor[[]byte]() }
	isInt := func(t reflect.Type) bool { return t.Kind() == reflect.Int }
	if layout.abDetached, err = fieldOffset(abStruct, "detached", isBool); err != nil {
		return fail(err)
	}
	if layout.abData, err = fieldOffset(abStruct, "data", isBytes); err != nil {
		return fail(err)
	}

	rt := goja.New()
	v, err := rt.RunString(`new Int32Array(new ArrayBuffer(16), 4, 2)`)
	if err != nil {
		return fail(err)
	}
	sample := v.(*goja.Object)
	sv := reflect.ValueOf(sample).Elem().Field(layout.selfIndex).Elem()
	if sv.Kind() != reflect.Pointer || sv.Elem().Kind() != reflect.Struct {
		return fail(errors.New("typed array implementation"))
	}
	layout.taType = sv.Type()
	layout.taStruct = sv.Type().Elem()
	if layout.taBuf, err = fieldOffset(layout.taStruct, "viewedArrayBuf", func(t reflect.Type) bool { return t == abPtr }); err != nil {
		return fail(err)
	}
	if layout.taLength, err = fieldOffset(layout.taStruct, "length", isInt); err != nil {
		return fail(err)
	}
	if layout.taOffset, err = fieldOffset(layout.taStruct, "offset", isInt); err != nil {
		return fail(err)
	}
	arr, ok := layout.taStruct.FieldByName("typedArray")
	if !ok || arr.Type.Kind() != reflect.Interface || len(arr.Index) != 1 {
		return fail(errors.New("typedArrayObject.typedArray"))
	}
	layout.taArrIndex = arr.Index[0]
	layout.taArrOff = arr.Offset
	layout.taTab = (*iface)(unsafe.Add(unsafe.Pointer(sample), layout.selfOff)).tab

	// One Go type per kind, learned from samples.
	seen := map[reflect.Type]bool{}
	for _, k := range []elemKind{kindInt32, kindBigInt64, kindUint8, kindInt8, kindInt16, kindUint16, kindUint32,
		kindBigUint64, kindUint8Clamped, kindFloat32, kindFloat64} {
		v, err := rt.RunString("new " + kindNames[k] + "(2)")
		if err != nil {
			return fail(err)
		}
		impl := reflect.ValueOf(v.(*goja.Object)).Elem().Field(layout.selfIndex).Elem()
		if impl.Type() != layout.taType {
			return fail(fmt.Errorf("%s has another implementation type", kindNames[k]))
		}
		t := impl.Elem().Field(layout.taArrIndex).Elem().Type()
		if seen[t] {
			return fail(fmt.Errorf("%s is indistinguishable from another kind", kindNames[k]))
		}
		seen[t] = true
		tab := (*iface)(unsafe.Add(impl.UnsafePointer(), layout.taArrOff)).tab
		layout.arrKinds = append(layout.arrKinds, arrKind{t, tab, k})
	}

	// Confirm the offsets on the sample, both ways: byteOffset 4 = element
	// offset 1.
	if _, k, off, n, ok := peekView(sample); !ok || k != kindInt32 || off != 1 || n != 2 {
		return fail(errors.New("sample Int32Array does not read back"))
	}
	if _, k, off, n, ok := peekViewReflect(sample); !ok || k != kindInt32 || off != 1 || n != 2 {
		return fail(errors.New("sample Int32Array does not read back through reflect"))
	}

	probeIntValues(rt)

	// Detaching must be visible through the offsets.
	bv, _ := rt.RunString(`var b = new ArrayBuffer(8); new Uint8Array(b)`)
	ab := rt.Get("b").Export().(goja.ArrayBuffer)
	ab.Detach()
	if buf, _, _, _, ok := peekView(bv.(*goja.Object)); !ok || !bufDetached(buf) {
		return fail(errors.New("detached flag does not read back"))
	}
	return nil
}

// probeIntValues learns the type word of goja's integer values and checks
// that a Value assembled from it is one.
func probeIntValues(rt *goja.Runtime) {
	a, b := rt.ToValue(int64(1000)), rt.ToValue(int64(-1_000_000))
	tab := (*iface)(unsafe.Pointer(&a)).tab
	if tab != (*iface)(unsafe.Pointer(&b)).tab {
		return
	}
	x := int64(4_000_000_123)
	v := makeInt(tab, &x)
	if v.ExportType() != reflect.TypeFor[int64]() || v.Export() != x || !v.StrictEquals(rt.ToValue(x)) || v.ToFloat() != float64(x) {
		return
	}
	layout.intTab = tab
}

func makeInt(tab unsafe.Pointer, p *int64) goja.Value {
	var v goja.Value
	*(*iface)(unsafe.Pointer(&v)) = iface{tab, unsafe.Pointer(p)}
	return v
}

// peekView reads a typed array: its buffer (an *arrayBufferObject), kind,
// element offset and length. ok is false when o is not a typed array. The
// caller must check bufDetached before touching the buffer's bytes.
func peekView(o *goja.Object) (buf unsafe.Pointer, k elemKind, offset, length int, ok bool) {
	if self := (*iface)(unsafe.Add(unsafe.Pointer(o), layout.selfOff)); self.tab == layout.taTab {
		p := self.data
		tab := (*iface)(unsafe.Add(p, layout.taArrOff)).tab
		for _, ak := range layout.arrKinds {
			if ak.tab == tab {
				buf = *(*unsafe.Pointer)(unsafe.Add(p, layout.taBuf))
				return buf, ak.k, *(*int)(unsafe.Add(p, layout.taOffset)), *(*int)(unsafe.Add(p, layout.taLength)), true
			}
		}
	}
	return peekViewReflect(o)
}

// peekViewReflect is peekView through reflect's exported API.
func peekViewReflect(o *goja.Object) (buf unsafe.Pointer, k elemKind, offset, length int, ok bool) {
	self := reflect.ValueOf(o).Elem().Field(layout.selfIndex)
	if self.IsNil() {
		return nil, 0, 0, 0, false
	}
	impl := self.Elem()
	if impl.Type() != layout.taType {
		return nil, 0, 0, 0, false
	}
	p := impl.UnsafePointer()
	t := impl.Elem().Field(layout.taArrIndex).Elem().Type()
	for _, ak := range layout.arrKinds {
		if ak.t == t {
			k = ak.k
			break
		}
	}
	buf = *(*unsafe.Pointer)(unsafe.Add(p, layout.taBuf))
	return buf, k, *(*int)(unsafe.Add(p, layout.taOffset)), *(*int)(unsafe.Add(p, layout.taLength)), true
}

func bufDetached(buf unsafe.Pointer) bool { return *(*bool)(unsafe.Add(buf, layout.abDetached)) }

// bufData returns the buffer's bytes; only after bufDetached said false.
func bufData(buf unsafe.Pointer) []byte { return *(*[]byte)(unsafe.Add(buf, layout.abData)) }

// setBufData replaces the bytes of one of this package's wrappers (to show a
// grown length). It runs on the goroutine that owns the wrapper's runtime.
func setBufData(ab goja.ArrayBuffer, data []byte) {
	p := reflect.ValueOf(ab).Field(0).UnsafePointer()
	*(*[]byte)(unsafe.Add(p, layout.abData)) = data
}
