package clone_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// Plain objects are read through gojainternal's fast path with the
// semantics of structured clone: the enumerable names are taken first, each
// value when its turn comes. The expected results are Node 20's
// (structuredClone there, by hand, same sources).
func TestPlainObjectsLikeNode(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"getter of a nested object mutates its parent", `var outer = {a: {get x() { delete outer.b; outer.c = 5; outer.d = 9;
			Object.defineProperty(outer, "e", {enumerable: false}); return 1; }}, b: 1, c: 2, e: 3}; outer`,
			`{"a":{"x":1},"c":5,"e":3}`},
		{"index names first", `({b: 1, 2: 2, a: 3, 1: 4})`, `{"1":4,"2":2,"b":1,"a":3}`},
		{"accessor read with its getter", `({get g() { return 7; }, h: 1})`, `{"g":7,"h":1}`},
		{"non-enumerable skipped", `Object.defineProperty({a: 1}, "h", {value: 2, enumerable: false})`, `{"a":1}`},
		{"non-ASCII names", `({é: 1, "€": 2, a: {ü: 3}})`, `{"é":1,"€":2,"a":{"ü":3}}`},
		{"deep and wide", `var o = {}; for (var i = 0; i < 50; i++) o["k" + i] = {i: i, s: [i]}; ({o: o, n: Object.keys(o).length})`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := goja.New()
			in := run(t, src, c.src)
			f, err := clone.Serialize(src, in, clone.Options{})
			if err != nil {
				t.Fatal(err)
			}
			dst := goja.New()
			v, err := clone.Deserialize(dst, f)
			if err != nil {
				t.Fatal(err)
			}
			dst.Set("v", v)
			want := c.want
			if want == "" {
				src.Set("x", in)
				want = run(t, src, `JSON.stringify(x)`).String()
			}
			if got := run(t, dst, `JSON.stringify(v)`).String(); got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}
