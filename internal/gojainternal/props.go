package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// Reading a plain object's own properties.
//
// goja.Object.Keys() builds a goja String per key and walks goja's generic
// iteration, and each Get converts the key back: together they are most of
// the cost of cloning small objects. goja's usual plain object (the type {}
// makes, KindPlain) keeps its own string-keyed properties in two fields of
// its baseObject: propNames (names in insertion order; integer-like names
// are moved to the front, in numeric order, lazily, up to lastSortedPropLen)
// and values (name → Value, where a property with non-default attributes
// or an accessor is a *valueProperty holding its flags). PlainKeys and
// PlainGet read those fields directly, for plain objects only, and answer
// "don't know" whenever the answer needs goja's own logic: names goja has
// not yet put in order, accessors (their getter must run).

var props struct {
	once sync.Once
	err  error

	values, names, sorted uintptr // offsets in baseObject
	vpTab                 unsafe.Pointer
	vpValue, vpEnum       uintptr // offsets in valueProperty
	vpAccessor            uintptr
}

func loadProps() error {
	props.once.Do(func() {
		if err := loadKinds(); err != nil {
			props.err = err
			return
		}
		if err := probeProps(); err != nil {
			props.err = probeError("object properties", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return props.err
}

func probeProps() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	return withProbeRuntime(func(rt *goja.Runtime) (err error) {
		plain, err := sample(rt, `({})`)
		if err != nil {
			return err
		}
		pt := implType(plain)
		if pt.Kind() != reflect.Pointer || pt.Elem().Kind() != reflect.Struct {
			return errors.New("a plain object's implementation is not a pointer to a struct")
		}
		st := pt.Elem()
		is := func(want reflect.Type) func(reflect.Type) bool { return func(t reflect.Type) bool { return t == want } }
		if props.values, err = fieldOffset(st, "values", is(reflect.TypeFor[map[unistring.String]goja.Value]())); err != nil {
			return err
		}
		if props.names, err = fieldOffset(st, "propNames", is(reflect.TypeFor[[]unistring.String]())); err != nil {
			return err
		}
		if props.sorted, err = fieldOffset(st, "lastSortedPropLen", is(reflect.TypeFor[int]())); err != nil {
			return err
		}

		// The type of a property with attributes, from a non-enumerable one.
		o, err := sample(rt, `Object.defineProperty({}, "x", {value: 7, enumerable: false, writable: true})`)
		if err != nil {
			return err
		}
		vp, ok := valuesOf(o)["x"]
		if !ok || vp == nil {
			return errors.New("a sample property is not in values")
		}
		vt := reflect.TypeOf(vp)
		if vt.Kind() != reflect.Pointer || vt.Elem().Kind() != reflect.Struct {
			return fmt.Errorf("a property with attributes is %s, not a pointer to a struct", vt)
		}
		isBool := func(t reflect.Type) bool { return t.Kind() == reflect.Bool }
		if props.vpValue, err = fieldOffset(vt.Elem(), "value", is(reflect.TypeFor[goja.Value]())); err != nil {
			return err
		}
		if props.vpEnum, err = fieldOffset(vt.Elem(), "enumerable", isBool); err != nil {
			return err
		}
		if props.vpAccessor, err = fieldOffset(vt.Elem(), "accessor", isBool); err != nil {
			return err
		}
		props.vpTab = (*iface)(unsafe.Pointer(&vp)).tab

		// The fast readers agree with Keys and Get on samples of every shape.
		for _, src := range propSamples {
			o, err := sample(rt, src)
			if err != nil {
				return err
			}
			if err := comparePlain(o); err != nil {
				return fmt.Errorf("%s: %w", src, err)
			}
		}
		return nil
	})
}

// propSamples are the objects the probe reads both ways.
var propSamples = []string{
	`({})`, `({a: 1, b: "x", c: null})`, `Object.create(null, {v: {value: 1, enumerable: true}})`,
	`Object.defineProperty({a: 1, b: 2}, "h", {value: 3, enumerable: false})`,
	`Object.defineProperty({a: 1}, "c", {value: 3, enumerable: true, writable: false, configurable: false})`,
	`(function () { var o = {a: 1, b: 2, c: 3}; delete o.b; o.d = 4; return o })()`,
	`({é: 1, "€": 2, "\ud800": 3, a: 4})`,
	`({get g() { return 1; }, a: 2})`,
	`({b: 1, 2: 2, a: 3, 1: 4})`,
	`(function () { var o = {b: 1, 2: 2, a: 3}; Object.keys(o); return o })()`,
	`(function () { var o = {b: 1}; Object.keys(o); o[0] = 1; return o })()`,
}

// comparePlain checks PlainKeys and PlainGet against Keys and Get on o.
func comparePlain(o *goja.Object) error {
	want := o.Keys() // (this also puts goja's names in order)
	names, ok := plainKeys(o, nil)
	if !ok {
		return errors.New("not read after Keys()")
	}
	if len(names) != len(want) {
		return fmt.Errorf("%d names, Keys() says %d", len(names), len(want))
	}
	for i, n := range names {
		if n.String() != want[i] {
			return fmt.Errorf("name %d is %q, Keys() says %q", i, n.String(), want[i])
		}
		v, ok := plainGet(o, n)
		if !ok {
			continue // an accessor: Get's job
		}
		if strings.ContainsRune(want[i], utf8.RuneError) {
			continue // Keys() text is lossy for lone surrogates: Get cannot find the name
		}
		if w := o.Get(want[i]); v == nil || !v.SameAs(w) {
			return fmt.Errorf("%s = %v, Get says %v", want[i], v, w)
		}
	}
	if v, ok := plainGet(o, "missing"); !ok || v != nil {
		return errors.New("a missing property reads as present")
	}
	return nil
}

func valuesOf(o *goja.Object) map[unistring.String]goja.Value {
	return *(*map[unistring.String]goja.Value)(unsafe.Add(selfOf(o).data, props.values))
}

// PlainKeys appends to buf the names of o's own enumerable string-keyed
// properties, in the order Keys() gives them, and returns it with ok=true,
// if o is goja's usual plain object and goja's name order is already final;
// else it returns buf unchanged and false (use Keys()). It runs no
// JavaScript.
func PlainKeys(o *goja.Object, buf []unistring.String) ([]unistring.String, bool) {
	if o == nil || loadProps() != nil || selfOf(o).tab != kinds.plainTab {
		return buf, false
	}
	return plainKeys(o, buf)
}

func plainKeys(o *goja.Object, buf []unistring.String) ([]unistring.String, bool) {
	p := selfOf(o).data
	names := *(*[]unistring.String)(unsafe.Add(p, props.names))
	sorted := *(*int)(unsafe.Add(p, props.sorted))
	if sorted < 0 || sorted > len(names) {
		return buf, false
	}
	// Names past lastSortedPropLen that could be array indices would have
	// to be moved to the front first: goja's job (Keys() does it).
	for _, n := range names[sorted:] {
		if len(n) > 0 && n[0] >= '0' && n[0] <= '9' {
			return buf, false
		}
	}
	values := *(*map[unistring.String]goja.Value)(unsafe.Add(p, props.values))
	start := len(buf)
	for _, n := range names {
		v := values[n]
		if tab := (*iface)(unsafe.Pointer(&v)).tab; tab == props.vpTab {
			if !*(*bool)(unsafe.Add((*iface)(unsafe.Pointer(&v)).data, props.vpEnum)) {
				continue
			}
		} else if v == nil {
			return buf[:start], false // a name without a value: not a layout this reads
		}
		buf = append(buf, n)
	}
	return buf, true
}

// PlainGet returns the value of o's own data property name, or nil if o has
// no own property of that name, with ok=true; ok=false means "ask Get": o
// is not goja's usual plain object, or the property is an accessor. It runs
// no JavaScript.
func PlainGet(o *goja.Object, name unistring.String) (goja.Value, bool) {
	if o == nil || loadProps() != nil || selfOf(o).tab != kinds.plainTab {
		return nil, false
	}
	return plainGet(o, name)
}

func plainGet(o *goja.Object, name unistring.String) (goja.Value, bool) {
	v, ok := valuesOf(o)[name]
	if !ok {
		return nil, true
	}
	if f := (*iface)(unsafe.Pointer(&v)); f.tab == props.vpTab {
		if *(*bool)(unsafe.Add(f.data, props.vpAccessor)) {
			return nil, false
		}
		return *(*goja.Value)(unsafe.Add(f.data, props.vpValue)), true
	}
	return v, true
}
