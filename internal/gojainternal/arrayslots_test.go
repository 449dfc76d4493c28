package gojainternal

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
)

func TestArraySlots(t *testing.T) {
	rt := goja.New()
	for src, want := range map[string]int{
		`[]`: 0, `[1, 2, 3]`: 3, `[1, , 3]`: 3, `(function () { var a = [1]; a.length = 2**32 - 1; return a })()`: 1,
		`(function () { var a = [1, 2, 3]; a.length = 1; return a })()`: 1,
	} {
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := ArraySlots(v.(*goja.Object)); !ok || n != want {
			t.Errorf("ArraySlots(%s) = %d, %v; want %d", src, n, ok, want)
		}
	}
	for _, src := range []string{`({length: 3})`, `new Uint8Array(4)`, `(function () { var a = []; a[2**31] = 1; return a })()`} {
		v, _ := rt.RunString(src)
		if n, ok := ArraySlots(v.(*goja.Object)); ok {
			t.Errorf("ArraySlots(%s) = %d, true; want not known", src, n)
		}
	}
	defer SimulateChange(errors.New("test"))()
	v, _ := rt.RunString(`[1]`)
	if _, ok := ArraySlots(v.(*goja.Object)); ok {
		t.Error("ArraySlots answered with the probe failed")
	}
}
