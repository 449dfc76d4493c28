package gojainternal

import (
	"errors"

	"github.com/dop251/goja"
	"testing"
)

func TestArrayElements(t *testing.T) {
	if err := loadArrays(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	for _, src := range append(arraySamples, `var a = []; for (var i = 0; i < 100; i++) a.push(i * 0.5); a`) {
		if err := compareArray(mustRun(t, rt, src)); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}
	a := mustRun(t, rt, `var a = [1, , 3]; a.length = 4; Object.defineProperty(a, 0, {get: function () { return 1; }}); a`)
	if n, ok := ArrayLength(a); !ok || n != 4 {
		t.Fatalf("length %d %v", n, ok)
	}
	if v, ok := ArrayElement(a, 0); ok || v != nil {
		t.Fatalf("accessor read: %v %v", v, ok)
	}
	if v, ok := ArrayElement(a, 1); !ok || v != nil {
		t.Fatalf("hole: %v %v", v, ok)
	}
	if v, ok := ArrayElement(a, 2); !ok || v.ToInteger() != 3 {
		t.Fatalf("element 2: %v %v", v, ok)
	}
	if v, ok := ArrayElement(a, 1<<31); !ok || v != nil {
		t.Fatalf("past the end: %v %v", v, ok)
	}
	for src, want := range map[string]int{`[1, , 3]`: 3, `new Array(2**32 - 1)`: 0, `[]`: 0} {
		if n, ok := ArrayStored(mustRun(t, rt, src)); !ok || n != want {
			t.Errorf("%s: stored %d %v, want %d", src, n, ok, want)
		}
	}
	// Only goja's usual arrays.
	for _, src := range []string{`({length: 1, 0: 1})`, `new Uint8Array(2)`, `new Proxy([1], {})`, `var s = []; s[1e6] = 1; s`} {
		o := mustRun(t, rt, src)
		if _, ok := ArrayLength(o); ok {
			t.Errorf("%s: ArrayLength read it", src)
		}
		if _, ok := ArrayElement(o, 0); ok {
			t.Errorf("%s: ArrayElement read it", src)
		}
		if _, ok := ArrayStored(o); ok {
			t.Errorf("%s: ArrayStored read it", src)
		}
	}
	// ArrayPlainElement: only a slot stored as a plain value (a Set of the same value cannot observe it).
	p := mustRun(t, rt, `var p = [1, , 3, 4, 5]; Object.defineProperty(p, 3, {value: 4, writable: false}); Object.defineProperty(p, 4, {get() { return 5 }}); p`)
	for i, want := range []bool{true, false, true, false, false, false} {
		if v, ok := ArrayPlainElement(p, uint32(i)); ok != want || ok && v.ToInteger() != int64(i+1) {
			t.Errorf("plain element %d: %v %v, want %v", i, v, ok, want)
		}
	}
	if _, ok := ArrayPlainElement(mustRun(t, rt, `Object.freeze([1])`), 0); ok {
		t.Error("a frozen element read as plain")
	}
	if _, ok := ArrayPlainElement(mustRun(t, rt, `new Proxy([1], {})`), 0); ok {
		t.Error("a Proxy's element read as plain")
	}
	restore := SimulateChange(errors.New("simulated"))
	_, ok := ArrayElement(mustRun(t, rt, `[1]`), 0)
	restore()
	if ok {
		t.Error("read while the probe fails")
	}
}
