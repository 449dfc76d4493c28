package gojainternal

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
// when touched. Instead the Go types behind goja's typed arrays and
// ArrayBuffers are located once with reflect (their names and field types
// are checked, then the offsets are confirmed on sample objects), and
// TypedArrayOf reads four fields through those offsets: the viewed buffer,
// the element offset and length, and the buffer's detached flag and bytes.
//
// The fields read are those goja treats as immutable for a view's life: a
// view's buffer, offset and length never change (goja has no
// length-tracking views); only the buffer's bytes can go away (detach),
// which Buffer.Detached tells.

// ElemKind is the element type of a typed array.
type ElemKind uint8

// The element kinds.
const (
	ElemNone ElemKind = iota
	ElemInt8
	ElemUint8
	ElemUint8Clamped
	ElemInt16
	ElemUint16
	ElemInt32
	ElemUint32
	ElemFloat32
	ElemFloat64
	ElemBigInt64
	ElemBigUint64
)

var elemNames = [...]string{"", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
	"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"}

var elemSizes = [...]int{0, 1, 1, 1, 2, 2, 4, 4, 4, 8, 8, 8}

// String returns the constructor name of the kind ("Int32Array"), or "" for
// ElemNone.
func (k ElemKind) String() string {
	if int(k) < len(elemNames) {
		return elemNames[k]
	}
	return ""
}

// Size returns the size of one element in bytes (0 for ElemNone).
func (k ElemKind) Size() int {
	if int(k) < len(elemSizes) {
		return elemSizes[k]
	}
	return 0
}

// Buffer is goja's internal ArrayBuffer record behind a typed array. The
// zero Buffer is none. It is only valid on the goroutine that owns the
// runtime, for as long as the typed array it was read from is alive.
type Buffer struct{ p unsafe.Pointer }

// Detached reports whether the buffer was detached (transferred). Always
// check it before Bytes.
func (b Buffer) Detached() bool { return *(*bool)(unsafe.Add(b.p, ta.abDetached)) }

// Bytes returns the buffer's bytes; only after Detached said false.
func (b Buffer) Bytes() []byte { return *(*[]byte)(unsafe.Add(b.p, ta.abData)) }

// TypedArray is what TypedArrayOf reads from a typed array.
type TypedArray struct {
	Buffer Buffer
	Kind   ElemKind
	Offset int // in elements
	Length int // in elements
}

var ta struct {
	once sync.Once
	err  error

	tab        unsafe.Pointer // the type word of a typed array's self
	implType   reflect.Type   // *goja.typedArrayObject
	arrIndex   int            // typedArrayObject.typedArray (interface), field index
	arrOff     uintptr        // and offset
	buf        uintptr        // offset of typedArrayObject.viewedArrayBuf
	length     uintptr        // of typedArrayObject.length
	offset     uintptr        // of typedArrayObject.offset
	abDetached uintptr        // of arrayBufferObject.detached
	abData     uintptr        // of arrayBufferObject.data

	// kinds maps the dynamic type of typedArrayObject.typedArray (one Go
	// type per kind: *goja.int32Array, ...) to the kind, most used first.
	kinds []elemType
}

type elemType struct {
	t   reflect.Type
	tab unsafe.Pointer
	k   ElemKind
}

// TypedArrays locates the typed-array layout once per process and returns
// nil if it works, or the error that makes every TypedArrayOf answer false.
func TypedArrays() error {
	ta.once.Do(func() {
		if err := loadKinds(); err != nil {
			ta.err = err
			return
		}
		if err := probeTypedArrays(); err != nil {
			ta.kinds, ta.tab = nil, nil
			ta.err = probeError("typed arrays", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return ta.err
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

func probeTypedArrays() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	abf := reflect.TypeFor[goja.ArrayBuffer]()
	if abf.Kind() != reflect.Struct || abf.NumField() != 1 || abf.Field(0).Type.Kind() != reflect.Pointer ||
		abf.Field(0).Type.Elem().Kind() != reflect.Struct {
		return errors.New("goja.ArrayBuffer is not a struct holding one pointer")
	}
	abPtr := abf.Field(0).Type
	isBool := func(t reflect.Type) bool { return t.Kind() == reflect.Bool }
	isBytes := func(t reflect.Type) bool { return t == reflect.TypeFor[[]byte]() }
	isInt := func(t reflect.Type) bool { return t.Kind() == reflect.Int }
	if ta.abDetached, err = fieldOffset(abPtr.Elem(), "detached", isBool); err != nil {
		return err
	}
	if ta.abData, err = fieldOffset(abPtr.Elem(), "data", isBytes); err != nil {
		return err
	}

	return withProbeRuntime(func(rt *goja.Runtime) (err error) {
		s, err := sample(rt, `new Int32Array(new ArrayBuffer(16), 4, 2)`)
		if err != nil {
			return err
		}
		impl := implValue(s)
		if !impl.IsValid() || impl.Kind() != reflect.Pointer || impl.Elem().Kind() != reflect.Struct {
			return errors.New("a typed array's implementation is not a pointer to a struct")
		}
		ta.implType = impl.Type()
		st := impl.Type().Elem()
		if ta.buf, err = fieldOffset(st, "viewedArrayBuf", func(t reflect.Type) bool { return t == abPtr }); err != nil {
			return err
		}
		if ta.length, err = fieldOffset(st, "length", isInt); err != nil {
			return err
		}
		if ta.offset, err = fieldOffset(st, "offset", isInt); err != nil {
			return err
		}
		arr, ok := st.FieldByName("typedArray")
		if !ok || arr.Type.Kind() != reflect.Interface || len(arr.Index) != 1 || arr.Type.Size() != unsafe.Sizeof(iface{}) {
			return fmt.Errorf("field %s.typedArray missing or not an interface", st)
		}
		ta.arrIndex, ta.arrOff = arr.Index[0], arr.Offset
		ta.tab = selfOf(s).tab
		if ObjectKind(s) != KindTypedArray {
			return errors.New("the sample typed array is not KindTypedArray")
		}

		// One Go type per element kind, learned from samples.
		seen := map[reflect.Type]bool{}
		for _, k := range []ElemKind{ElemInt32, ElemBigInt64, ElemUint8, ElemInt8, ElemInt16, ElemUint16, ElemUint32,
			ElemBigUint64, ElemUint8Clamped, ElemFloat32, ElemFloat64} {
			o, err := sample(rt, "new "+k.String()+"(2)")
			if err != nil {
				return err
			}
			impl := implValue(o)
			if impl.Type() != ta.implType || selfOf(o).tab != ta.tab {
				return fmt.Errorf("%s has another implementation type", k)
			}
			a := impl.Elem().Field(ta.arrIndex)
			if a.IsNil() {
				return fmt.Errorf("%s has no element implementation", k)
			}
			t := a.Elem().Type()
			if seen[t] {
				return fmt.Errorf("%s is indistinguishable from another kind", k)
			}
			seen[t] = true
			tab := (*iface)(unsafe.Add(impl.UnsafePointer(), ta.arrOff)).tab
			ta.kinds = append(ta.kinds, elemType{t, tab, k})
		}

		// Confirm the offsets on the sample, both ways: byteOffset 4 = element
		// offset 1.
		if v, ok := typedArrayOf(s); !ok || v.Kind != ElemInt32 || v.Offset != 1 || v.Length != 2 || v.Buffer.Detached() || len(v.Buffer.Bytes()) != 16 {
			return errors.New("the sample Int32Array does not read back")
		}
		if v, ok := typedArrayReflect(s); !ok || v.Kind != ElemInt32 || v.Offset != 1 || v.Length != 2 {
			return errors.New("the sample Int32Array does not read back through reflect")
		}
		// Writing through the view must be visible in the bytes read.
		pv, err := sample(rt, `(function () { var v = new Uint8Array(new ArrayBuffer(8)); v[3] = 7; return v })()`)
		if err != nil {
			return err
		}
		v, ok := typedArrayOf(pv)
		if !ok || v.Buffer.Bytes()[3] != 7 {
			return errors.New("the bytes of a sample Uint8Array do not read back")
		}
		// Detaching must be visible through the offsets.
		buf := pv.Get("buffer").Export().(goja.ArrayBuffer)
		buf.Detach()
		if v, ok := typedArrayOf(pv); !ok || !v.Buffer.Detached() {
			return errors.New("the detached flag does not read back")
		}
		// Replacing the bytes must be visible through the public API.
		b2, _ := sample(rt, `new ArrayBuffer(4)`)
		ab2 := b2.Export().(goja.ArrayBuffer)
		repl := make([]byte, 2, 8)
		setBytes(ab2, repl)
		if got := ab2.Bytes(); len(got) != 2 || cap(got) != 8 || &got[0] != &repl[0] {
			return errors.New("replaced ArrayBuffer bytes do not read back")
		}
		return nil
	})
}

// TypedArrayOf reads a typed array: its buffer, element kind, element
// offset and length. ok is false when o is not a typed array, and for every
// o if TypedArrays reports an error. The caller must check
// Buffer.Detached before touching the bytes. It runs no JavaScript and must
// be called on the goroutine that owns o's runtime.
func TypedArrayOf(o *goja.Object) (v TypedArray, ok bool) {
	if TypedArrays() != nil || o == nil {
		return TypedArray{}, false
	}
	return typedArrayOf(o)
}

func typedArrayOf(o *goja.Object) (TypedArray, bool) {
	if s := selfOf(o); s.tab == ta.tab {
		p := s.data
		tab := (*iface)(unsafe.Add(p, ta.arrOff)).tab
		for _, ek := range ta.kinds {
			if ek.tab == tab {
				return TypedArray{
					Buffer: Buffer{*(*unsafe.Pointer)(unsafe.Add(p, ta.buf))},
					Kind:   ek.k,
					Offset: *(*int)(unsafe.Add(p, ta.offset)),
					Length: *(*int)(unsafe.Add(p, ta.length)),
				}, true
			}
		}
	}
	// A type word the samples did not produce: ask reflect, which compares
	// types rather than type words, so the answer cannot differ.
	return typedArrayReflect(o)
}

// typedArrayReflect is TypedArrayOf through reflect.
func typedArrayReflect(o *goja.Object) (TypedArray, bool) {
	impl := implValue(o)
	if !impl.IsValid() || impl.Type() != ta.implType {
		return TypedArray{}, false
	}
	a := impl.Elem().Field(ta.arrIndex)
	if a.IsNil() {
		return TypedArray{}, false
	}
	t := a.Elem().Type()
	k := ElemNone
	for _, ek := range ta.kinds {
		if ek.t == t {
			k = ek.k
			break
		}
	}
	if k == ElemNone {
		return TypedArray{}, false
	}
	p := impl.UnsafePointer()
	return TypedArray{
		Buffer: Buffer{*(*unsafe.Pointer)(unsafe.Add(p, ta.buf))},
		Kind:   k,
		Offset: *(*int)(unsafe.Add(p, ta.offset)),
		Length: *(*int)(unsafe.Add(p, ta.length)),
	}, true
}

// SetArrayBufferBytes replaces the bytes behind ab (whose length goja takes
// from the slice), as sharedmem does to show a growable buffer's growth.
// It fails if TypedArrays reports an error, and must run on the goroutine
// that owns ab's runtime.
func SetArrayBufferBytes(ab goja.ArrayBuffer, data []byte) error {
	if err := TypedArrays(); err != nil {
		return err
	}
	if !setBytes(ab, data) {
		return errors.New("jsworker: SetArrayBufferBytes of a zero goja.ArrayBuffer")
	}
	return nil
}

func setBytes(ab goja.ArrayBuffer, data []byte) bool {
	p := reflect.ValueOf(ab).Field(0).UnsafePointer()
	if p == nil {
		return false
	}
	*(*[]byte)(unsafe.Add(p, ta.abData)) = data
	return true
}
