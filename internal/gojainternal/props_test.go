package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

func TestPlainKeysAndGet(t *testing.T) {
	if err := loadProps(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	for _, src := range append(propSamples,
		`var o = {}; for (var i = 0; i < 100; i++) o["k" + i] = i; o`,
		`var o = {a: 1}; Object.defineProperty(o, "a", {enumerable: false}); o.b = 2; o`,
		`Object.freeze({a: 1, b: {c: 2}})`,
	) {
		o := mustRun(t, rt, src)
		if err := comparePlain(o); err != nil {
			t.Errorf("%s: %v", src, err)
		}
	}

	// Index-like names goja has not put in order yet: not read until Keys()
	// has sorted them.
	o := mustRun(t, rt, `({b: 1, 2: 2, a: 3})`)
	if _, ok := PlainKeys(o, nil); ok {
		t.Fatal("unsorted index names read")
	}
	o.Keys()
	names, ok := PlainKeys(o, nil)
	if !ok || len(names) != 3 || names[0] != "2" || names[1] != "b" || names[2] != "a" {
		t.Fatalf("after Keys(): %v %v", names, ok)
	}

	// Accessors are Get's: PlainGet says so.
	o = mustRun(t, rt, `({get g() { return 1; }})`)
	if v, ok := PlainGet(o, "g"); ok || v != nil {
		t.Fatalf("accessor read: %v %v", v, ok)
	}
	// buf is appended to, not overwritten.
	names, ok = PlainKeys(mustRun(t, rt, `({x: 1})`), names[:1])
	if !ok || len(names) != 2 || names[0] != "2" || names[1] != "x" {
		t.Fatalf("append: %v %v", names, ok)
	}

	// Only goja's usual plain objects.
	for _, src := range []string{`[1]`, `new Map()`, `Math`, `new Proxy({a: 1}, {})`, `(function () {})`, `new Error("x")`} {
		o := mustRun(t, rt, src)
		if _, ok := PlainKeys(o, nil); ok {
			t.Errorf("%s: PlainKeys read it", src)
		}
		if _, ok := PlainGet(o, "a"); ok {
			t.Errorf("%s: PlainGet read it", src)
		}
	}
	if _, ok := PlainKeys(nil, nil); ok {
		t.Error("nil")
	}
	if _, ok := PlainKeys(rt.ToValue(map[string]any{"a": 1}).(*goja.Object), nil); ok {
		t.Error("a Go map")
	}

	defer SimulateChange(errSimulated)()
	if _, ok := PlainKeys(mustRun(t, rt, `({a: 1})`), nil); ok {
		t.Fatal("read with a failed probe")
	}
}

func BenchmarkPlainKeysGet(b *testing.B) {
	rt := goja.New()
	o := mustRun(b, rt, `({i: 1, s: "msg", t: true, n: null})`)
	b.Run("gojainternal", func(b *testing.B) {
		names, _ := PlainKeys(o, nil)
		for range b.N {
			names, _ = PlainKeys(o, names[:0])
			for _, n := range names {
				PlainGet(o, n)
			}
		}
	})
	b.Run("Keys+Get", func(b *testing.B) {
		for range b.N {
			for _, k := range o.Keys() {
				o.Get(k)
			}
		}
	})
}
