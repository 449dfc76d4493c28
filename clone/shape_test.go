package clone_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// The reader takes a name equal to the one at the same position of the last
// object at the same depth without looking it up (readShapeName): objects
// whose names agree, differ, are prefixes or extensions of each other,
// change between ASCII, Latin-1 and UTF-16 at a position, or sit deeper
// than the remembered depths, all read back with their own names in their
// own order, in one message and across messages.
func TestRepeatedLayoutsReadBack(t *testing.T) {
	const src = `(function (round) {
		var names = [["a", "b", "c"], ["a", "b", "c"], ["a", "b"], ["a", "b", "c", "d"], ["ab", "b", "c"], ["b", "a", "c"],
			["é", "b", "c"], ["\u00e9", "b"], ["€", "b"], ["a", "b", "c"], ["", "b"], ["__proto__", "b"], ["1", "0", "a"],
			["ÿþ", "b"], ["\ufeffa", "b"], ["a".repeat(127), "b"], ["a".repeat(128), "b"], ["a".repeat(127), "b"]];
		var out = [];
		for (var i = 0; i < names.length * 3; i++) {
			var ns = names[(i + round) % names.length], o = {};
			for (var j = 0; j < ns.length; j++) o[ns[j]] = i * 10 + j;
			var deep = o;
			for (var d = 0; d < 11; d++) { var n = {}; n[ns[d % ns.length]] = d; n["k" + (i % 3)] = deep; deep = n; }
			out.push({o: o, deep: deep, many: (function () { var m = {}; for (var j = 0; j < 40; j++) m[(i + j) % 2 ? "m" + j : "x" + i] = j; return m; })()});
		}
		return out;
	})`
	src1, dst := goja.New(), goja.New()
	mk := run(t, src1, src)
	fn, _ := goja.AssertFunction(mk)
	dump := `(function dump(v) { if (v === null || typeof v !== "object") return JSON.stringify(v);
		return "{" + Object.keys(v).map(function (k) { return JSON.stringify(k) + ":" + dump(v[k]); }).join(",") + "}" +
			(Object.getPrototypeOf(v) === Object.prototype ? "" : "!proto"); })`
	for round := 0; round < 4; round++ {
		in, err := fn(goja.Undefined(), src1.ToValue(round))
		if err != nil {
			t.Fatal(err)
		}
		f, err := clone.Serialize(src1, in, clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := clone.Deserialize(dst, f)
		if err != nil {
			t.Fatal(err)
		}
		src1.Set("v", in)
		dst.Set("v", out)
		want := run(t, src1, `Array.prototype.map.call(v, `+dump+`).join("\n")`).String()
		if got := run(t, dst, `Array.prototype.map.call(v, `+dump+`).join("\n")`).String(); got != want {
			t.Errorf("round %d:\ngot  %.600s\nwant %.600s", round, got, want)
		}
	}
}
