package arraybuiltin

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// flatReceivers are flat's and flatMap's own receivers, added to corpus_test.go's.
var flatReceivers = []string{
	`[1, [2, [3, [4, [5]]]], , [ , 6], []]`,
	`[[1, , 2], "ab", {length: 1, 0: "x"}, null, undefined, [null, [undefined]]]`,
	`Object.defineProperty([1, [2], 3], 1, {get() { log.push("get1"); return [9, [8, [7]]] }})`,
	`[Object.setPrototypeOf([ , 2, , 4], Object.assign(Object.create(Array.prototype), {0: "p0", 2: "p2"})), 5]`,
	`[(function () { var a = []; a[100000] = 1; a[3] = [0]; return a })(), new Array(70000)]`,
	`(function () { var a = [1, [2, 3], 4]; Object.defineProperty(a, 0, {get() { log.push("get0"); a.length = 2; a[1].push([5]); return 0 }}); return a })()`,
	`(function () { class S extends Array { static get [Symbol.species]() { log.push("species"); return S } } var s = S.of(1, [2, [3]], 4); s[6] = [5]; return s })()`,
	`(function () { class T extends Array { static get [Symbol.species]() { log.push("species"); return function (n) { log.push("ctor " + n); return {} } } } return T.of([1], 2) })()`,
	`(function () { class F extends Array { static get [Symbol.species]() { return function () { return Object.freeze([]) } } } return F.of(1, [2]) })()`,
	`(function () { class B extends Array { static get [Symbol.species]() { return 5 } } return B.of(1) })()`,
	`(function () { var a = [1, 2]; a.constructor = {[Symbol.species]: null}; return a })()`,
	`(function () { var a = [1, [2]]; a.constructor = undefined; return a })()`,
	`(function () { var c = [1]; c[1] = c; return c })()`,
	`[{toString() { log.push("ts"); return "t" }}, [{valueOf() { log.push("vo"); return 1 }}]]`,
}

// depths are flat's depth arguments (the empty string: none).
var depths = []string{``, `undefined`, `0`, `1`, `2`, `Infinity`, `-1`, `-Infinity`, `NaN`, `"2"`, `1.9`, `null`,
	`{valueOf() { log.push("depth"); return 2 }}`, `Symbol()`}

// mappers are flatMap's argument lists.
var mappers = []string{
	`function (x, i, o) { log.push(String(x) + ":" + i + ":" + (o === this)); return x }`,
	`function (x, i) { return [x, [i]] }`,
	`function (x) { return this.k ? [x, this.k] : x }, {k: "t"}`,
	`function (x, i, o) { if (i == 0) { o.length > 2 && delete o[2] } return [x, , x] }`,
	`function (x, i) { return i % 2 ? new Proxy([i], {}) : {length: 1, 0: i} }`,
	`function () { throw new Error("mapped") }`,
}

func TestFlatDifferential(t *testing.T) {
	p := newPair(t)
	cases := 0
	for _, recv := range append(append([]string(nil), receivers...), flatReceivers...) {
		if strings.HasPrefix(recv, "new Proxy") {
			continue // (TestFlatProxy)
		}
		long := strings.Contains(recv, "000")
		for i, d := range depths {
			if long && testing.Short() && i%4 != 0 {
				continue
			}
			if strings.Contains(recv, "c[1] = c") && d == "Infinity" {
				continue // goja's recursion overflows the Go stack, a fatal error (TestFlatDepth)
			}
			p.compare(t, "Array.prototype.flat.call("+recv+map[bool]string{true: "", false: ", " + d}[d == ""]+")")
			cases++
		}
		for i, m := range mappers {
			if long && testing.Short() && i%3 != 0 {
				continue
			}
			p.compare(t, "Array.prototype.flatMap.call("+recv+", "+m+")")
			cases++
		}
	}
	t.Logf("%d cases", cases)
}

// On Proxy receivers and elements, node v20's results and logs.
func TestFlatProxy(t *testing.T) {
	const traps = `{has(t, k) { log.push("has " + String(k)); return k in t }, get(t, k) { log.push("get " + String(k)); return t[k] }}`
	p := newPair(t)
	for _, c := range []struct{ expr, want string }{
		{`new Proxy([1, , 3, [4, , [5]]], ` + traps + `).flat()`,
			`[["0=1","1=3","2=4","3=[[\"0=5\",\"length=1\"]]","length=4"]] | ["get flat","get length","get constructor","has 0","get 0","has 1","has 2","get 2","has 3","get 3"]`},
		{`new Proxy([1, , [2]], ` + traps + `).flatMap((x, i) => [x, i])`,
			`[["0=1","1=0","2=[[\"0=2\",\"length=1\"]]","3=2","length=4"]] | ["get flatMap","get length","get constructor","has 0","get 0","has 1","has 2","get 2"]`},
		{`[0, new Proxy([7, , [8]], ` + traps + `)].flat(Infinity)`,
			`[["0=0","1=7","2=8","length=3"]] | ["get length","has 0","get 0","has 1","has 2","get 2"]`},
		{`[0, new Proxy([7, , [8]], ` + traps + `)].flat(0)`, // (the log: render's reads)
			`[["0=0","1=[[\"0=7\",\"2=[[\\\"0=8\\\",\\\"length=1\\\"]]\",\"length=3\"]]","length=2"]] | ["get constructor","get 0","get 2","get length"]`},
		{`Array.prototype.flat.call(new Proxy({length: 3, 0: [1], 2: 2}, ` + traps + `))`,
			`[["0=1","1=2","length=2"]] | ["get length","has 0","get 0","has 1","has 2","get 2"]`},
		{`new Proxy([1, , 3, 2], ` + traps + `).flat()`,
			`[["0=1","1=3","2=2","length=3"]] | ["get flat","get length","get constructor","has 0","get 0","has 1","has 2","get 2","has 3","get 3"]`},
		{`new Proxy([1, , 3, 2], ` + traps + `).flatMap(function (x, i) { log.push(x + ":" + i); return [x] })`,
			`[["0=1","1=3","2=2","length=3"]] | ["get flatMap","get length","get constructor","has 0","get 0","1:0","has 1","has 2","get 2","3:2","has 3","get 3","2:3"]`},
	} {
		if got := runCase(p.ours, c.expr); got != c.want {
			t.Errorf("%s\n  node: %s\n  ours: %s", c.expr, c.want, got)
		}
	}
}

// A huge sparse receiver answers at once, as node's result (node itself walks it index by index for minutes).
func TestFlatHugeSparse(t *testing.T) {
	rt := goja.New()
	r := &Realm{RT: rt}
	_ = rt.Set("flat", func(c goja.FunctionCall) goja.Value {
		o := c.Argument(0).ToObject(rt)
		return Flat(r, o, lengthOf(o), c.Argument(1))
	})
	if _, err := rt.RunString(renderJS); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	got := runCase(rt, `(function () { var a = new Array(2**32 - 1); a[3] = 1; a[1e9] = [2, , [3]]; a[2**32 - 2] = 4; return flat(a) })()`)
	if want := `[["0=1","1=2","2=[[\"0=3\",\"length=1\"]]","3=4","length=4"]] | []`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// FlattenIntoArray's recursion is a stack of MaxFlatDepth arrays at most: deeper, or a cycle, is node's RangeError,
// caught by the script; the Go stack does not grow with the depth.
func TestFlatDepth(t *testing.T) {
	rt, _ := joinFlatRealm(func(*goja.Runtime) {})
	for _, c := range []struct{ src, want string }{
		{`nest(5000, [1]).length + ":" + nest(5000, [1])[0]`, "1:1"}, // (nest's result is an array of 5,000 arrays)
		{`flat(nest(5000, [1]), Infinity).join()`, "1"},
		{`flat(nest(MaxFlatDepth - 2, [1, [2]]), Infinity).join()`, "1,2"},
		{`try { flat(nest(MaxFlatDepth - 1, [1, [2]]), Infinity) } catch (e) { e.name + ": " + e.message }`, "RangeError: Maximum call stack size exceeded"},
		{`try { flat(nest(20000, [1]), Infinity) } catch (e) { e.name + ": " + e.message }`, "RangeError: Maximum call stack size exceeded"},
		{`flat(nest(20000, [1]), 3).length`, "1"},
		{`var c = [1]; c[1] = c; try { flat(c, Infinity) } catch (e) { e.name + ": " + e.message }`, "RangeError: Maximum call stack size exceeded"},
		{`flat(c, 3).length`, "5"},
	} {
		_ = rt.Set("MaxFlatDepth", MaxFlatDepth)
		if _, err := rt.RunString(`function nest(n, a) { for (var i = 0; i < n; i++) { a = [a] } return a }`); err != nil {
			t.Fatal(err)
		}
		v, err := rt.RunString(c.src)
		if err != nil || v.String() != c.want {
			t.Errorf("%s: %v, %v; want %s", c.src, v, err, c.want)
		}
	}
}
