package clone_test

import (
	"fmt"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// roundTrip serializes src in one runtime, deserializes into another and
// returns the second runtime and the copy.
func roundTrip(t *testing.T, src string) (*goja.Runtime, goja.Value) {
	t.Helper()
	f := mustSerialize(t, src)
	rt, v, err := deserialize(f.Bytes())
	f.Release()
	if err != nil {
		t.Fatalf("Deserialize(%s): %v", src, err)
	}
	return rt, v
}

func TestRoundTripPrimitives(t *testing.T) {
	// Each source is compared with Object.is against itself evaluated in the
	// receiving runtime: exact for -0, NaN, BigInt and every code unit.
	srcs := []string{
		`undefined`, `null`, `true`, `false`,
		`0`, `-0`, `1`, `-1`, `63`, `-64`, `64`, `2147483647`, `-2147483648`, `2147483648`, `-2147483649`,
		`2**53`, `-(2**53)`, `2**53 + 2`, `0.1`, `-1.5`, `1e300`, `Number.MIN_VALUE`, `Number.MAX_VALUE`,
		`NaN`, `Infinity`, `-Infinity`,
		`0n`, `1n`, `-1n`, `255n`, `256n`, `-256n`, `2n**64n`, `-(2n**64n)`, `2n**1000n + 7n`, `-(3n**700n)`,
		`""`, `"hello"`, `"é"`, `"\u00ff\u0000"`, `"€"`, `"日本語"`, `"😀"`, `"a\u0080b"`,
		`"\ud800x"`, `"x\udc00"`, `"\udc00\ud800"`, `"\ud800"`, `"😀\ud83d"`,
		`"x".repeat(100000)`, `"é".repeat(70000)`, `"€".repeat(70000)`,
	}
	for _, src := range srcs {
		t.Run(src, func(t *testing.T) {
			rt, v := roundTrip(t, src)
			check(t, rt, v, fmt.Sprintf("Object.is(v, %s)", src))
		})
	}
}

func TestRoundTripObjects(t *testing.T) {
	tests := []struct{ name, src, cond string }{
		{"empty object", `({})`, `Object.getPrototypeOf(v) === Object.prototype && Object.keys(v).length === 0`},
		{"nested", `({a: 1, b: {c: [1, "x", null], d: {}}, e: "s"})`,
			`JSON.stringify(v) === '{"a":1,"b":{"c":[1,"x",null],"d":{}},"e":"s"}'`},
		{"key order", `({b: 1, 2: 2, a: 3, 1: 4})`, `Object.keys(v).join() === "1,2,b,a"`},
		{"non-ASCII keys", `({"é": 1, "日本": 2, "😀": 3, "\ufffe": 4})`,
			`v["é"] === 1 && v["日本"] === 2 && v["😀"] === 3 && v["\ufffe"] === 4 && Object.keys(v).length === 4`},
		{"long key", `({["k".repeat(1000)]: 1})`, `v["k".repeat(1000)] === 1`},
		{"__proto__ is an ordinary key", `JSON.parse('{"__proto__": {"x": 1}, "y": 2}')`,
			`Object.getPrototypeOf(v) === Object.prototype && v.x === undefined && v.y === 2 &&
			 Object.getOwnPropertyDescriptor(v, "__proto__").value.x === 1`},
		{"data properties", `({get x() { return 42; }})`,
			`var d = Object.getOwnPropertyDescriptor(v, "x"); d.value === 42 && d.writable && d.enumerable && d.configurable`},
		{"non-enumerable dropped", `Object.defineProperty({a: 1}, "h", {value: 2, enumerable: false})`,
			`v.a === 1 && !("h" in v)`},
		{"symbol keys dropped", `({[Symbol("s")]: 1, a: 2})`, `Object.getOwnPropertySymbols(v).length === 0 && v.a === 2`},
		{"inherited dropped", `Object.create({inh: 1}, {own: {value: 2, enumerable: true}})`,
			`v.own === 2 && v.inh === undefined && Object.getPrototypeOf(v) === Object.prototype`},
		{"null prototype", `var o = Object.create(null); o.a = 1; o`, `Object.getPrototypeOf(v) === Object.prototype && v.a === 1`},
		{"class instance", `class P { constructor() { this.x = 1; this.#p = 2; } #p; m() {} }; new P()`,
			`Object.getPrototypeOf(v) === Object.prototype && v.x === 1 && v.m === undefined && Object.keys(v).join() === "x"`},
		{"object inheriting from a Map", `var o = Object.create(Map.prototype); o.x = 1; o`,
			`Object.getPrototypeOf(v) === Object.prototype && v.x === 1`},
		{"frozen", `Object.freeze({a: 1})`, `Object.isExtensible(v) && !Object.isFrozen(v) && v.a === 1`},
		{"undefined values kept", `({u: undefined})`, `"u" in v && v.u === undefined`},
		{"getter deleting a later key", `({get a() { delete this.b; return 1; }, b: 2})`, `v.a === 1 && !("b" in v)`},

		{"empty array", `[]`, `Array.isArray(v) && v.length === 0`},
		{"array", `[1, "two", {three: 3}, [4]]`, `JSON.stringify(v) === '[1,"two",{"three":3},[4]]'`},
		{"holes kept", `[1, , 3, , ]`, `v.length === 4 && !(1 in v) && !(3 in v) && v[0] === 1 && v[2] === 3`},
		{"all holes", `new Array(5)`, `Array.isArray(v) && v.length === 5 && Object.keys(v).length === 0`},
		{"undefined elements are not holes", `[undefined, undefined]`, `v.length === 2 && (0 in v) && (1 in v)`},
		{"named properties kept", `Object.assign([1, 2], {foo: 1})`, `v.length === 2 && v.foo === 1 && Object.keys(v).join() === "0,1,foo"`},
		{"array subclass", `class A extends Array {}; A.from([1, 2])`,
			`Object.getPrototypeOf(v) === Array.prototype && v.length === 2 && v[1] === 2`},
		{"sparse huge length", `var a = []; a[100000] = 1; a[5] = "x"; a.length = 2**32 - 1; a`,
			`v.length === 2**32 - 1 && v[100000] === 1 && v[5] === "x" && Object.keys(v).length === 2`},
		{"empty huge length", `var a = []; a.length = 1e9; a`, `v.length === 1e9 && Object.keys(v).length === 0`},
		{"long dense array", `Array.from({length: 70000}, (_, i) => i)`,
			`v.length === 70000 && v.every((x, i) => x === i)`},
		{"long array with a hole", `var a = Array.from({length: 70000}, (_, i) => i); delete a[7]; a`,
			`v.length === 70000 && !(7 in v) && v[8] === 8 && v[69999] === 69999`},

		{"date", `new Date(1234567890123)`, `v instanceof Date && v.getTime() === 1234567890123`},
		{"date before the epoch", `new Date(-1)`, `v.getTime() === -1`},
		{"date extremes", `[new Date(8.64e15), new Date(-8.64e15)]`, `v[0].getTime() === 8.64e15 && v[1].getTime() === -8.64e15`},
		{"invalid date", `new Date(NaN)`, `v instanceof Date && isNaN(v.getTime())`},
		{"date subclass", `class D extends Date {}; new D(5)`, `Object.getPrototypeOf(v) === Date.prototype && v.getTime() === 5`},

		{"shared reference", `var s = {}; ({a: s, b: s, c: [s]})`, `v.a === v.b && v.c[0] === v.a`},
		{"shared date", `var d = new Date(1); ({x: d, y: d})`, `v.x === v.y && v.x.getTime() === 1`},
		{"shared array", `var a = [1]; [a, a]`, `v[0] === v[1] && v[0][0] === 1`},
		{"object cycle", `var o = {}; o.self = o; o`, `v.self === v`},
		{"array cycle", `var a = [1]; a.push(a); a`, `v[1] === v && v[0] === 1 && v.length === 2`},
		{"array cycle with holes", `var a = [, 1]; a[3] = a; a`, `v[3] === v && !(0 in v) && !(2 in v) && v.length === 4`},
		{"array cycle through an object", `var a = []; a[0] = {arr: a}; a`, `v[0].arr === v`},
		{"long cyclic array", `var a = Array.from({length: 70000}, (_, i) => i); a[5] = a; a`, `v[5] === v && v[6] === 6`},
		{"mutual cycle", `var x = {}, y = {x}; x.y = y; [x, y]`, `v[0].y === v[1] && v[1].x === v[0]`},
		{"many objects", `var s = {}; var a = []; for (var i = 0; i < 100; i++) a.push({i, s}); a.push(a[50]); a`,
			`v.length === 101 && v[100] === v[50] && v[99].i === 99 && v.every(o => o.s === v[0].s)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, v := roundTrip(t, tt.src)
			check(t, rt, v, tt.cond)
		})
	}
}

// TestGettersRunInOrder checks that each getter runs once, in key order,
// with the receiving object as this.
func TestGettersRunInOrder(t *testing.T) {
	rt := goja.New()
	v := run(t, rt, `var log = [];
		({get a() { log.push("a:" + (this === globalThis)); return 1; }, b: 2, get c() { log.push("c"); return 3; }})`)
	f, err := clone.Serialize(rt, v, clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	if got := run(t, rt, `log.join()`).String(); got != "a:false,c" {
		t.Errorf("getter log = %q, want %q", got, "a:false,c")
	}
}

// TestReceiverSettersDoNotRun checks that Deserialize defines properties
// instead of assigning them: setters on the receiving realm's prototypes
// never see the data.
func TestReceiverSettersDoNotRun(t *testing.T) {
	f := mustSerialize(t, `({a: 1, arr: [1, , 3], 0: "zero"})`)
	rt := goja.New()
	run(t, rt, `var hits = 0;
		Object.defineProperty(Object.prototype, "a", {set() { hits++; }, configurable: true});
		Object.defineProperty(Object.prototype, "0", {set() { hits++; }, configurable: true});
		Object.defineProperty(Array.prototype, "2", {set() { hits++; }, configurable: true});`)
	v, err := clone.Deserialize(rt, f)
	if err != nil {
		t.Fatal(err)
	}
	check(t, rt, v, `hits === 0 && v.a === 1 && v[0] === "zero" && v.arr[2] === 3 && Object.keys(v.arr).join() === "0,2"`)
}

// TestDeserializeConsumesFrame checks that the frame is released on success
// and on error.
func TestDeserializeConsumesFrame(t *testing.T) {
	rt := goja.New()
	f := mustSerialize(t, `({a: 1})`)
	if _, err := clone.Deserialize(rt, f); err != nil {
		t.Fatal(err)
	}
	if !f.Released() {
		t.Error("frame not released after success")
	}
	bad := clone.NewFrame([]byte{1, 0xFF})
	if _, err := clone.Deserialize(rt, bad); err == nil {
		t.Error("bad frame accepted")
	}
	if !bad.Released() {
		t.Error("frame not released after error")
	}
	if _, err := clone.Deserialize(rt, f); err == nil {
		t.Error("released frame accepted")
	}
	if _, err := clone.Deserialize(rt, nil); err == nil {
		t.Error("nil frame accepted")
	}
}

// TestSerializeInsideHostFunction checks the normal use: a host function
// (postMessage) serializes its argument while JS is running.
func TestSerializeInsideHostFunction(t *testing.T) {
	rt := goja.New()
	var frames []*clone.Frame
	if err := rt.Set("post", func(call goja.FunctionCall) goja.Value {
		f, err := clone.Serialize(rt, call.Argument(0), clone.Options{})
		if err != nil {
			panic(clone.JSError(rt, err))
		}
		frames = append(frames, f)
		return goja.Undefined()
	}); err != nil {
		t.Fatal(err)
	}
	run(t, rt, `post({n: 1}); post([new Date(0)]);
		var caught = "";
		try { post({f() {}}); } catch (e) { caught = e.name; }
		try { post({get x() { throw new TypeError("boom"); }}); } catch (e) { caught += "," + e.message; }
		if (caught !== "DataCloneError,boom") throw new Error("caught " + caught);`)
	if len(frames) != 2 {
		t.Fatalf("got %d frames, want 2", len(frames))
	}
	rt2 := goja.New()
	a, err := clone.Deserialize(rt2, frames[0])
	if err != nil {
		t.Fatal(err)
	}
	b, err := clone.Deserialize(rt2, frames[1])
	if err != nil {
		t.Fatal(err)
	}
	check(t, rt2, rt2.NewArray(a, b), `v[0].n === 1 && v[1][0].getTime() === 0`)
}
