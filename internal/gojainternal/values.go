package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// The optional fast paths. Each answers "don't know" (false, nil) when its
// probe failed, and the caller then takes the public route: slower, never
// wrong. Verify reports their errors.

// Array names hint.
//
// An array's named properties (a.foo) must be cloned, but finding them with
// Keys() costs about as much as cloning a short array. goja keeps an
// array's elements apart from its named properties, whose names sit in the
// embedded baseObject's propNames slice, in insertion order, always starting
// with "length". ArrayHasNoNames reads that slice: when it holds "length"
// alone, the array has no named property.

var names struct {
	once sync.Once
	err  error
	off  uintptr // offset of propNames in goja's array struct
}

func loadNames() error {
	names.once.Do(func() {
		if err := loadKinds(); err != nil {
			names.err = err
			return
		}
		if err := probeNames(); err != nil {
			names.err = probeError("array property names", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return names.err
}

func probeNames() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	return withProbeRuntime(func(rt *goja.Runtime) (err error) {
		a, err := sample(rt, `[]`)
		if err != nil {
			return err
		}
		st := implType(a)
		if st.Kind() != reflect.Pointer || st.Elem().Kind() != reflect.Struct {
			return errors.New("an array's implementation is not a pointer to a struct")
		}
		isNames := func(t reflect.Type) bool {
			return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String && t.Elem().Size() == unsafe.Sizeof("")
		}
		if names.off, err = fieldOffset(st.Elem(), "propNames", isNames); err != nil {
			return err
		}
		for src, want := range map[string]bool{
			`[1, 2, 3]`: true, `[]`: true, `(function () { var a = [1]; a.length = 5; a.push(2); return a })()`: true,
			`Object.assign([1], {foo: 1})`: false, `(function () { var a = [1]; a.foo = 1; delete a.foo; a.bar = 2; return a })()`: false,
			`(function () { var a = [1]; Object.defineProperty(a, "h", {value: 1}); return a })()`: false, `(function () { var a = []; a[-1] = 1; return a })()`: false,
			`(function () { var a = []; a["01"] = 1; return a })()`: false, `(function () { var a = []; a[4294967295] = 1; return a })()`: false,
		} {
			o, err := sample(rt, src)
			if err != nil {
				return err
			}
			if selfOf(o).tab != kinds.arrayTab {
				return fmt.Errorf("%s is not goja's usual array", src)
			}
			if got := arrayNamesOnlyLength(o); got != want {
				return fmt.Errorf("%s: names hint %v, want %v", src, got, want)
			}
		}
		return nil
	})
}

func arrayNamesOnlyLength(o *goja.Object) bool {
	n := *(*[]string)(unsafe.Add(selfOf(o).data, names.off))
	return len(n) == 1 && n[0] == "length"
}

// ArrayHasNoNames reports whether o is goja's usual array and has no named
// property besides "length" (elements are not named properties). False
// means "maybe": call Keys(). It runs no JavaScript.
func ArrayHasNoNames(o *goja.Object) bool {
	if o == nil || loadNames() != nil || selfOf(o).tab != kinds.arrayTab {
		return false
	}
	return arrayNamesOnlyLength(o)
}

// Integer values.
//
// Runtime.ToValue(int64) allocates twice (boxing into an interface, then
// into a Value). NewInt assembles the Value from goja's type word for
// integers and a pointer to an int64 the caller owns, for callers that
// hand out many numbers (Atomics) from a slab.

var ints struct {
	once sync.Once
	err  error
	tab  unsafe.Pointer
}

func loadInts() error {
	ints.once.Do(func() {
		if err := probeInts(); err != nil {
			ints.err = probeError("integer values", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return ints.err
}

func probeInts() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	if unsafe.Sizeof(goja.Value(nil)) != unsafe.Sizeof(iface{}) {
		return errors.New("goja.Value is not an interface")
	}
	rt := goja.New()
	a, b := rt.ToValue(int64(1000)), rt.ToValue(int64(-1_000_000))
	tab := (*iface)(unsafe.Pointer(&a)).tab
	if tab == nil || tab != (*iface)(unsafe.Pointer(&b)).tab {
		return errors.New("integers do not share one type")
	}
	if reflect.TypeOf(a).Kind() != reflect.Int64 || reflect.TypeOf(a).Size() != 8 {
		return fmt.Errorf("integers are %s, not an int64 kind", reflect.TypeOf(a))
	}
	x := int64(4_000_000_123)
	v := makeInt(tab, &x)
	if v.ExportType() != reflect.TypeFor[int64]() || v.Export() != x || !v.StrictEquals(rt.ToValue(x)) || v.ToFloat() != float64(x) {
		return errors.New("an assembled integer does not read back")
	}
	ints.tab = tab
	return nil
}

func makeInt(tab unsafe.Pointer, p *int64) goja.Value {
	var v goja.Value
	*(*iface)(unsafe.Pointer(&v)) = iface{tab, unsafe.Pointer(p)}
	return v
}

// NewInt returns a goja Number whose value is *p, without allocating, or nil
// if the probe failed (use Runtime.ToValue then). *p must never change
// afterwards: the Value reads it.
func NewInt(p *int64) goja.Value {
	if loadInts() != nil {
		return nil
	}
	return makeInt(ints.tab, p)
}

// ASCII strings.

var ascii struct {
	once sync.Once
	err  error
	t    reflect.Type
}

func loadASCII() error {
	ascii.once.Do(func() {
		if err := probeASCII(); err != nil {
			ascii.err = probeError("strings", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return ascii.err
}

func probeASCII() error {
	t := reflect.TypeOf(goja.StringFromUTF16([]uint16{'a', 'b'}))
	if t == nil || t.Kind() != reflect.String {
		return errors.New("an ASCII string is not of a string kind")
	}
	for _, s := range []goja.String{goja.StringFromUTF16(nil), goja.StringFromUTF16([]uint16{'x'})} {
		if reflect.TypeOf(s) != t {
			return fmt.Errorf("ASCII strings have two types (%s)", reflect.TypeOf(s))
		}
	}
	for _, u := range [][]uint16{{0xe9}, {'a', 0xd800}, {0x7f, 0x80}, {0x20ac}} {
		if reflect.TypeOf(goja.StringFromUTF16(u)) == t {
			return fmt.Errorf("the non-ASCII string %v has the ASCII type", u)
		}
	}
	ascii.t = t
	return nil
}

// IsASCII reports whether s is in goja's ASCII representation, in which
// case s.String() is exact and free. False means "maybe not".
func IsASCII(s goja.String) bool {
	return loadASCII() == nil && reflect.TypeOf(s) == ascii.t
}

// Verify runs every probe and returns their errors joined, or nil if goja's
// internals are all as this package reads them.
func Verify() error {
	return errors.Join(Kinds(), TypedArrays(), loadNames(), loadInts(), loadASCII(), loadProps(), loadBuild(), loadArrays(),
		CallStack(), JobQueue(), Interrupt(), loadUTF16(), Exceptions(), loadBoxes(), loadShare(), SymbolHooks())
}

// UTF-16 strings.

var utf16s struct {
	once sync.Once
	err  error
	t    reflect.Type
}

func loadUTF16() error {
	utf16s.once.Do(func() {
		if err := probeUTF16(); err != nil {
			utf16s.err = probeError("UTF-16 strings", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return utf16s.err
}

func probeUTF16() error {
	s := goja.StringFromUTF16([]uint16{'a', 0xd800, 0xe9})
	t := reflect.TypeOf(s)
	if t == nil || t.Kind() != reflect.Slice || t.Elem().Kind() != reflect.Uint16 {
		return fmt.Errorf("a non-ASCII string is %v, not a slice of uint16", t)
	}
	u := reflect.ValueOf(s).Interface()
	units := unsafe.Slice((*uint16)(reflect.ValueOf(u).UnsafePointer()), reflect.ValueOf(u).Len())
	if len(units) != 4 || units[0] != 0xFEFF || units[1] != 'a' || units[2] != 0xd800 || units[3] != 0xe9 || s.Length() != 3 {
		return fmt.Errorf("a non-ASCII string's units are %v, not a byte-order mark and its code units", units)
	}
	utf16s.t = t
	return nil
}

// UTF16 returns the code units of s, a string in goja's UTF-16 representation, with ok=true; false means "not
// that representation, or the probe failed": use CharAt. The slice is goja's own: never change it.
func UTF16(s goja.String) (units []uint16, ok bool) {
	if loadUTF16() != nil || reflect.TypeOf(s) != utf16s.t {
		return nil, false
	}
	v := reflect.ValueOf(s)
	if v.Len() == 0 {
		return nil, false
	}
	return unsafe.Slice((*uint16)(v.UnsafePointer()), v.Len())[1:], true
}
