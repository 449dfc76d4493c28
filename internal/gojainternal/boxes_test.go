package gojainternal

import (
	"errors"
	"math"
	"testing"

	"github.com/dop251/goja"
)

func TestNewFloat(t *testing.T) {
	rt := goja.New()
	for _, x := range []float64{0.5, -0.001, 123456.789, 1e-320, -math.MaxFloat64, 9007199254740991.5 - 0.5 + 0.25} {
		if x == math.Trunc(x) {
			continue // (not what NewFloat is for)
		}
		p := new(float64)
		*p = x
		v := NewFloat(p)
		if v == nil {
			t.Fatal(loadBoxes())
		}
		if !v.StrictEquals(rt.ToValue(x)) || v.Export() != x || v.String() != rt.ToValue(x).String() {
			t.Errorf("NewFloat(%v) = %v", x, v)
		}
		rt.Set("v", v)
		rt.Set("w", x)
		if r, err := rt.RunString(`typeof v === "number" && v === w && Object.is(v * 2, w * 2) && String(v) === String(w)`); err != nil || !r.ToBoolean() {
			t.Errorf("NewFloat(%v) in JavaScript: %v %v", x, r, err)
		}
	}
}

func TestNewASCII(t *testing.T) {
	rt := goja.New()
	for _, x := range []string{"", "a", "item-9999", "__proto__", "0", "x y\tz~"} {
		p := new(string)
		*p = x
		v := NewASCII(p)
		if v == nil {
			t.Fatal(loadBoxes())
		}
		s, ok := v.(goja.String)
		if !ok || !IsASCII(s) || !v.StrictEquals(rt.ToValue(x)) || v.Export() != x {
			t.Errorf("NewASCII(%q) = %v", x, v)
		}
		rt.Set("v", v)
		rt.Set("w", x)
		if r, err := rt.RunString(`typeof v === "string" && v === w && v.length === w.length && JSON.stringify({[v]: v}) === JSON.stringify({[w]: w}) && new Map([[v, 1]]).get(w) === 1`); err != nil || !r.ToBoolean() {
			t.Errorf("NewASCII(%q) in JavaScript: %v %v", x, r, err)
		}
	}
}

func TestBoxesFailClosed(t *testing.T) {
	defer SimulateChange(errors.New("test: simulated goja upgrade"))()
	x, s := 1.5, "a"
	if NewFloat(&x) != nil || NewASCII(&s) != nil {
		t.Error("NewFloat or NewASCII assembled a value although goja's internals are not as expected")
	}
}
