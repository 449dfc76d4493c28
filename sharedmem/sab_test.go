package sharedmem

import (
	"testing"

	"github.com/dop251/goja"
)

// Cases modelled on test262's test/built-ins/SharedArrayBuffer (file names in
// the comments). Each runs in a fresh realm.
var sabCases = []struct{ name, src string }{
	{"constructor/shape", `
		verifyProperty(this, "SharedArrayBuffer", {writable: true, enumerable: false, configurable: true});
		assert.sameValue(typeof SharedArrayBuffer, "function");
		assert.sameValue(SharedArrayBuffer.length, 1);
		assert.sameValue(SharedArrayBuffer.name, "SharedArrayBuffer");
		verifyProperty(SharedArrayBuffer, "length", {writable: false, enumerable: false, configurable: true});
		verifyProperty(SharedArrayBuffer, "name", {writable: false, enumerable: false, configurable: true});
		assert.sameValue(Object.getPrototypeOf(SharedArrayBuffer), Function.prototype);
		// prototype/prop-desc.js, prototype/constructor.js
		verifyProperty(SharedArrayBuffer, "prototype", {writable: false, enumerable: false, configurable: false});
		assert.sameValue(SharedArrayBuffer.prototype.constructor, SharedArrayBuffer);
		assert.sameValue(Object.getPrototypeOf(SharedArrayBuffer.prototype), Object.prototype);
		// Symbol.species
		var d = Object.getOwnPropertyDescriptor(SharedArrayBuffer, Symbol.species);
		assert.sameValue(d.get.name, "get [Symbol.species]");
		assert.sameValue(d.set, undefined);
		assert.sameValue(SharedArrayBuffer[Symbol.species], SharedArrayBuffer);
		// prototype/Symbol.toStringTag.js
		verifyProperty(SharedArrayBuffer.prototype, Symbol.toStringTag,
			{value: "SharedArrayBuffer", writable: false, enumerable: false, configurable: true});
		assert.sameValue(Object.prototype.toString.call(new SharedArrayBuffer(1)), "[object SharedArrayBuffer]");
	`},
	{"undefined-newtarget-throws", `
		assert.throws(TypeError, function () { SharedArrayBuffer(); });
		assert.throws(TypeError, function () { SharedArrayBuffer(10); });
		assert.throws(TypeError, function () { SharedArrayBuffer.call({}, 8); });
	`},
	{"init-zero, zero-length, toindex-length", `
		var sab = new SharedArrayBuffer(9);
		var u8 = new Uint8Array(sab);
		for (var i = 0; i < 9; i++) assert.sameValue(u8[i], 0);
		assert.sameValue(new SharedArrayBuffer(+0).byteLength, 0);
		assert.sameValue(new SharedArrayBuffer(-0).byteLength, 0);
		assert.sameValue(new SharedArrayBuffer().byteLength, 0);
		assert.sameValue(new SharedArrayBuffer(undefined).byteLength, 0);
		assert.sameValue(new SharedArrayBuffer(-0.9).byteLength, 0);
		assert.sameValue(new SharedArrayBuffer(1.9).byteLength, 1);
		assert.sameValue(new SharedArrayBuffer("3").byteLength, 3);
		assert.sameValue(new SharedArrayBuffer(NaN).byteLength, 0);
		assert.sameValue(new SharedArrayBuffer({valueOf: function () { return 5; }}).byteLength, 5);
		assert.sameValue(new SharedArrayBuffer(true).byteLength, 1);
		assert.sameValue(new SharedArrayBuffer(null).byteLength, 0);
	`},
	{"length-is-too-large-throws, negative-length-throws, allocation-limit", `
		assert.throws(RangeError, function () { new SharedArrayBuffer(9007199254740992); });
		assert.throws(RangeError, function () { new SharedArrayBuffer(Infinity); });
		assert.throws(RangeError, function () { new SharedArrayBuffer(-1); });
		assert.throws(RangeError, function () { new SharedArrayBuffer(-Infinity); });
		assert.throws(RangeError, function () { new SharedArrayBuffer(7 * 1125899906842624); });
		assert.throws(RangeError, function () { new SharedArrayBuffer(9007199254740992 - 1); });
		assert.throws(TypeError, function () { new SharedArrayBuffer(Symbol()); });
		assert.throws(TypeError, function () { new SharedArrayBuffer(1n); });
	`},
	{"return-abrupt-from-length", `
		function E() {}
		assert.throws(E, function () { new SharedArrayBuffer({valueOf: function () { throw new E(); }}); });
	`},
	{"prototype-from-newtarget, newtarget-prototype-is-not-object", `
		function NT() {}
		NT.prototype = Object.create(null);
		var s = Reflect.construct(SharedArrayBuffer, [1], NT);
		assert.sameValue(Object.getPrototypeOf(s), NT.prototype);
		[undefined, null, true, "", Symbol(), 1].forEach(function (p) {
			NT.prototype = p;
			var s = Reflect.construct(SharedArrayBuffer, [1], NT);
			assert.sameValue(Object.getPrototypeOf(s), SharedArrayBuffer.prototype);
			assert.sameValue(s.byteLength, 1, "still a SharedArrayBuffer");
		});
	`},
	{"data-allocation-after-object-creation", `
		function DummyError() {}
		var nt = function () {}.bind(null);
		Object.defineProperty(nt, "prototype", {get: function () { throw new DummyError(); }});
		assert.throws(DummyError, function () { Reflect.construct(SharedArrayBuffer, [7 * 1125899906842624], nt); });
		// ToIndex(length) comes before new.target.prototype
		assert.throws(RangeError, function () { Reflect.construct(SharedArrayBuffer, [-1], nt); });
	`},
	{"options-*", `
		// options-maxbytelength-undefined.js, options-non-object.js
		assert.sameValue(new SharedArrayBuffer(0, {}).growable, false);
		assert.sameValue(new SharedArrayBuffer(0, {maxByteLength: undefined}).growable, false);
		[undefined, null, true, 3, "", Symbol(), 1n].forEach(function (o) {
			assert.sameValue(new SharedArrayBuffer(0, o).growable, false);
		});
		// options-maxbytelength-diminuitive.js, -negative.js, -excessive.js
		assert.throws(RangeError, function () { new SharedArrayBuffer(1, {maxByteLength: 0}); });
		assert.throws(RangeError, function () { new SharedArrayBuffer(0, {maxByteLength: -1}); });
		assert.throws(RangeError, function () { new SharedArrayBuffer(0, {maxByteLength: 9007199254740992}); });
		// options-maxbytelength-object.js
		var log = [];
		var options = {maxByteLength: {
			toString: function () { log.push("toString"); return {}; },
			valueOf: function () { log.push("valueOf"); return {}; }}};
		assert.throws(TypeError, function () { new SharedArrayBuffer(0, options); });
		assert.compareArray(log, ["valueOf", "toString"]);
		// options-maxbytelength-poisoned.js
		function E() {}
		assert.throws(E, function () { new SharedArrayBuffer(0, {get maxByteLength() { throw new E(); }}); });
		// maxByteLength is read after ToIndex(length)
		var order = [];
		assert.throws(RangeError, function () {
			new SharedArrayBuffer(-1, {get maxByteLength() { order.push("max"); return 1; }});
		});
		assert.compareArray(order, []);
	`},
	{"instanceof, subclassing, views", `
		var sab = new SharedArrayBuffer(16);
		assert(sab instanceof SharedArrayBuffer);
		assert.sameValue(sab instanceof ArrayBuffer, false);
		assert.sameValue(ArrayBuffer.isView(sab), false);
		class S extends SharedArrayBuffer {
			constructor(n) { super(n); this.tag = "sub"; }
			get double() { return this.byteLength * 2; }
		}
		var s = new S(16);
		assert(s instanceof S);
		assert(s instanceof SharedArrayBuffer);
		assert.sameValue(s.tag, "sub");
		assert.sameValue(s.double, 32);
		assert.sameValue(Object.getPrototypeOf(s), S.prototype);
		[Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
		 Float32Array, Float64Array, BigInt64Array, BigUint64Array].forEach(function (TA) {
			var v = new TA(sab);
			assert.sameValue(v.buffer, sab, TA.name + " buffer");
			assert.sameValue(v.byteLength, 16, TA.name);
			var w = new TA(s, TA.BYTES_PER_ELEMENT, 1);
			assert.sameValue(w.buffer, s);
			assert.sameValue(w.byteOffset, TA.BYTES_PER_ELEMENT);
		});
		var dv = new DataView(sab, 4, 8);
		dv.setInt32(0, 0x01020304);
		assert.sameValue(new Uint8Array(sab)[4], 1, "DataView writes big-endian by default");
		assert.sameValue(dv.buffer, sab);
		// views share memory
		var a = new Int32Array(sab), b = new Uint8Array(sab);
		a[0] = 0x04030201;
		assert.sameValue(b[0] + b[1] + b[2] + b[3], 10);
	`},
	{"prototype/byteLength", `
		var d = Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, "byteLength");
		assert.sameValue(d.set, undefined);
		assert.sameValue(d.enumerable, false);
		assert.sameValue(d.configurable, true);
		assert.sameValue(d.get.name, "get byteLength");
		assert.sameValue(d.get.length, 0);
		assert.sameValue(new SharedArrayBuffer(42).byteLength, 42);
		// invoked-as-accessor.js, invoked-as-func.js
		assert.throws(TypeError, function () { SharedArrayBuffer.prototype.byteLength; });
		assert.throws(TypeError, function () { d.get(); });
		// this-is-not-object.js, this-has-no-typedarrayname-internal.js, this-is-arraybuffer.js
		[undefined, null, 1, "s", Symbol(), {}, [], new Int8Array(8), new DataView(new ArrayBuffer(1)),
		 new ArrayBuffer(1)].forEach(function (v) {
			assert.throws(TypeError, function () { d.get.call(v); }, String(typeof v));
		});
		assert.sameValue(isConstructor(d.get), false);
	`},
	{"prototype/growable, maxByteLength", `
		["growable", "maxByteLength"].forEach(function (name) {
			var d = Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, name);
			assert.sameValue(d.set, undefined);
			assert.sameValue(d.enumerable, false);
			assert.sameValue(d.configurable, true);
			assert.sameValue(d.get.name, "get " + name);
			assert.sameValue(d.get.length, 0);
			assert.throws(TypeError, function () { SharedArrayBuffer.prototype[name]; });
			[undefined, 1, {}, new ArrayBuffer(1), new ArrayBuffer(1, {maxByteLength: 2})].forEach(function (v) {
				assert.throws(TypeError, function () { d.get.call(v); });
			});
		});
		assert.sameValue(new SharedArrayBuffer(1).growable, false);
		assert.sameValue(new SharedArrayBuffer(1, {maxByteLength: 1}).growable, true);
		assert.sameValue(new SharedArrayBuffer(4).maxByteLength, 4);
		assert.sameValue(new SharedArrayBuffer(0).maxByteLength, 0);
		assert.sameValue(new SharedArrayBuffer(4, {maxByteLength: 9}).maxByteLength, 9);
		assert.sameValue(new SharedArrayBuffer(0, {maxByteLength: 0}).maxByteLength, 0);
	`},
	{"prototype/grow", `
		verifyProperty(SharedArrayBuffer.prototype, "grow", {writable: true, enumerable: false, configurable: true});
		assert.sameValue(SharedArrayBuffer.prototype.grow.length, 1);
		assert.sameValue(SharedArrayBuffer.prototype.grow.name, "grow");
		assert.sameValue(isConstructor(SharedArrayBuffer.prototype.grow), false);
		assert.sameValue(Object.prototype.hasOwnProperty.call(SharedArrayBuffer.prototype.grow, "prototype"), false);
		assert.throws(TypeError, function () { new (new SharedArrayBuffer(8, {maxByteLength: 9}).grow)(); });
		// this-is-not-object.js, this-is-not-arraybuffer-object.js, this-is-sharedarraybuffer.js (an ArrayBuffer),
		// this-is-not-resizable-arraybuffer-object.js
		var grow = SharedArrayBuffer.prototype.grow;
		[undefined, null, 1, "", Symbol(), {}, [], new ArrayBuffer(0), new ArrayBuffer(0, {maxByteLength: 4}),
		 new SharedArrayBuffer(4), new SharedArrayBuffer(0)].forEach(function (v) {
			assert.throws(TypeError, function () { grow.call(v, 0); });
		});
		// the receiver is checked before the length is coerced
		assert.throws(TypeError, function () { grow.call(new SharedArrayBuffer(4), {valueOf: function () { throw new Error("coerced"); }}); });
		// grow-larger-size.js, grow-same-size.js
		var sab = new SharedArrayBuffer(4, {maxByteLength: 8});
		assert.sameValue(sab.grow(5), undefined);
		assert.sameValue(sab.byteLength, 5);
		assert.sameValue(sab.grow(5), undefined);
		assert.sameValue(sab.byteLength, 5);
		assert.sameValue(sab.grow(8), undefined);
		assert.sameValue(sab.byteLength, 8);
		// grow-smaller-size.js: an implementation may throw; we throw a RangeError
		assert.throws(RangeError, function () { sab.grow(3); });
		assert.sameValue(sab.byteLength, 8);
		// new-length-excessive.js, new-length-negative.js
		var g = new SharedArrayBuffer(0, {maxByteLength: 4});
		assert.throws(RangeError, function () { g.grow(5); });
		assert.throws(RangeError, function () { g.grow(-1); });
		assert.throws(RangeError, function () { g.grow(Infinity); });
		assert.sameValue(g.byteLength, 0);
		// new-length-non-number.js
		var log = [];
		assert.throws(TypeError, function () {
			g.grow({toString: function () { log.push("toString"); return {}; },
			        valueOf: function () { log.push("valueOf"); return {}; }});
		});
		assert.compareArray(log, ["valueOf", "toString"]);
		// new bytes are zero, old bytes kept; views made after the grow see the new length
		var h = new SharedArrayBuffer(2, {maxByteLength: 16});
		new Uint8Array(h)[1] = 7;
		h.grow(16);
		var u = new Uint8Array(h);
		assert.sameValue(u.length, 16);
		assert.sameValue(u[1], 7);
		assert.sameValue(u[15], 0);
		assert.sameValue(new Int32Array(h, 12, 1).length, 1);
	`},
	{"prototype/slice", `
		verifyProperty(SharedArrayBuffer.prototype, "slice", {writable: true, enumerable: false, configurable: true});
		assert.sameValue(SharedArrayBuffer.prototype.slice.length, 2);
		assert.sameValue(SharedArrayBuffer.prototype.slice.name, "slice");
		assert.sameValue(isConstructor(SharedArrayBuffer.prototype.slice), false);
		// context-is-not-object.js, context-is-not-arraybuffer-object.js
		[undefined, null, 1, "", Symbol(), {}, [], new ArrayBuffer(8)].forEach(function (v) {
			assert.throws(TypeError, function () { SharedArrayBuffer.prototype.slice.call(v); });
		});
		var sab = new SharedArrayBuffer(8);
		var u = new Uint8Array(sab);
		for (var i = 0; i < 8; i++) u[i] = i + 1;
		function bytes(b) { return Array.prototype.slice.call(new Uint8Array(b)); }
		// start/end defaults, negative, exceeding, conversions
		assert.compareArray(bytes(sab.slice()), [1, 2, 3, 4, 5, 6, 7, 8]);
		assert.compareArray(bytes(sab.slice(undefined, undefined)), [1, 2, 3, 4, 5, 6, 7, 8]);
		assert.compareArray(bytes(sab.slice(1, 3)), [2, 3]);
		assert.compareArray(bytes(sab.slice(-3)), [6, 7, 8]);
		assert.compareArray(bytes(sab.slice(1, -5)), [2, 3]);
		assert.compareArray(bytes(sab.slice(-Infinity, 2)), [1, 2]);
		assert.compareArray(bytes(sab.slice(6, 100)), [7, 8]);
		assert.compareArray(bytes(sab.slice(6, Infinity)), [7, 8]);
		assert.compareArray(bytes(sab.slice(10)), []);
		assert.compareArray(bytes(sab.slice(5, 3)), []);
		assert.compareArray(bytes(sab.slice(1.9, 3.9)), [2, 3]);
		assert.compareArray(bytes(sab.slice("1", "3")), [2, 3]);
		assert.compareArray(bytes(sab.slice(NaN, NaN)), []);
		assert.compareArray(bytes(sab.slice(0, {valueOf: function () { return 2; }})), [1, 2]);
		var copy = sab.slice();
		assert(copy instanceof SharedArrayBuffer);
		assert.sameValue(Object.getPrototypeOf(copy), SharedArrayBuffer.prototype);
		new Uint8Array(copy)[0] = 99;
		assert.sameValue(u[0], 1, "a slice is a copy");
		// species-constructor-is-undefined.js, species-is-undefined.js, species-is-null.js
		sab.constructor = undefined;
		assert.sameValue(Object.getPrototypeOf(sab.slice()), SharedArrayBuffer.prototype);
		sab.constructor = {};
		sab.constructor[Symbol.species] = undefined;
		assert.sameValue(Object.getPrototypeOf(sab.slice()), SharedArrayBuffer.prototype);
		sab.constructor[Symbol.species] = null;
		assert.sameValue(Object.getPrototypeOf(sab.slice()), SharedArrayBuffer.prototype);
		// species-constructor-is-not-object.js, species-is-not-object.js, species-is-not-constructor.js
		[null, 1, "", true, Symbol()].forEach(function (c) {
			sab.constructor = c;
			assert.throws(TypeError, function () { sab.slice(); });
		});
		sab.constructor = {};
		[1, "", true, {}, Symbol(), function () {}.bind(), Math.max].forEach(function (s) {
			if (typeof s === "function" && isConstructor(s)) return;
			sab.constructor[Symbol.species] = s;
			assert.throws(TypeError, function () { sab.slice(); });
		});
		// species.js
		var args;
		sab.constructor = {};
		sab.constructor[Symbol.species] = function (n) { args = arguments; return new SharedArrayBuffer(n); };
		var r = sab.slice(1, 4);
		assert.sameValue(args.length, 1);
		assert.sameValue(args[0], 3);
		assert.compareArray(bytes(r), [2, 3, 4]);
		// species-returns-larger-arraybuffer.js
		sab.constructor[Symbol.species] = function () { return new SharedArrayBuffer(10); };
		assert.sameValue(sab.slice(0, 2).byteLength, 10);
		// species-returns-smaller-arraybuffer.js, -not-arraybuffer.js, -same-arraybuffer.js, an ArrayBuffer
		[function () { return new SharedArrayBuffer(1); }, function () { return {}; },
		 function () { return sab; }, function (n) { return new ArrayBuffer(n); }].forEach(function (f) {
			sab.constructor[Symbol.species] = f;
			assert.throws(TypeError, function () { sab.slice(0, 4); });
		});
		// the same block through another wrapper is the same data
		sab.constructor[Symbol.species] = function () { return new Uint8Array(sab).buffer; };
		assert.throws(TypeError, function () { sab.slice(0, 4); });
		// extensible.js
		assert(Object.isExtensible(sab.slice));
	`},
	{"not-shared: prototype-swapped ArrayBuffer", `
		var fake = new ArrayBuffer(8);
		Object.setPrototypeOf(fake, SharedArrayBuffer.prototype);
		assert(fake instanceof SharedArrayBuffer, "looks like one");
		assert.throws(TypeError, function () { fake.byteLength; });
		assert.throws(TypeError, function () { fake.slice(); });
		assert.throws(TypeError, function () { Atomics.wait(new Int32Array(fake), 0, 0, 0); });
		assert.sameValue(Atomics.notify(new Int32Array(fake), 0), 0);
	`},
	{"proto swapped away: still shared", `
		var sab = new SharedArrayBuffer(8);
		Object.setPrototypeOf(sab, null);
		assert.sameValue(SharedArrayBuffer.prototype.slice.call(sab).byteLength, 8);
		Object.setPrototypeOf(sab, ArrayBuffer.prototype);
		assert.throws(TypeError, function () { SharedArrayBuffer.prototype.slice.call(sab); }, "species is ArrayBuffer");
		assert.sameValue(Atomics.notify(new Int32Array(sab), 0), 0);
	`},
}

func TestSharedArrayBufferSpec(t *testing.T) {
	checkRegistry(t)
	for _, c := range sabCases {
		t.Run(c.name, func(t *testing.T) {
			rt := newRealm(t, RealmOptions{})
			run(t, rt, c.src)
		})
	}
}

// TestBlockOfRefusesSwappedPrototype checks the Go-side brand check clone
// relies on.
func TestBlockOfRefusesSwappedPrototype(t *testing.T) {
	checkRegistry(t)
	rt := newRealm(t, RealmOptions{})
	v := run(t, rt, `var fake = new ArrayBuffer(8); Object.setPrototypeOf(fake, SharedArrayBuffer.prototype);
		[fake, new SharedArrayBuffer(8), {}, new Uint8Array(4), new (class extends SharedArrayBuffer {})(3)]`)
	var objs []*goja.Object
	if err := rt.ExportTo(v, &objs); err != nil {
		t.Fatal(err)
	}
	want := []bool{false, true, false, false, true}
	for i, o := range objs {
		b, ok := BlockOf(rt, o)
		if ok != want[i] {
			t.Errorf("BlockOf(#%d) = %v, want %v", i, ok, want[i])
		}
		if ok && b.ByteLength() != []int{0, 8, 0, 0, 3}[i] {
			t.Errorf("BlockOf(#%d).ByteLength() = %d", i, b.ByteLength())
		}
	}
	if _, ok := BlockOf(rt, nil); ok {
		t.Error("BlockOf(nil) succeeded")
	}
}
