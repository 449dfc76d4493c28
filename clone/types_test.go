package clone_test

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// TestRoundTripKinds clones every kind added by wire format version 2 from
// one runtime into another and checks the copy there, in JavaScript.
func TestRoundTripKinds(t *testing.T) {
	tests := []struct{ name, src, cond string }{
		// Map and Set.
		{"empty Map", `new Map()`, `v instanceof Map && Object.getPrototypeOf(v) === Map.prototype && v.size === 0`},
		{"Map order and values", `new Map([[3, "c"], ["a", 1], [-0, null], [NaN, undefined]])`,
			`[...v.keys()].map(String).join() === "3,a,0,NaN" && v.get(3) === "c" && v.get(0) === null && v.has(NaN) && v.get(NaN) === undefined`},
		{"Map with object keys", `var k = {id: 1}; new Map([[k, "x"], [[1], k]])`,
			`var ks = [...v.keys()]; ks[0].id === 1 && v.get(ks[0]) === "x" && v.get(ks[1]) === ks[0]`},
		{"Map holding itself", `var m = new Map(); m.set(m, m); m`, `v.get(v) === v`},
		{"Map subclass", `class M extends Map {}; new M([[1, 2]])`, `Object.getPrototypeOf(v) === Map.prototype && v.get(1) === 2`},
		{"Map without a prototype", `Object.setPrototypeOf(new Map([[1, 2]]), null)`, `v instanceof Map && Map.prototype.get.call(v, 1) === 2`},
		{"Map own properties dropped", `var m = new Map(); m.x = 1; m`, `v.x === undefined`},
		{"Set order", `new Set(["b", 1, "a", {}])`, `var a = [...v]; v instanceof Set && a.length === 4 && a[0] === "b" && a[2] === "a" && typeof a[3] === "object"`},
		{"Set holding itself", `var s = new Set(); s.add(s); s`, `[...v][0] === v`},
		{"Set subclass", `class S extends Set {}; new S([1])`, `Object.getPrototypeOf(v) === Set.prototype && v.has(1)`},
		{"Map and Set sharing", `var o = {}; [new Map([[o, o]]), new Set([o]), o]`,
			`var k = [...v[0].keys()][0]; k === v[2] && v[0].get(k) === v[2] && v[1].has(v[2])`},

		// RegExp.
		{"RegExp", `/a+(b)/`, `v instanceof RegExp && v.source === "a+(b)" && v.flags === "" && "xaab".replace(v, "-") === "x-"`},
		{"RegExp flags", `/x/gimsuy`, `v.flags === "gimsuy" && v.global && v.ignoreCase && v.multiline && v.dotAll && v.unicode && v.sticky`},
		{"RegExp lastIndex reset", `var r = /a/g; r.lastIndex = 5; r`, `v.lastIndex === 0`},
		{"RegExp own properties dropped", `var r = /a/; r.x = 1; r`, `v.x === undefined && Object.keys(v).length === 0`},
		{"RegExp subclass", `class R extends RegExp {}; new R("a", "g")`, `Object.getPrototypeOf(v) === RegExp.prototype && v.global`},
		{"RegExp with a shadowed source", `var r = /real/; Object.defineProperty(r, "source", {value: "fake"}); r`,
			`RegExp.prototype.exec.call(v, "real") !== null`},
		{"RegExp escapes", `new RegExp("/\n\\u{1F600}", "u")`, `v.test("/\n\u{1F600}")`},

		// Errors.
		{"Error", `new Error("m")`, `Object.getPrototypeOf(v) === Error.prototype && v.message === "m" && v.name === "Error"`},
		{"Error without message", `new Error()`, `!v.hasOwnProperty("message") && v.message === ""`},
		{"Error subclasses", `[new EvalError("e"), new RangeError("r"), new ReferenceError("f"), new SyntaxError("s"), new TypeError("t"), new URIError("u")]`,
			`[EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError].every((C, i) =>
				Object.getPrototypeOf(v[i]) === C.prototype && v[i].message === "erfstu"[i] && v[i].constructor === C)`},
		{"Error stack kept", `var e = new TypeError("t"); [e, e.stack]`, `typeof v[1] === "string" && v[0].stack === v[1] &&
			!Object.getOwnPropertyDescriptor(v[0], "stack").enumerable`},
		{"Error cause", `new Error("m", {cause: {why: [1]}})`, `v.cause.why[0] === 1 && !Object.getOwnPropertyDescriptor(v, "cause").enumerable`},
		{"Error cause undefined", `new Error("m", {cause: undefined})`, `v.hasOwnProperty("cause") && v.cause === undefined`},
		{"Error without cause", `new Error("m")`, `!v.hasOwnProperty("cause")`},
		{"Error message converted", `var e = new Error(); e.message = 42; e`, `v.message === "42"`},
		{"Error accessor message ignored", `var e = new Error(); Object.defineProperty(e, "message", {get() { return "g"; }}); e`,
			`!v.hasOwnProperty("message")`},
		{"Error custom name", `var e = new Error("m"); e.name = "MyError"; e`, `v.name === "Error" && Object.getPrototypeOf(v) === Error.prototype`},
		{"Error name from a subclass", `class E extends RangeError {}; new E("x")`, `Object.getPrototypeOf(v) === RangeError.prototype && v.message === "x"`},
		{"Error name selects the prototype", `var e = new Error("m"); e.name = "TypeError"; e`, `v instanceof TypeError`},
		{"Error own properties dropped", `var e = new Error("m"); e.foo = 1; e`, `v.foo === undefined`},
		{"Error message lone surrogate", `new Error("\ud800")`, `v.message === "\ud800"`},
		{"AggregateError as Error", `new AggregateError([], "agg")`, `Object.getPrototypeOf(v) === Error.prototype && v.message === "agg"`},
		{"Error.prototype is a plain object", `Error.prototype`, `Object.getPrototypeOf(v) === Object.prototype && !(v instanceof Error)`},
		{"Error cycle through cause", `var e = new Error("x"); e.cause = {e}; e`, `v.cause.e === v`},

		// Wrappers.
		{"Boolean objects", `[new Boolean(true), new Boolean(false)]`, `v[0] instanceof Boolean && v[0].valueOf() === true && v[1].valueOf() === false`},
		{"Number objects", `[new Number(-0), new Number(NaN), new Number(2**53 + 2), new Number(-1.5), new Number(7)]`,
			`v.every(x => x instanceof Number) && Object.is(v[0].valueOf(), -0) && Number.isNaN(v[1].valueOf()) &&
			 v[2].valueOf() === 2**53 + 2 && v[3].valueOf() === -1.5 && v[4].valueOf() === 7`},
		{"BigInt objects", `[Object(0n), Object(-(2n**100n))]`, `typeof v[0] === "object" && v[0].valueOf() === 0n && v[1].valueOf() === -(2n**100n) &&
			Object.getPrototypeOf(v[0]) === BigInt.prototype`},
		{"String objects", `[new String(""), new String("\ud800x"), new String("日本")]`,
			`v.every(x => x instanceof String) && v[0].valueOf() === "" && v[1].valueOf() === "\ud800x" && v[2].length === 2`},
		{"String object own properties dropped", `var s = new String("ab"); s.x = 1; s`, `v.x === undefined && v.valueOf() === "ab"`},
		{"shared wrapper", `var n = new Number(1); [n, n]`, `v[0] === v[1]`},
		{"Number.prototype is a Number object", `Number.prototype`, `v instanceof Number && v.valueOf() === 0 && v !== Number.prototype`},
		{"String.prototype is a String object", `String.prototype`, `v instanceof String && v.valueOf() === ""`},
		{"Boolean.prototype is a Boolean object", `Boolean.prototype`, `v instanceof Boolean && v.valueOf() === false`},

		// Ordinary objects of other Go types.
		{"Object.prototype", `Object.prototype`, `Object.getPrototypeOf(v) === Object.prototype && Object.keys(v).length === 0 && v !== Object.prototype`},
		{"Math", `Math`, `Object.getPrototypeOf(v) === Object.prototype && Object.keys(v).length === 0`},
		{"JSON with an own enumerable property", `JSON.x = 1; JSON`, `v.x === 1 && v.parse === undefined`},
		{"RegExp.prototype", `RegExp.prototype`, `Object.getPrototypeOf(v) === Object.prototype && !(v instanceof RegExp)`},
		{"Array.prototype", `Array.prototype`, `Array.isArray(v) && v.length === 0 && v !== Array.prototype`},

		// Arrays with named properties.
		{"array named properties in order", `var a = [1, , 3]; a.z = 1; a.y = [a]; a`,
			`Object.keys(v).join() === "0,2,z,y" && v.y[0] === v && v.length === 3 && !(1 in v)`},
		{"array named property that looks numeric", `var a = [1]; a["01"] = "x"; a[-1] = "y"; a["4294967295"] = "z"; a`,
			`v.length === 1 && v["01"] === "x" && v[-1] === "y" && v["4294967295"] === "z"`},
		{"sparse array named properties", `var a = []; a[100000] = 1; a.name = "n"; a`,
			`v.length === 100001 && v[100000] === 1 && v.name === "n" && Object.keys(v).join() === "100000,name"`},
		{"array non-enumerable property dropped", `var a = [1]; Object.defineProperty(a, "h", {value: 1}); a`, `!("h" in v)`},

		// ArrayBuffer and views.
		{"ArrayBuffer", `var b = new ArrayBuffer(5); new Uint8Array(b).set([1, 2, 3, 4, 5]); b`,
			`v instanceof ArrayBuffer && v.byteLength === 5 && new Uint8Array(v).join() === "1,2,3,4,5"`},
		{"empty ArrayBuffer", `new ArrayBuffer(0)`, `v instanceof ArrayBuffer && v.byteLength === 0`},
		{"ArrayBuffer own properties dropped", `var b = new ArrayBuffer(1); b.x = 1; b`, `v.x === undefined`},
		{"ArrayBuffer subclass", `class B extends ArrayBuffer {}; new B(2)`, `Object.getPrototypeOf(v) === ArrayBuffer.prototype && v.byteLength === 2`},
		{"large ArrayBuffer", `var b = new ArrayBuffer(1 << 20); var u = new Uint8Array(b); u[0] = 1; u[(1 << 20) - 1] = 2; b`,
			`var u = new Uint8Array(v); v.byteLength === 1 << 20 && u[0] === 1 && u[(1 << 20) - 1] === 2`},
		{"every typed array kind", `var b = new ArrayBuffer(64); new Uint8Array(b).forEach((_, i, a) => a[i] = i * 7);
			[Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array]
				.map(C => new C(b, 8, 2))`,
			`var kinds = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array];
			 var ref = new ArrayBuffer(64); new Uint8Array(ref).forEach((_, i, a) => a[i] = i * 7);
			 v.every((x, i) => Object.getPrototypeOf(x) === kinds[i].prototype && x.buffer === v[0].buffer && x.byteOffset === 8 &&
				x.length === 2 && String(x[0]) === String(new kinds[i](ref, 8, 2)[0]) && String(x[1]) === String(new kinds[i](ref, 8, 2)[1]))`},
		{"typed array values", `[new Float64Array([-0, NaN, 1.5]), new BigInt64Array([-5n]), new Uint8ClampedArray([300, -5])]`,
			`Object.is(v[0][0], -0) && Number.isNaN(v[0][1]) && v[0][2] === 1.5 && v[1][0] === -5n && v[2].join() === "255,0"`},
		{"views share their buffer", `var b = new ArrayBuffer(16); [new Int32Array(b, 4, 2), new DataView(b, 8), b]`,
			`v[0].buffer === v[2] && v[1].buffer === v[2] && v[1].byteOffset === 8 && v[1].byteLength === 8 &&
			 (v[0][1] = 0x01020304, v[1].getInt32(0, true) === 0x01020304)`},
		{"view before its buffer elsewhere", `var b = new ArrayBuffer(4); ({view: new Uint8Array(b), buf: b})`, `v.view.buffer === v.buf`},
		{"view without a prototype", `Object.setPrototypeOf(new Uint16Array([7]), null)`,
			`Object.getPrototypeOf(v) === Uint16Array.prototype && v[0] === 7`},
		{"view with a shadowed buffer", `var u = new Uint8Array([9]); Object.defineProperty(u, "buffer", {value: new ArrayBuffer(100)}); u`,
			`v.length === 1 && v[0] === 9 && Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), "buffer").get.call(v).byteLength === 1`},
		{"view own properties dropped", `var u = new Uint8Array(1); u.x = 1; u`, `v.x === undefined`},
		{"empty views", `[new Uint8Array(0), new DataView(new ArrayBuffer(0))]`, `v[0].length === 0 && v[1].byteLength === 0`},
		{"DataView", `var d = new DataView(new ArrayBuffer(6), 1, 4); d.setUint16(0, 513); d`,
			`v instanceof DataView && v.byteOffset === 1 && v.byteLength === 4 && v.getUint16(0) === 513 && v.buffer.byteLength === 6`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, v := roundTrip(t, tt.src)
			check(t, rt, v, tt.cond)
		})
	}
}

// patchBuiltins replaces the builtins clone could use with functions that
// throw or lie.
const patchBuiltins = `
	Map.prototype[Symbol.iterator] = function* () { yield ["patched", 1]; };
	Map.prototype.forEach = function () { throw new Error("patched forEach"); };
	Map.prototype.entries = Map.prototype.forEach;
	Map.prototype.set = function () { throw new Error("patched set"); };
	Set.prototype[Symbol.iterator] = function* () { yield "patched"; };
	Set.prototype.forEach = Map.prototype.forEach;
	Set.prototype.add = Map.prototype.set;
	Object.defineProperty(RegExp.prototype, "source", {get() { return "patched"; }});
	Object.defineProperty(RegExp.prototype, "flags", {get() { return "y"; }});
	Object.defineProperty(Object.getPrototypeOf(Uint8Array.prototype), "buffer", {get() { return new ArrayBuffer(99); }});
	String.prototype.valueOf = function () { return "patched"; };
	Object.getOwnPropertyDescriptor = function () { throw new Error("patched"); };
	delete globalThis.Map; delete globalThis.Set; delete globalThis.RegExp;
	globalThis.TypeError = function () { return {}; }; globalThis.Int8Array = globalThis.TypeError;
	globalThis.Date = globalThis.TypeError;`

// TestIntrinsicsNotPatchable checks that Serialize and Deserialize use the
// realm's builtins as they were when first needed, not what scripts later
// put in their place.
func TestIntrinsicsNotPatchable(t *testing.T) {
	const sample = `[new Map(), new Set(), /x/, new Error(), new Int8Array(1), new DataView(new ArrayBuffer(1)), new String(""), new Date(0)]`
	src := goja.New()
	f, err := clone.Serialize(src, run(t, src, sample), clone.Options{}) // captures src's builtins
	if err != nil {
		t.Fatal(err)
	}
	dst := goja.New()
	if _, err := clone.Deserialize(dst, f); err != nil { // captures dst's builtins
		t.Fatal(err)
	}
	value := run(t, src, `[new Map([[1, 2]]), new Set([3]), /real/g, new TypeError("t"), new Int8Array([4]), new String("s"), new Date(5)]`)
	run(t, src, patchBuiltins)
	run(t, dst, `var M = Map, S = Set, R = RegExp, TE = TypeError, I8 = Int8Array, D = Date;`+patchBuiltins)

	f, err = clone.Serialize(src, value, clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := clone.Deserialize(dst, f)
	if err != nil {
		t.Fatal(err)
	}
	check(t, dst, v, `Object.getPrototypeOf(v[0]) === M.prototype && M.prototype.get.call(v[0], 1) === 2 &&
		S.prototype.has.call(v[1], 3) && v[2] instanceof R && R.prototype.exec.call(v[2], "real") !== null &&
		Object.getPrototypeOf(v[3]) === TE.prototype && v[4] instanceof I8 && v[4][0] === 4 &&
		v[5] instanceof String && v[5].length === 1 && v[6] instanceof D`)
}

// TestIntrinsicsReplacedBeforeFirstUse checks that a realm whose builtins
// were replaced by script functions before the first clone fails closed
// instead of calling them.
func TestIntrinsicsReplacedBeforeFirstUse(t *testing.T) {
	rt := goja.New()
	run(t, rt, `var called = false; Map.prototype.forEach = function () { called = true; };`)
	_, err := clone.Serialize(rt, run(t, rt, `new Map([[1, 2]])`), clone.Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot use the realm's Map builtins") {
		t.Fatalf("got %v, want an error about the realm's Map builtins", err)
	}
	if run(t, rt, `called`).ToBoolean() {
		t.Error("the script's forEach ran")
	}
	// Kinds that need no builtins still work.
	f, err := clone.Serialize(rt, run(t, rt, `({a: [1]})`), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Release()

	// On the receiving side too.
	f = mustSerialize(t, `new Map([[1, 2]])`)
	dst := goja.New()
	run(t, dst, `globalThis.Map = function () { return {}; };`)
	if _, err := clone.Deserialize(dst, f); err == nil || !strings.Contains(err.Error(), "Map builtins") {
		t.Fatalf("got %v, want an error about the realm's Map builtins", err)
	}
}

// TestCaptureBuiltins checks that a realm whose builtins were captured up
// front clones correctly whatever scripts do afterwards, and that capturing
// fails when they were replaced already.
func TestCaptureBuiltins(t *testing.T) {
	rt := newRealm(t)
	if err := clone.CaptureBuiltins(rt); err != nil {
		t.Fatal(err)
	}
	run(t, rt, `var keep = {Map, Set, RegExp, TypeError, Int8Array, Date};
		var value = [new Map([[1, 2]]), new RegExp("a", "g"), new Int8Array([3]), new Date(4)];`+patchBuiltins)
	check(t, rt, run(t, rt, `value`),
		`var c = structuredClone(v); c[0] instanceof keep.Map && keep.Map.prototype.get.call(c[0], 1) === 2 &&
		 c[1] instanceof keep.RegExp && c[2][0] === 3 && c[3] instanceof keep.Date`)

	rt = goja.New()
	run(t, rt, `Set.prototype.add = function () {};`)
	if err := clone.CaptureBuiltins(rt); err == nil || !strings.Contains(err.Error(), "Set builtins") {
		t.Errorf("got %v, want an error about the Set builtins", err)
	}
}
