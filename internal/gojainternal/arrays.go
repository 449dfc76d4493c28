package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// Reading an array's elements.
//
// Through the public API every element read is a Get: a name made from the
// index, parsed back, and a lookup. goja's usual (dense) array keeps its
// length in a uint32 field and its elements in a []Value indexed by
// position, nil for a hole, a *valueProperty (the type of PlainGet's
// properties with attributes) for an element with non-default attributes
// or an accessor. ArrayLength and ArrayElement read those fields, and
// answer "don't know" for accessors (the getter must run) and for any
// other array type (goja's sparse arrays, typed arrays, proxies).

var arrays struct {
	once           sync.Once
	err            error
	values, length uintptr // offsets in goja's array struct
}

func loadArrays() error {
	arrays.once.Do(func() {
		if err := loadProps(); err != nil {
			arrays.err = err
			return
		}
		if err := probeArrays(); err != nil {
			arrays.err = probeError("array elements", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return arrays.err
}

func probeArrays() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	return withProbeRuntime(func(rt *goja.Runtime) (err error) {
		a, err := sample(rt, `[1]`)
		if err != nil {
			return err
		}
		st := implType(a)
		if st.Kind() != reflect.Pointer || st.Elem().Kind() != reflect.Struct {
			return errors.New("an array's implementation is not a pointer to a struct")
		}
		is := func(want reflect.Type) func(reflect.Type) bool { return func(t reflect.Type) bool { return t == want } }
		if arrays.values, err = fieldOffset(st.Elem(), "values", is(reflect.TypeFor[[]goja.Value]())); err != nil {
			return err
		}
		if arrays.length, err = fieldOffset(st.Elem(), "length", is(reflect.TypeFor[uint32]())); err != nil {
			return err
		}
		for _, src := range arraySamples {
			o, err := sample(rt, src)
			if err != nil {
				return err
			}
			if selfOf(o).tab != kinds.arrayTab {
				return fmt.Errorf("%s is not goja's usual array", src)
			}
			if err := compareArray(o); err != nil {
				return fmt.Errorf("%s: %w", src, err)
			}
		}
		return nil
	})
}

// arraySamples are the arrays the probe reads both ways.
var arraySamples = []string{
	`[]`, `[1, "a", null, undefined, {x: 1}, [2], 1.5, -7]`, `[1, , 3, , ]`,
	`(function () { var a = [1, 2]; a.length = 5; return a })()`, `(function () { var a = [1, 2, 3]; a.length = 1; return a })()`, `(function () { var a = [1, 2, 3]; delete a[1]; return a })()`,
	`(function () { var a = [1]; a[3] = 4; return a })()`, `(function () { var a = [1, 2, 3]; a.pop(); a.push(9, 8); return a })()`,
	`Object.defineProperty([1, 2, 3], 1, {get: function () { return 7; }})`,
	`Object.defineProperty([1, 2, 3], 2, {value: 5, enumerable: false})`, `Object.freeze([1, {a: 1}])`,
	`Object.assign([1, 2], {foo: 3})`,
}

// compareArray checks ArrayLength and ArrayElement against Get on o.
func compareArray(o *goja.Object) error {
	n, ok := arrayLength(o)
	if !ok || int64(n) != o.Get("length").ToInteger() {
		return fmt.Errorf("length %d, Get says %v", n, o.Get("length"))
	}
	for i := uint32(0); i <= n; i++ { // (one past the end too)
		v, ok := arrayElement(o, i)
		if !ok {
			continue // an accessor: Get's job
		}
		w := o.Get(strconv.FormatUint(uint64(i), 10))
		if (v == nil) != (w == nil) || (v != nil && !v.SameAs(w)) {
			return fmt.Errorf("element %d is %v, Get says %v", i, v, w)
		}
	}
	return nil
}

func arrayLength(o *goja.Object) (uint32, bool) {
	return *(*uint32)(unsafe.Add(selfOf(o).data, arrays.length)), true
}

func arrayElement(o *goja.Object, i uint32) (goja.Value, bool) {
	vals := *(*[]goja.Value)(unsafe.Add(selfOf(o).data, arrays.values))
	if uint64(i) >= uint64(len(vals)) {
		return nil, true
	}
	v := vals[i]
	if f := (*iface)(unsafe.Pointer(&v)); f.tab == props.vpTab {
		if *(*bool)(unsafe.Add(f.data, props.vpAccessor)) {
			return nil, false
		}
		return *(*goja.Value)(unsafe.Add(f.data, props.vpValue)), true
	}
	return v, true
}

// ArrayLength returns o's length if o is goja's usual (dense) array; false
// means "ask Get". It runs no JavaScript.
func ArrayLength(o *goja.Object) (uint32, bool) {
	if o == nil || loadArrays() != nil || selfOf(o).tab != kinds.arrayTab {
		return 0, false
	}
	return arrayLength(o)
}

// ArrayElement returns o's own element i, or nil if o has no own element i
// (a hole, or past the end), with ok=true, if o is goja's usual array;
// ok=false means "ask Get": o is another kind of array, or the element is
// an accessor. It runs no JavaScript. The element is read when called, so
// a caller running getters between reads sees what they changed.
func ArrayElement(o *goja.Object, i uint32) (goja.Value, bool) {
	if o == nil || loadArrays() != nil || selfOf(o).tab != kinds.arrayTab {
		return nil, false
	}
	return arrayElement(o, i)
}

// ArrayPlainElement returns o's own element i when o is goja's usual array and the element is stored as a plain
// value — a writable, enumerable, configurable data property, which a Set of the same value cannot observe — and
// false otherwise (a hole, an accessor, a property with other attributes, another kind of object). It runs no
// JavaScript.
func ArrayPlainElement(o *goja.Object, i uint32) (goja.Value, bool) {
	if o == nil || loadArrays() != nil || selfOf(o).tab != kinds.arrayTab {
		return nil, false
	}
	vals := *(*[]goja.Value)(unsafe.Add(selfOf(o).data, arrays.values))
	if uint64(i) >= uint64(len(vals)) || vals[i] == nil {
		return nil, false
	}
	v := vals[i]
	if (*iface)(unsafe.Pointer(&v)).tab == props.vpTab {
		return nil, false
	}
	return v, true
}

// ArrayStored returns how many element slots goja's usual array o stores (the length of its values slice: every
// index at or past it is a hole), with ok=false if o is another kind of object. A `new Array(2**32 - 1)` stores
// none. It runs no JavaScript.
func ArrayStored(o *goja.Object) (int, bool) {
	if o == nil || loadArrays() != nil || selfOf(o).tab != kinds.arrayTab {
		return 0, false
	}
	return len(*(*[]goja.Value)(unsafe.Add(selfOf(o).data, arrays.values))), true
}
