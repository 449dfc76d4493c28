package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

func TestArrayHasNoNames(t *testing.T) {
	rt := goja.New()
	for src, want := range map[string]bool{
		`[1, 2]`: true, `new Array(5)`: true, `var a = [1]; a.pop(); a`: true,
		`var a = [1]; a.x = 1; a`: false, `var a = []; a[Symbol.iterator] = 1; a`: true, // symbols are not names
		`(function () { var a = []; a[1e6] = 1; return a; })()`: false, // not goja's usual array: maybe
		`({})`: false, `Array.prototype`: false,
	} {
		if got := ArrayHasNoNames(mustRun(t, rt, src)); got != want {
			t.Errorf("%s: %v, want %v", src, got, want)
		}
	}
	if ArrayHasNoNames(nil) {
		t.Error("nil")
	}
}

func TestNewInt(t *testing.T) {
	rt := goja.New()
	for _, x := range []int64{0, 255, 256, -1, 1 << 53, -(1 << 62)} {
		p := new(int64)
		*p = x
		v := NewInt(p)
		if v == nil {
			t.Fatal(loadInts())
		}
		if !v.StrictEquals(rt.ToValue(x)) || v.Export() != x {
			t.Errorf("NewInt(%d) = %v", x, v)
		}
		rt.Set("v", v)
		if r, err := rt.RunString(`typeof v === "number" && v * 2`); err != nil || r.ToFloat() != 2*float64(x) {
			t.Errorf("NewInt(%d) in JavaScript: %v %v", x, r, err)
		}
	}
}

func TestIsASCII(t *testing.T) {
	rt := goja.New()
	for src, want := range map[string]bool{`"abc"`: true, `""`: true, `"é"`: false, `"\ud800"`: false, `"a€"`: false} {
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := IsASCII(v.(goja.String)); got != want {
			t.Errorf("%s: %v, want %v", src, got, want)
		}
	}
}

func TestUTF16_ReadsUnits(t *testing.T) {
	rt := goja.New()
	v, err := rt.RunString(`"a\ud800\u00e9\ud83d\ude00"`)
	if err != nil {
		t.Fatal(err)
	}
	u, ok := UTF16(v.(goja.String))
	want := []uint16{'a', 0xd800, 0xe9, 0xd83d, 0xde00}
	if !ok || len(u) != len(want) {
		t.Fatalf("UTF16 = %v, %v; want %v", u, ok, want)
	}
	for i := range want {
		if u[i] != want[i] {
			t.Fatalf("UTF16 = %v; want %v", u, want)
		}
	}
	if _, ok := UTF16(rt.ToValue("ascii").(goja.String)); ok {
		t.Fatal("UTF16 answered for an ASCII string")
	}
}
