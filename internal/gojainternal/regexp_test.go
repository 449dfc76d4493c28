package gojainternal

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
)

func TestRegExpStandard(t *testing.T) {
	if err := RegExps(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	v, err := rt.RunString(`[/a/, /b/g, Object.defineProperty(/c/, "x", {value: 1}), {}]`)
	if err != nil {
		t.Fatal(err)
	}
	a := v.(*goja.Object)
	for i, want := range []struct{ std, ok bool }{{true, true}, {true, true}, {false, true}, {false, false}} {
		o := a.Get(string(rune('0' + i))).(*goja.Object)
		if std, ok := RegExpStandard(o); std != want.std || ok != want.ok {
			t.Errorf("element %d: RegExpStandard = %v, %v; want %v, %v", i, std, ok, want.std, want.ok)
		}
	}
	for src, want := range map[string]bool{`"ab".repeat(9)`: true, `"\u00e9".repeat(9)`: false, `"\u{1F600}"`: false} {
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := ASCIIString(v.(goja.String)); got != want {
			t.Errorf("ASCIIString(%s) = %v", src, got)
		}
	}
	b := a.Get("1").(*goja.Object)
	if !SetRegExpStandard(b, false) {
		t.Fatal("SetRegExpStandard refused a RegExp")
	}
	if std, _ := RegExpStandard(b); std {
		t.Fatal("the flag did not change")
	}
	if SetRegExpStandard(a.Get("3").(*goja.Object), false) {
		t.Fatal("SetRegExpStandard accepted a plain object")
	}
	restore := SimulateChange(errors.New("test"))
	defer restore()
	if _, ok := RegExpStandard(b); ok || SetRegExpStandard(b, true) {
		t.Fatal("the flag is still read or written after a simulated change")
	}
}
