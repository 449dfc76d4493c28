package clone_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// Objects built in one step (gojainternal.FillPlainObject) and through
// goja's public API (the fail-closed path) are the same to scripts.
func TestFilledObjectsMatchSetPath(t *testing.T) {
	srcs := []string{
		`({})`, `({i: 1, s: "hello"})`, `({b: 1, 2: "two", a: [1, {c: 3}], 1: null})`,
		`({["__proto__"]: {x: 1}, y: 2})`, `var o = {a: 1}; o.self = o; o.list = [o, {o: o}]; o`,
		`({é: 1, "€": 2, "😀": 3, "": 4})`, `var o = {}; for (var i = 0; i < 40; i++) o["k" + i] = i * 1.5; o`,
		`[{a: 1, b: 2}, {a: 3, b: 4}, {b: 5, a: 6}]`, `({d: new Date(0), m: new Map([[1, {x: 1}]]), big: 123456789})`,
	}
	// What a script sees of the copy: its JSON, key orders, descriptors,
	// prototype, and what it does after a few changes.
	const probe = `JSON.stringify([Object.keys(v), Object.getPrototypeOf(v) === Object.prototype,
		Object.getOwnPropertyNames(v).map(function (k) { var d = Object.getOwnPropertyDescriptor(v, k);
			return [k, d.writable, d.enumerable, d.configurable, typeof d.value, d.value === v]; }),
		(function () { try { return JSON.stringify(v); } catch (e) { return "cyclic"; } })(),
		(v.z = 1, delete v[Object.keys(v)[0]], Object.keys(v))])`
	for _, src := range srcs {
		f := mustSerialize(t, src)
		data := append([]byte(nil), f.Bytes()...)
		f.Release()
		see := func() string {
			rt := goja.New()
			v, err := clone.Deserialize(rt, clone.NewFrame(append([]byte(nil), data...)))
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			if err := rt.Set("v", v); err != nil {
				t.Fatal(err)
			}
			return run(t, rt, probe).String()
		}
		filled := see()
		restore := clone.BuildObjectsWithSet()
		set := see()
		restore()
		if filled != set {
			t.Errorf("%s:\nfilled %s\nset    %s", src, filled, set)
		}
	}
}
