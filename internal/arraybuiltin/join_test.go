package arraybuiltin

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// The differential tests of join, toLocaleString, flat and flatMap run each case in two runtimes: goja's own, and
// one whose Array.prototype methods of these names are ours for every receiver (as core routes those over
// Threshold, the length read first), so that nested joins and cycles go through ours too. They compare the
// rendered result and the log of what a script could observe.

// renderJS renders a result: a primitive as its type and String; an object as its own property names and values
// (holes show), with its constructor's name when not Array or Object, nested arrays rendered alike ("cycle" when
// met again).
const renderJS = `function render(a, seen) {
	if (typeof a !== "object" || a === null) { return typeof a + " " + String(a) }
	seen = seen || [];
	if (seen.indexOf(a) >= 0) { return "cycle" }
	seen.push(a);
	var c = a.constructor === Array || a.constructor === Object ? "" : "(" + (a.constructor && a.constructor.name) + ")";
	return c + (Array.isArray(a) ? "[" : "{") + JSON.stringify(Object.getOwnPropertyNames(a).map(function (k) {
		var v = a[k];
		return k + "=" + (Array.isArray(v) ? render(v, seen) : typeof v === "object" && v !== null ? "obj" : typeof v === "symbol" ? "sym" : String(v));
	})) + (Array.isArray(a) ? "]" : "}");
}`

// caseJS is one case: expr evaluated with a fresh log, rendered, and the log.
func caseJS(expr string) string {
	return `(function () { var log = []; var res; try { res = render(` + expr + `) } catch (e) { res = "threw " + e.name + ": " + e.message }
		return res + " | " + JSON.stringify(log) })()`
}

// installOurs makes r's Array.prototype join, toLocaleString, flat and flatMap ours, with one Joining.
func installOurs(r *Realm) {
	rt := r.RT
	j := &Joining{}
	proto := rt.Get("Array").(*goja.Object).Get("prototype").(*goja.Object)
	method := func(name string, m func(o *goja.Object, n float64, c goja.FunctionCall) goja.Value) {
		_ = proto.Set(name, func(c goja.FunctionCall) goja.Value {
			o := c.This.ToObject(rt)
			return m(o, lengthOf(o), c)
		})
	}
	method("join", func(o *goja.Object, n float64, c goja.FunctionCall) goja.Value {
		return Join(r, j, o, n, c.Argument(0))
	})
	method("toLocaleString", func(o *goja.Object, n float64, c goja.FunctionCall) goja.Value { return ToLocaleString(r, j, o, n) })
	method("flat", func(o *goja.Object, n float64, c goja.FunctionCall) goja.Value { return Flat(r, o, n, c.Argument(0)) })
	method("flatMap", func(o *goja.Object, n float64, c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			panic(rt.NewTypeError("flatMap mapper function is not callable"))
		}
		return FlatMap(r, o, n, fn, c.Argument(1))
	})
}

// pair is goja's runtime and ours, each with render.
type pair struct{ goja, ours *goja.Runtime }

func newPair(t testing.TB) pair {
	p := pair{goja.New(), goja.New()}
	installOurs(&Realm{RT: p.ours})
	for _, rt := range []*goja.Runtime{p.goja, p.ours} {
		if _, err := rt.RunString(renderJS); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func runCase(rt *goja.Runtime, expr string) string {
	v, err := rt.RunString(caseJS(expr))
	if err != nil {
		return "error " + err.Error()
	}
	return v.String()
}

// addresses are the pointers goja prints in some messages ("Could not convert &{Object 0x…").
var addresses = regexp.MustCompile(`0x[0-9a-f]+`)

// compare runs expr on both sides.
func (p pair) compare(t *testing.T, expr string) {
	t.Helper()
	want, got := runCase(p.goja, expr), runCase(p.ours, expr)
	if addresses.ReplaceAllString(got, "0x") != addresses.ReplaceAllString(want, "0x") {
		t.Errorf("%s\n  goja: %s\n  ours: %s", expr, want, got)
	}
}

// joinReceivers are join's and toLocaleString's own receivers, added to corpus_test.go's.
var joinReceivers = []string{
	`[{toString() { log.push("ts"); return "a" }}, {valueOf() { log.push("vo"); return 1 }, toString() { log.push("ts {}"); return {} }}, null, undefined, , 3]`,
	`[{toLocaleString() { log.push("tls " + typeof this); return {toString() { log.push("ts2"); return "L" }} }}, 1, "s", true, , null, -0, 1.5]`,
	`[{toLocaleString: 1, toString() { log.push("ts"); return "X" }}]`,
	`[1, {toLocaleString: undefined}]`,
	`[Symbol("s"), 1]`,
	`[1e21, 1e-7, -0, NaN, Infinity, -Infinity, true, false, 123456789012, 0.1 + 0.2, -5, 2**53, {valueOf() { return 7 }, toString() { return {} }}, {toString() { return null }}, {toString() { return undefined }}, {toString() { return Symbol() }}]`,
	`[{toString() { return Symbol() }}]`,
	`[{toString() { throw new Error("boom") }, toLocaleString() { throw new Error("locale boom") }}, 2]`,
	`(function () { var a = [1, 2]; a[2] = a; a[3] = [a, 4]; return a })()`,
	`(function () { var a = [1]; a[1] = {toLocaleString() { return a.join("-") }, toString() { return a.toLocaleString() }}; return a })()`,
	`(function () { var a = [1, , 2], b = [a, 3]; a[1] = b; return b })()`,
	`["x".repeat(100000), "y", , "z"]`,
	`["é", 1, "😀", , "\uD800"]`,
	`[[1, [2, , 3]], [], [[]], [null, undefined]]`,
	`Object.defineProperty([1, 2, 3], 1, {get() { log.push("get1"); return {toString() { log.push("ts1"); return "b" }} }})`,
	`(function () { var a = [1, 2, 3]; Object.defineProperty(a, 0, {get() { log.push("get0"); a.length = 1; return 0 }}); return a })()`,
	`Object.setPrototypeOf([1, , , , 5], new Proxy(Object.create(Array.prototype), {get(t, k, r) { if (typeof k === "string") log.push("pget " + k); return Reflect.get(t, k, r) }}))`,
	`"abc"`,
	`5`,
	`(function () { var a = new Array(70000); a[0] = "first"; a[69999] = "last"; a[300] = {toString() { log.push("ts300"); return "m" }}; return a })()`,
}

// seps are join's separator arguments (the empty string: none).
var seps = []string{``, `undefined`, `""`, `"-"`, `null`, `0`, `"éé"`, `{toString() { log.push("sep"); return "+" }}`,
	`{toString() { log.push("sep"); return {} }}`, `"ab".repeat(50)`, `Symbol()`}

func TestJoinDifferential(t *testing.T) {
	p := newPair(t)
	cases := 0
	for _, recv := range append(append([]string(nil), receivers...), joinReceivers...) {
		if strings.HasPrefix(recv, "new Proxy") {
			continue // (TestJoinProxy)
		}
		long := strings.Contains(recv, "000")
		for i, sep := range seps {
			if long && testing.Short() && i%3 != 0 {
				continue
			}
			p.compare(t, "Array.prototype.join.call("+recv+", "+sep+")")
			cases++
		}
		p.compare(t, "Array.prototype.join.call("+recv+")")
		p.compare(t, "Array.prototype.toLocaleString.call("+recv+")")
		p.compare(t, "String("+recv+")")
		cases += 3
	}
	t.Logf("%d cases", cases)
}

// Function bodies that change the realm, each in fresh runtimes.
func TestJoinScripts(t *testing.T) {
	for _, body := range []string{
		`Object.defineProperty(Number.prototype, "toLocaleString", {get() { "use strict"; log.push("getter " + typeof this); return function () { "use strict"; return typeof this } }});
			return [1, 2, , "s"].toLocaleString()`,
		`Object.defineProperty(String.prototype, "toLocaleString", {value: 5}); return ["s"].toLocaleString()`,
		`Array.prototype[3] = "p3"; Object.prototype[5] = "o5"; return [1, , , , , , 7].join()`,
		`Array.prototype[70001] = "p"; var a = new Array(70005); a[2] = 2; return a.join("") + a.toLocaleString().length`,
		`var a = []; a[100000] = 1; Object.setPrototypeOf(a, {__proto__: Array.prototype, get 50000() { log.push("g"); return "x" }});
			return a.join("").length + a.join("")`,
	} {
		newPair(t).compare(t, "(function () { "+body+" })()")
	}
}

// On a Proxy receiver goja reads what the specification reads only by chance of its code; ours follow the
// specification, as node v20 does: these are node's results and logs (its TypeError's message for an element
// whose toLocaleString is not callable differs from goja's, so none is here).
func TestJoinProxy(t *testing.T) {
	const traps = `{has(t, k) { log.push("has " + String(k)); return k in t }, get(t, k) { log.push("get " + String(k)); return t[k] }}`
	p := newPair(t)
	for _, c := range []struct{ expr, want string }{
		{`new Proxy([1, , 3, [4, , 5]], ` + traps + `).join()`,
			`string 1,,3,4,,5 | ["get join","get length","get 0","get 1","get 2","get 3"]`},
		{`Array.prototype.join.call(new Proxy([1, , null], ` + traps + `), {toString() { log.push("sep"); return "+" }})`,
			`string 1++ | ["get length","sep","get 0","get 1","get 2"]`},
		{`new Proxy(["a", , {toLocaleString() { log.push("tls"); return "T" }}], ` + traps + `).toLocaleString()`,
			`string a,,T | ["get toLocaleString","get length","get 0","get 1","get 2","tls"]`},
		{`String(new Proxy([1, 2], ` + traps + `))`,
			`string 1,2 | ["get Symbol(Symbol.toPrimitive)","get toString","get join","get length","get 0","get 1"]`},
		// V8's order: the separator is converted before the cycle check (goja checks first)
		{`(function () { var a = [1, 2]; a[2] = {toString() { return a.join({toString() { log.push("sep"); return ";" }}) }}; return a.join() })()`,
			`string 1,2, | ["sep"]`},
		{`new Proxy([1, , 3, 2], ` + traps + `).join("-")`,
			`string 1--3-2 | ["get join","get length","get 0","get 1","get 2","get 3"]`},
	} {
		if got := runCase(p.ours, c.expr); got != c.want {
			t.Errorf("%s\n  node: %s\n  ours: %s", c.expr, c.want, got)
		}
	}
}

// A huge sparse receiver answers at once, its holes skipped; the separators of the holes are counted first.
func TestJoinHugeSparse(t *testing.T) {
	rt := goja.New()
	r := &Realm{RT: rt}
	v, err := rt.RunString(`var a = new Array(2**32 - 1); a[5] = "a"; a[1e9] = "b"; a[2**32 - 2] = "c"; a`)
	if err != nil {
		t.Fatal(err)
	}
	a := v.(*goja.Object)
	start := time.Now()
	if got := Join(r, nil, a, 1<<32-1, rt.ToValue("")).String(); got != "abc" {
		t.Errorf("join(\"\") = %q", got)
	}
	if err := thrownBy(func() { Join(r, nil, a, 1<<32-1, rt.ToValue(",")) }); err != "RangeError: Invalid string length" {
		t.Errorf("join(\",\") threw %q", err)
	}
	b, _ := rt.RunString(`var b = new Array(2**20); b[7] = "x"; b[2**20 - 1] = {toLocaleString() { return "y" }}; b`)
	if got := ToLocaleString(r, nil, b.(*goja.Object), 1<<20).String(); got != strings.Repeat(",", 7)+"x"+strings.Repeat(",", 1<<20-8)+"y" {
		t.Errorf("toLocaleString: %d units", len(got))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// The limit is the result's length: separators of holes, or elements, past MaxStringLength are a RangeError, the
// separators' before any is written.
func TestJoinStringLimit(t *testing.T) {
	rt := goja.New()
	r := &Realm{RT: rt}
	holes, _ := rt.RunString(`new Array(2**20 + 1)`)
	if err := thrownBy(func() { Join(r, nil, holes.(*goja.Object), 1<<20+1, rt.ToValue(strings.Repeat("x", 1<<9))) }); err != "RangeError: Invalid string length" {
		t.Errorf("2**20 separators of 2**9: %q", err)
	}
	if got := Join(r, nil, holes.(*goja.Object), 1<<20+1, rt.ToValue("0123456789abcdef")).(goja.String).Length(); got != 1<<24 {
		t.Errorf("2**20 separators of 16: %d units", got)
	}
	if testing.Short() {
		return
	}
	elems, _ := rt.RunString(`var s = "y".repeat(2**27); [s, s, , s, s]`)
	if err := thrownBy(func() { Join(r, nil, elems.(*goja.Object), 5, rt.ToValue("")) }); err != "RangeError: Invalid string length" {
		t.Errorf("four elements of 2**27: %q", err)
	}
}

// thrownBy runs f and returns what it threw as "name: message" ("" when it returned).
func thrownBy(f func()) (thrown string) {
	defer func() {
		if x := recover(); x != nil {
			switch e := x.(type) {
			case *goja.Object:
				thrown = e.Get("name").String() + ": " + e.Get("message").String()
			case *goja.Exception:
				o := e.Value().(*goja.Object)
				thrown = o.Get("name").String() + ": " + o.Get("message").String()
			default:
				thrown = fmt.Sprint(x)
			}
		}
	}()
	f()
	return ""
}

// joinFlatRealm is a runtime whose globals join, toLocaleString, flat and flatMap (receiver first) are ours, with a
// realm polling poll.
func joinFlatRealm(poll func(rt *goja.Runtime)) (*goja.Runtime, *Realm) {
	rt := goja.New()
	r := &Realm{RT: rt}
	r.Poll = func() { poll(rt) }
	j := &Joining{}
	receiver := func(c goja.FunctionCall) (*goja.Object, float64) {
		o := c.Argument(0).ToObject(rt)
		return o, lengthOf(o)
	}
	_ = rt.Set("join", func(c goja.FunctionCall) goja.Value { o, n := receiver(c); return Join(r, j, o, n, c.Argument(1)) })
	_ = rt.Set("toLocaleString", func(c goja.FunctionCall) goja.Value { o, n := receiver(c); return ToLocaleString(r, j, o, n) })
	_ = rt.Set("flat", func(c goja.FunctionCall) goja.Value { o, n := receiver(c); return Flat(r, o, n, c.Argument(1)) })
	_ = rt.Set("flatMap", func(c goja.FunctionCall) goja.Value {
		o, n := receiver(c)
		fn, _ := goja.AssertFunction(c.Argument(1))
		return FlatMap(r, o, n, fn, goja.Undefined())
	})
	return rt, r
}

// Each walk ends at the first poll after the realm was interrupted, with goja's uncatchable interruption.
func TestJoinFlatStop(t *testing.T) {
	for name, src := range map[string]string{
		"join array-like":          `join({length: 2**32 - 1}, ",")`,
		"join array-like empty":    `join({length: 2**32 - 1}, "")`,
		"join separators":          `join(new Array(2**20), "x".repeat(200))`,
		"toLocaleString":           `toLocaleString({length: 2**32 - 1})`,
		"flat array-like":          `flat({length: 2**32 - 1})`,
		"flat nested":              `flat([1, new Proxy([], {get(t, k) { return k === "length" ? 2**32 - 1 : t[k] }})])`,
		"flatMap":                  `flatMap({length: 2**32 - 1, 0: 1}, x => [x])`,
		"join elements of 2**16-1": `join(Array(2**12).fill("z".repeat(2**16 - 1)), "")`,
	} {
		t.Run(name, func(t *testing.T) {
			polls := 0
			rt, _ := joinFlatRealm(func(rt *goja.Runtime) {
				if polls++; polls == 3 {
					rt.Interrupt("stop")
				}
			})
			_, err := rt.RunString(`var after = "not run"; try { ` + src + `; after = "returned" } catch (e) { after = "caught" } finally { after += " finally" }`)
			var ie *goja.InterruptedError
			if !errors.As(err, &ie) || ie.Value() != "stop" {
				t.Fatalf("err = %v, want the interruption", err)
			}
			if polls != 3 {
				t.Fatalf("polled %d times, want the call to end at the third poll", polls)
			}
			rt.ClearInterrupt()
			if v := rt.Get("after"); v.String() != "not run" {
				t.Fatalf("after = %s: the script went on", v)
			}
		})
	}
}

// During a poll, the realm's Building counts what the call made so far (the string's code units, the array's
// elements); nothing after it returned.
func TestJoinFlatBuilding(t *testing.T) {
	for name, src := range map[string]string{
		"join": `join({length: 2**17}, "ab")`,
		"flat": `flat(new Proxy({}, {has() { return true }, get(t, k) { return k === "length" ? 2**17 : 1 }}))`,
	} {
		t.Run(name, func(t *testing.T) {
			var building int64
			var seen []int64
			rt, r := joinFlatRealm(func(*goja.Runtime) { seen = append(seen, building) })
			r.Building = &building
			if _, err := rt.RunString(src); err != nil {
				t.Fatal(err)
			}
			if len(seen) < 2 || seen[0] <= 0 || seen[len(seen)-1] <= seen[0] || building != 0 {
				t.Fatalf("building during polls %v, after %d", seen, building)
			}
		})
	}
}

// BenchmarkJoinDense compares ours with goja's join on a dense array of 100,000 small integers.
func BenchmarkJoinDense(b *testing.B) {
	rt := goja.New()
	r := &Realm{RT: rt}
	v, err := rt.RunString(`Array.from({length: 100000}, (_, i) => i % 1000)`)
	if err != nil {
		b.Fatal(err)
	}
	a := v.(*goja.Object)
	sep := rt.ToValue(",")
	b.Run("ours", func(b *testing.B) {
		for b.Loop() {
			Join(r, nil, a, 100000, sep)
		}
	})
	join, _ := goja.AssertFunction(rt.Get("Array").(*goja.Object).Get("prototype").(*goja.Object).Get("join"))
	b.Run("goja", func(b *testing.B) {
		for b.Loop() {
			if _, err := join(a, sep); err != nil {
				b.Fatal(err)
			}
		}
	})
}
