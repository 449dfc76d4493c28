package clone_test

import (
	"testing"
)

// A port of the web-platform-tests structured clone battery: every case of
//
//	html/webappapis/structured-clone/structured-clone-battery-of-tests.js
//	html/webappapis/structured-clone/structured-clone-battery-of-tests-with-transferables.js
//
// as run by structured-clone.any.js through self.structuredClone(obj,
// {transfer}) (the files as vendored by nodejs/node at
// test/fixtures/wpt/html/webappapis/structured-clone/, commit 675bc449, and
// the longer transferables file of servo/servo, commit b77ad115). Each case
// keeps its upstream description, input and checks; the helpers are
// rewritten for goja, which has no testharness.js, no DOM and no
// DOMException (promise_rejects_dom checks the error's name and code).
//
// Cases that need types this runtime does not have are listed in
// wptSkipped and not run; cases that run but fail because of the engine are
// listed in wptFailing, and the test checks that they still fail, so that
// an engine upgrade that fixes them is noticed. docs/wire-format.md carries
// the same two lists.

// wptSkipped are the upstream cases not run, with the reason.
var wptSkipped = map[string]string{}

func init() {
	skip := func(reason string, descs ...string) {
		for _, d := range descs {
			wptSkipped[d] = reason
		}
	}
	blob := []string{"Blob basic", "Blob unpaired high surrogate (invalid utf-8)", "Blob unpaired low surrogate (invalid utf-8)",
		"Blob paired surrogates (invalid utf-8)", "Blob empty", "Blob NUL"}
	for _, b := range blob {
		skip("needs Blob", b, "Array Blob object, "+b, "Object Blob object, "+b)
	}
	skip("needs Blob", "Array Blob object, two Blobs",
		"An object whose interface is deleted from the global must still deserialize",
		"Transferring a non-transferable platform object fails")
	skip("needs File", "File basic", "A subclass instance will deserialize as its closest serializable superclass")
	skip("needs a document (FileList)", "FileList empty", "Array FileList object, FileList empty", "Object FileList object, FileList empty")
	for _, d := range []string{"ImageData 1x1 transparent black", "ImageData 1x1 non-transparent non-black"} {
		skip("needs a document (ImageData)", d, "Array ImageData object, "+d, "Object ImageData object, "+d)
	}
	skip("needs a document (ImageBitmap)", "ImageBitmap 1x1 transparent black", "ImageBitmap 1x1 non-transparent non-black",
		"Array ImageBitmap object, ImageBitmap 1x1 transparent black", "Array ImageBitmap object, ImageBitmap 1x1 transparent non-black",
		"Object ImageBitmap object, ImageBitmap 1x1 transparent black", "Object ImageBitmap object, ImageBitmap 1x1 transparent non-black")
	skip("needs Response", "Serializing a non-serializable platform object fails")
	skip("needs MessagePort", "MessagePort", "A detached platform object cannot be transferred",
		"An object whose interface is deleted from the global object must still be received")
	skip("needs ReadableStream", "A subclass instance will be received as its closest transferable superclass")
	skip("needs SharedArrayBuffer (package sharedmem, not plugged in yet) and growable buffers", "Growable SharedArrayBuffer")
}

// wptFailing are the cases that run and fail, with the reason.
var wptFailing = map[string]string{
	"RegExp slash": "goja writes RegExp(\"/\").source as \"\\u002f\" where the test expects \"\\/\" " +
		"(both are valid escapes; the clone's source equals the original's)",
	"Array RegExp object, RegExp slash":  "as RegExp slash",
	"Object RegExp object, RegExp slash": "as RegExp slash",
	"Resizable ArrayBuffer":              "goja has no resizable ArrayBuffer (new ArrayBuffer(n, {maxByteLength}) ignores the option)",
	"Length-tracking TypedArray":         "goja has no resizable ArrayBuffer",
	"Length-tracking DataView":           "goja has no resizable ArrayBuffer",
	"Serializing OOB TypedArray throws":  "goja has no resizable ArrayBuffer (no resize)",
	"Serializing OOB DataView throws":    "goja has no resizable ArrayBuffer (no resize)",
}

// wptCases is the number of upstream cases: 138 in the battery, 7 with
// transferables.
const wptCases = 145

// wptHarness stands in for testharness.js and the runner of
// structured-clone.any.js.
const wptHarness = `
var battery = [];
function sameValue(a, b) {
	if (typeof a === "number" && typeof b === "number") {
		if (a !== a && b !== b) return true;
		if (a === 0 && b === 0) return 1 / a === 1 / b;
	}
	return a === b;
}
function fail(msg) { throw new Error(msg); }
function assert_equals(actual, expected, what) {
	if (!sameValue(actual, expected)) fail((what || "") + ": expected " + String(expected) + ", got " + String(actual));
}
function assert_not_equals(actual, expected, what) {
	if (sameValue(actual, expected)) fail((what || "") + ": got the value it should differ from: " + String(actual));
}
function assert_true(x, what) { if (x !== true) fail((what || "") + ": not true"); }
function assert_false(x, what) { if (x !== false) fail((what || "") + ": not false"); }
function assert_unreached(what) { fail("reached: " + what); }
async function promise_rejects_exactly(t, expected, promise) {
	try { await promise; } catch (e) { assert_equals(e, expected, "rejection"); return; }
	fail("did not reject");
}
async function promise_rejects_dom(t, name, promise) {
	try { await promise; } catch (e) {
		assert_true(e instanceof Error, "an Error");
		assert_equals(e.name, name, "name");
		assert_equals(e.code, 25, "code (DATA_CLONE_ERR)");
		return;
	}
	fail("did not reject");
}
var runner = {
	structuredClone: (obj, transfer) => new Promise(resolve => resolve(self.structuredClone(obj, {transfer}))),
};
var self = globalThis;
`

// wptBattery is the port of the cases themselves.
const wptBattery = `
function check(description, input, callback) {
	battery.push({description, async f(runner) {
		const value = typeof input === "function" ? input() : input;
		const copy = await runner.structuredClone(value);
		await callback(copy, value);
	}});
}
function compare_primitive(actual, input) { assert_equals(actual, input); }
function compare_Array(callback) {
	return async (actual, input) => {
		if (typeof actual === "string") assert_unreached(actual);
		assert_true(actual instanceof Array, "instanceof Array");
		assert_not_equals(actual, input);
		assert_equals(actual.length, input.length, "length");
		await callback(actual, input);
	};
}
function compare_Object(callback) {
	return async (actual, input) => {
		if (typeof actual === "string") assert_unreached(actual);
		assert_true(actual instanceof Object, "instanceof Object");
		assert_false(actual instanceof Array, "instanceof Array");
		assert_not_equals(actual, input);
		await callback(actual, input);
	};
}
function enumerate_props(compare) {
	return async (actual, input) => { for (const k in input) await compare(actual[k], input[k]); };
}
// Families: a value alone, in an array, in an object (with the keys given).
function family(name, values, keys, compare, arrayName, objectName) {
	values.forEach((v, i) => check(name[i], v, compare));
	check(arrayName, values, compare_Array(enumerate_props(compare)));
	const o = {};
	keys.forEach((k, i) => o[k] = values[i]);
	check(objectName, o, compare_Object(enumerate_props(compare)));
}

// Primitives.
const primitives = [
	["undefined", undefined], ["null", null], ["true", true], ["false", false],
	["string, empty string", ""], ["string, lone high surrogate", "\uD800"], ["string, lone low surrogate", "\uDC00"],
	["string, NUL", "\u0000"], ["string, astral character", "\uDBFF\uDFFD"],
	["number, 0.2", 0.2], ["number, 0", 0], ["number, -0", -0], ["number, NaN", NaN], ["number, Infinity", Infinity],
	["number, -Infinity", -Infinity], ["number, 9007199254740992", 9007199254740992], ["number, -9007199254740992", -9007199254740992],
	["number, 9007199254740994", 9007199254740994], ["number, -9007199254740994", -9007199254740994],
	["BigInt, 0n", 0n], ["BigInt, -0n", -0n], ["BigInt, -9007199254740994000n", -9007199254740994000n],
	["BigInt, -9007199254740994000900719925474099400090071992547409940009007199254740994000n",
		-9007199254740994000900719925474099400090071992547409940009007199254740994000n],
];
for (const [d, v] of primitives) check("primitive " + d, v, compare_primitive);
check("Array primitives", [undefined, null, true, false, "", "\uD800", "\uDC00", "\u0000", "\uDBFF\uDFFD", 0.2, 0, -0, NaN,
	Infinity, -Infinity, 9007199254740992, -9007199254740992, 9007199254740994, -9007199254740994, -12n, -0n, 0n],
	compare_Array(enumerate_props(compare_primitive)));
check("Object primitives", {"undefined": undefined, "null": null, "true": true, "false": false, "empty": "",
	"high surrogate": "\uD800", "low surrogate": "\uDC00", "nul": "\u0000", "astral": "\uDBFF\uDFFD", "0.2": 0.2, "0": 0,
	"-0": -0, "NaN": NaN, "Infinity": Infinity, "-Infinity": -Infinity, "9007199254740992": 9007199254740992,
	"-9007199254740992": -9007199254740992, "9007199254740994": 9007199254740994, "-9007199254740994": -9007199254740994},
	compare_Object(enumerate_props(compare_primitive)));

// Wrapper objects.
function compare_Boolean(actual, input) {
	if (typeof actual === "string") assert_unreached(actual);
	assert_true(actual instanceof Boolean, "instanceof Boolean");
	assert_equals(String(actual), String(input), "converted to primitive");
	assert_not_equals(actual, input);
}
family(["Boolean true", "Boolean false"], [new Boolean(true), new Boolean(false)], ["true", "false"], compare_Boolean,
	"Array Boolean objects", "Object Boolean objects");
function compare_obj(what) {
	const Type = self[what];
	return (actual, input) => {
		if (typeof actual === "string") assert_unreached(actual);
		assert_true(actual instanceof Type, "instanceof " + what);
		assert_equals(Type(actual), Type(input), "converted to primitive");
		assert_not_equals(actual, input);
	};
}
const strings = [["empty string", ""], ["lone high surrogate", "\uD800"], ["lone low surrogate", "\uDC00"], ["NUL", "\u0000"],
	["astral character", "\uDBFF\uDFFD"]];
family(strings.map(s => "String " + s[0]), strings.map(s => new String(s[1])),
	["empty", "high surrogate", "low surrogate", "nul", "astral"], compare_obj("String"), "Array String objects", "Object String objects");
const numbers = [0.2, 0, -0, NaN, Infinity, -Infinity, 9007199254740992, -9007199254740992, 9007199254740994, -9007199254740994];
const numberNames = ["0.2", "0", "-0", "NaN", "Infinity", "-Infinity", "9007199254740992", "-9007199254740992", "9007199254740994", "-9007199254740994"];
numbers.forEach((n, i) => check("Number " + numberNames[i], new Number(n), compare_obj("Number")));
check("BigInt -9007199254740994n", Object(-9007199254740994n), compare_obj("BigInt"));
check("Array Number objects", numbers.map(n => new Number(n)), compare_Array(enumerate_props(compare_obj("Number"))));
const numberObjects = {};
numbers.forEach((n, i) => numberObjects[numberNames[i]] = new Number(n));
check("Object Number objects", numberObjects, compare_Object(enumerate_props(compare_obj("Number"))));

// Dates.
function compare_Date(actual, input) {
	if (typeof actual === "string") assert_unreached(actual);
	assert_true(actual instanceof Date, "instanceof Date");
	assert_equals(Number(actual), Number(input), "converted to primitive");
	assert_not_equals(actual, input);
}
family(["Date 0", "Date -0", "Date -8.64e15", "Date 8.64e15"], [new Date(0), new Date(-0), new Date(-8.64e15), new Date(8.64e15)],
	["0", "-0", "-8.64e15", "8.64e15"], compare_Date, "Array Date objects", "Object Date objects");

// RegExps.
function compare_RegExp(source) {
	return (actual, input) => {
		if (typeof actual === "string") assert_unreached(actual);
		assert_true(actual instanceof RegExp, "instanceof RegExp");
		for (const p of ["global", "ignoreCase", "multiline"]) assert_equals(actual[p], input[p], p);
		assert_equals(actual.source, source, "source");
		for (const p of ["sticky", "unicode"]) assert_equals(actual[p], input[p], p);
		assert_equals(actual.lastIndex, 0, "lastIndex");
		assert_not_equals(actual, input);
	};
}
function regexpFlagsLastIndex() { const r = /foo/gim; r.lastIndex = 2; return r; }
const regexps = [
	["RegExp flags and lastIndex", regexpFlagsLastIndex, "foo"],
	["RegExp sticky flag", () => new RegExp("foo", "y"), "foo"],
	["RegExp unicode flag", () => new RegExp("foo", "u"), "foo"],
	["RegExp empty", () => new RegExp(""), "(?:)"],
	["RegExp slash", () => new RegExp("/"), "\\/"],
	["RegExp new line", () => new RegExp("\n"), "\\n"],
];
for (const [d, mk, src] of regexps) check(d, mk, compare_RegExp(src));
for (const [d, mk, src] of regexps) check("Array RegExp object, " + d, () => [mk()], compare_Array(enumerate_props(compare_RegExp(src))));
for (const [d, mk, src] of regexps) check("Object RegExp object, " + d, () => ({"x": mk()}), compare_Object(enumerate_props(compare_RegExp(src))));

// Errors.
function compare_Error(actual, input) {
	assert_true(actual instanceof Error, "Checking instanceof");
	assert_equals(actual.constructor, input.constructor, "Checking constructor");
	assert_equals(actual.name, input.name, "Checking name");
	assert_equals(actual.hasOwnProperty("message"), input.hasOwnProperty("message"), "Checking message existence");
	assert_equals(actual.message, input.message, "Checking message");
	assert_equals(actual.foo, undefined, "Checking for absence of custom property");
}
check("Empty Error object", new Error, compare_Error);
for (const C of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError]) {
	check(C.name + " object", () => { const e = new C("Error message here"); e.foo = "testing"; return e; }, compare_Error);
}

// Buffers and views.
function compare_ArrayBuffer(actual, input) {
	assert_true(actual instanceof ArrayBuffer, "instanceof ArrayBuffer");
	for (const p of ["byteLength", "maxByteLength", "resizable", "growable"]) assert_equals(actual[p], input[p], p);
}
function compare_ArrayBufferView(view) {
	const Type = self[view];
	return (actual, input) => {
		if (typeof actual === "string") assert_unreached(actual);
		assert_true(actual instanceof Type, "instanceof " + view);
		for (const p of ["length", "byteLength", "byteOffset"]) assert_equals(actual[p], input[p], p);
		assert_not_equals(actual.buffer, input.buffer, "buffer");
		for (let i = 0; i < actual.length; ++i) assert_equals(actual[i], input[i], "actual[" + i + "]");
	};
}

// Arrays and objects.
check("Array sparse", new Array(10), compare_Array(enumerate_props(compare_primitive)));
check("Array with non-index property", () => { const a = []; a.foo = "bar"; return a; }, compare_Array(enumerate_props(compare_primitive)));
check("Object with index property and length", {"0": "foo", "length": 1}, compare_Object(enumerate_props(compare_primitive)));
const circular = p => actual => assert_equals(actual[p], actual);
check("Array with circular reference", () => { const a = []; a[0] = a; return a; }, compare_Array(circular("0")));
check("Object with circular reference", () => { const o = {}; o["x"] = o; return o; }, compare_Object(circular("x")));
const identical = (p, q) => actual => assert_equals(actual[p], actual[q]);
check("Array with identical property values", () => { const o = {}; return [o, o]; }, compare_Array(identical("0", "1")));
check("Object with identical property values", () => { const o = {}; return {"x": o, "y": o}; }, compare_Object(identical("x", "y")));
const absent = p => actual => assert_false(p in actual);
check("Object with property on prototype", () => { const Foo = function () {}; Foo.prototype = {"foo": "bar"}; return new Foo(); },
	compare_Object(absent("foo")));
const withFoo = (enumerable, writable, configurable) => () => {
	const o = {};
	Object.defineProperty(o, "foo", {value: "bar", enumerable, writable, configurable});
	return o;
};
check("Object with non-enumerable property", withFoo(false, true, true), compare_Object(absent("foo")));
check("Object with non-writable property", withFoo(true, false, true), compare_Object((actual, input) => {
	assert_equals(actual.foo, input.foo);
	actual.foo += " baz";
	assert_equals(actual.foo, input.foo + " baz");
}));
check("Object with non-configurable property", withFoo(true, true, false), compare_Object((actual, input) => {
	assert_equals(actual.foo, input.foo);
	delete actual.foo;
	assert_false("prop" in actual);
}));
battery.push({description: "Object with a getter that throws", async f(runner, t) {
	const exception = new Error();
	await promise_rejects_exactly(t, exception, runner.structuredClone({get testProperty() { throw exception; }}));
}});
check("ObjectPrototype must lose its exotic-ness when cloned", () => Object.prototype, (copy, original) => {
	assert_not_equals(copy, original);
	assert_true(copy instanceof Object);
	const proto = {some: "proto"};
	Object.setPrototypeOf(copy, proto);
	assert_equals(Object.getPrototypeOf(copy), proto);
});

// Resizable buffers.
function resizable() {
	const ab = new ArrayBuffer(16, {maxByteLength: 1024});
	assert_true(ab.resizable);
	return ab;
}
check("Resizable ArrayBuffer", resizable, compare_ArrayBuffer);
check("Length-tracking TypedArray", () => new Uint8Array(resizable()), compare_ArrayBufferView("Uint8Array"));
check("Length-tracking DataView", () => new DataView(resizable()), compare_ArrayBufferView("DataView"));
for (const [d, C] of [["Serializing OOB TypedArray throws", Uint8Array], ["Serializing OOB DataView throws", DataView]]) {
	battery.push({description: d, async f(runner, t) {
		const ab = new ArrayBuffer(16, {maxByteLength: 1024});
		const view = new C(ab, 8);
		ab.resize(0);
		await promise_rejects_dom(t, "DataCloneError", runner.structuredClone(view));
	}});
}

// With transferables.
battery.push({description: "ArrayBuffer", async f(runner) {
	const buffer = new Uint8Array([1]).buffer;
	const copy = await runner.structuredClone(buffer, [buffer]);
	assert_equals(buffer.byteLength, 0);
	assert_equals(copy.byteLength, 1);
}});
battery.push({description: "A detached ArrayBuffer cannot be transferred", async f(runner, t) {
	const buffer = new ArrayBuffer();
	await runner.structuredClone(buffer, [buffer]);
	await promise_rejects_dom(t, "DataCloneError", runner.structuredClone(buffer, [buffer]));
}});

// Run them all, one after the other, and record the outcomes.
var results = [];
(async () => {
	for (const test of battery) {
		try {
			await test.f(runner, {});
			results.push([test.description, ""]);
		} catch (e) {
			results.push([test.description, String(e && e.message || e) || "failed"]);
		}
	}
})();
`

func TestWPTBattery(t *testing.T) {
	rt := newRealm(t)
	run(t, rt, wptHarness+wptBattery) // the job queue (the async tests) drains before RunString returns
	var results [][2]string
	if err := rt.ExportTo(run(t, rt, `results`), &results); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	passed, failed := 0, 0
	for _, r := range results {
		desc, errMsg := r[0], r[1]
		if seen[desc] {
			t.Errorf("case %q ported twice", desc)
		}
		seen[desc] = true
		if reason, ok := wptSkipped[desc]; ok {
			t.Errorf("case %q is run although it is listed as skipped (%s)", desc, reason)
		}
		t.Run(desc, func(t *testing.T) {
			reason, mustFail := wptFailing[desc]
			switch {
			case mustFail && errMsg == "":
				t.Errorf("passes now: remove it from wptFailing (%s) and from docs/wire-format.md", reason)
			case mustFail:
				failed++
				t.Logf("fails as expected: %s (%s)", errMsg, reason)
			case errMsg != "":
				t.Errorf("%s", errMsg)
			default:
				passed++
			}
		})
	}
	for desc := range wptFailing {
		if !seen[desc] {
			t.Errorf("expected-failing case %q was not run", desc)
		}
	}
	if n := len(results) + len(wptSkipped); n != wptCases {
		t.Errorf("%d cases run + %d skipped = %d, want the %d upstream cases", len(results), len(wptSkipped), n, wptCases)
	}
	t.Logf("WPT structured clone battery: %d run (%d pass, %d fail as expected), %d skipped", len(results), passed, failed, len(wptSkipped))
}
