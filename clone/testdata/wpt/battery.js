// The port of the web-platform-tests structured clone battery (see clone/wpt_test.go).
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

// Blob and File: platform objects of the Node layer (its host kinds), so these run only in a realm that has them
// (node/wpt_test.go). Response is not there: the bytes are read with arrayBuffer().
if (typeof Blob === "function") {
	async function compare_Blob(actual, input, expect_File) {
		if (typeof actual === "string") assert_unreached(actual);
		assert_true(actual instanceof Blob, "instanceof Blob");
		if (!expect_File) assert_false(actual instanceof File, "instanceof File");
		assert_equals(actual.size, input.size, "size");
		assert_equals(actual.type, input.type, "type");
		assert_not_equals(actual, input);
		const ta1 = new Uint8Array(await actual.arrayBuffer());
		const ta2 = new Uint8Array(await input.arrayBuffer());
		assert_equals(ta1.length, ta2.length, "byteLength");
		for (let i = 0; i < ta1.length; i++) assert_equals(ta1[i], ta2[i], "byte " + i);
	}
	const func_Blob_basic = () => new Blob(["foo"], {type: "text/x-bar"});
	const func_Blob_bytes = (arr) => () => {
		const view = new DataView(new ArrayBuffer(arr.length));
		arr.forEach((b, i) => view.setUint8(i, b));
		return new Blob([view]);
	};
	const func_Blob_empty = () => new Blob([""]);
	const blobs = [
		["Blob basic", func_Blob_basic],
		// CESU-8 encodings of the surrogates: not UTF-8, the bytes must arrive as they were.
		["Blob unpaired high surrogate (invalid utf-8)", func_Blob_bytes([0xED, 0xA0, 0x80])],
		["Blob unpaired low surrogate (invalid utf-8)", func_Blob_bytes([0xED, 0xB0, 0x80])],
		["Blob paired surrogates (invalid utf-8)", func_Blob_bytes([0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80])],
		["Blob empty", func_Blob_empty],
		["Blob NUL", () => new Blob(["\u0000"])],
	];
	for (const [name, f] of blobs) {
		check(name, f, (a, i) => compare_Blob(a, i));
		check("Array Blob object, " + name, () => [f()], compare_Array(enumerate_props((a, i) => compare_Blob(a, i))));
		check("Object Blob object, " + name, () => ({x: f()}), compare_Object(enumerate_props((a, i) => compare_Blob(a, i))));
	}
	check("Array Blob object, two Blobs", () => [func_Blob_basic(), func_Blob_empty()],
		compare_Array(enumerate_props((a, i) => compare_Blob(a, i))));
	check("File basic", () => new File(["foo"], "bar", {type: "text/x-bar", lastModified: 42}), async (actual, input) => {
		assert_true(actual instanceof File, "instanceof File");
		assert_equals(actual.name, input.name, "name");
		assert_equals(actual.lastModified, input.lastModified, "lastModified");
		await compare_Blob(actual, input, true);
	});
	battery.push({description: "An object whose interface is deleted from the global must still deserialize", async f(runner) {
		const blob = new Blob();
		const blobInterface = globalThis.Blob;
		delete globalThis.Blob;
		try {
			const copy = await runner.structuredClone(blob);
			assert_true(copy instanceof blobInterface);
		} finally {
			globalThis.Blob = blobInterface;
		}
	}});
	battery.push({description: "A subclass instance will deserialize as its closest serializable superclass", async f(runner) {
		class FileSubclass extends File {}
		const copy = await runner.structuredClone(new FileSubclass(["content"], "name"));
		assert_equals(Object.getPrototypeOf(copy), File.prototype);
	}});
	battery.push({description: "Transferring a non-transferable platform object fails", async f(runner, t) {
		const blob = new Blob();
		await promise_rejects_dom(t, "DataCloneError", runner.structuredClone(blob, [blob]));
	}});
}

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
