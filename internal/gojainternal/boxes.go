package gojainternal

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// Numbers that are not integers, and ASCII strings, without allocating.
//
// Like NewInt (values.go): Runtime.ToValue boxes a float64 or a string into
// a goja Value, one allocation each. A reader that makes many (a structured
// clone of a large graph) can keep the float64s and string headers in slabs
// of its own and hand goja pointers into them: NewFloat and NewASCII
// assemble the Value from goja's type word for the representation and that
// pointer. The probes check that ToValue gives that representation for such
// values and that an assembled one reads back as ToValue's does.

var boxes struct {
	once     sync.Once
	err      error
	floatTab unsafe.Pointer
	asciiTab unsafe.Pointer
}

func loadBoxes() error {
	boxes.once.Do(func() {
		if err := probeBoxes(); err != nil {
			boxes.err = probeError("number and string values", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return boxes.err
}

func probeBoxes() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	if unsafe.Sizeof(goja.Value(nil)) != unsafe.Sizeof(iface{}) {
		return errors.New("goja.Value is not an interface")
	}
	rt := goja.New()
	tabOf := func(v goja.Value) unsafe.Pointer { return (*iface)(unsafe.Pointer(&v)).tab }

	a, b := rt.ToValue(1.5), rt.ToValue(-1e300/7)
	ft := tabOf(a)
	if ft == nil || ft != tabOf(b) || ft == tabOf(rt.ToValue(int64(3))) {
		return errors.New("numbers that are not integers do not share one type of their own")
	}
	if t := reflect.TypeOf(a); t.Kind() != reflect.Float64 || t.Size() != 8 {
		return fmt.Errorf("numbers are %s, not a float64 kind", t)
	}
	for _, x := range []float64{0.1, -2.75, 1e-310, math.MaxFloat64, 4503599627370495.5} {
		v := makeValue(ft, unsafe.Pointer(&x))
		w := rt.ToValue(x)
		if tabOf(w) != ft || !v.StrictEquals(w) || v.ToFloat() != x || v.Export() != w.Export() || v.String() != w.String() {
			return fmt.Errorf("an assembled number %v does not read back", x)
		}
	}

	s := rt.ToValue("ab")
	st := tabOf(s)
	if st == nil || st != tabOf(rt.ToValue("")) || st != tabOf(goja.StringFromUTF16([]uint16{'x'})) || st == tabOf(rt.ToValue("é")) {
		return errors.New("ASCII strings do not share one type of their own")
	}
	if t := reflect.TypeOf(s); t.Kind() != reflect.String || t.Size() != unsafe.Sizeof("") {
		return fmt.Errorf("ASCII strings are %s, not a string kind", t)
	}
	for _, x := range []string{"", "a", "item-1234", "with space and \x7f"} {
		v := makeValue(st, unsafe.Pointer(&x))
		w := rt.ToValue(x)
		gs, ok := v.(goja.String)
		if !ok || !v.StrictEquals(w) || v.String() != x || v.Export() != x || gs.Length() != len(x) {
			return fmt.Errorf("an assembled string %q does not read back", x)
		}
		rt.Set("v", v)
		if r, err := rt.RunString(`typeof v === "string" && v + "!" === ` + fmt.Sprintf("%q", x+"!")); err != nil || !r.ToBoolean() {
			return fmt.Errorf("an assembled string %q does not work in scripts: %v", x, err)
		}
	}
	boxes.floatTab, boxes.asciiTab = ft, st
	return nil
}

func makeValue(tab, p unsafe.Pointer) goja.Value {
	var v goja.Value
	*(*iface)(unsafe.Pointer(&v)) = iface{tab, p}
	return v
}

// NewFloat returns a goja Number whose value is *p, without allocating, or
// nil if the probe failed (use Runtime.ToValue then). *p must be finite and
// not an integer (ToValue represents integers, NaN and the infinities
// otherwise), and must never change afterwards: the Value reads it.
func NewFloat(p *float64) goja.Value {
	if loadBoxes() != nil {
		return nil
	}
	return makeValue(boxes.floatTab, unsafe.Pointer(p))
}

// NewASCII returns a goja string whose value is *p, without allocating, or
// nil if the probe failed (use Runtime.ToValue then). *p must hold ASCII
// only (ToValue represents other strings otherwise), and must never change
// afterwards: the Value reads it.
func NewASCII(p *string) goja.Value {
	if loadBoxes() != nil {
		return nil
	}
	return makeValue(boxes.asciiTab, unsafe.Pointer(p))
}
