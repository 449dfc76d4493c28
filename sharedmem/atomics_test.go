package sharedmem

import (
	"testing"
)

// Cases modelled on test262's test/built-ins/Atomics (file names in the
// comments). Blocking waits and notify with waiters are in wait_test.go.

// rmwHarness checks one read-modify-write function (add, and, exchange, or,
// sub, xor) against apply, on every integer kind, over shared and non-shared
// memory.
const rmwHarness = `
function testRMW(name, apply, applyBig) {
	var fn = Atomics[name];
	// descriptor.js, length.js, name.js, not-a-constructor.js
	verifyProperty(Atomics, name, {writable: true, enumerable: false, configurable: true});
	verifyProperty(fn, "length", {value: 3, writable: false, enumerable: false, configurable: true});
	verifyProperty(fn, "name", {value: name, writable: false, enumerable: false, configurable: true});
	assert.sameValue(isConstructor(fn), false, "not a constructor");
	assert.throws(TypeError, function () { new fn(new Int32Array(new SharedArrayBuffer(4)), 0, 0); });
	assert.sameValue(Object.prototype.hasOwnProperty.call(fn, "prototype"), false);

	// good-views.js, nonshared-int-views.js, non-shared-bufferdata.js, expected-return-value.js
	[new SharedArrayBuffer(1024), new ArrayBuffer(1024)].forEach(function (buf) {
		intArrayConstructors.forEach(function (TA) {
			var view = new TA(buf, 32, 20);
			var control = new TA(new ArrayBuffer(16), 0, 2);
			[[0, 10], [10, -5], [-5, 0], [12345, 1], [123456789, 987654321], [-1, -1], [0xff, 0x1ff],
			 [7, 2.9], [7, "3"], [7, true], [7, {valueOf: function () { return 4; }}], [7, NaN], [7, Infinity],
			 [7, -0], [7, 2 ** 40 + 5], [7, -(2 ** 64) - 3], [7, 1e300]].forEach(function (p) {
				view[8] = p[0];
				control[0] = p[0];
				var old = control[0];
				var v = p[1];
				var n = Number(typeof v === "object" ? v.valueOf() : v);
				n = (n !== n) ? 0 : Math.trunc(n);
				// the operand is converted to the element type before the operation
				control[1] = (n === Infinity || n === -Infinity) ? 0 : n;
				control[1] = apply(old, control[1]);
				assert.sameValue(fn(view, 8, v), old, TA.name + " " + name + "(" + p[0] + ", " + String(v) + ") returns the old value");
				assert.sameValue(view[8], control[1], TA.name + " " + name + "(" + p[0] + ", " + String(v) + ") stores");
			});
			// in-bounds boundary indices (ToIndex)
			inBoundsIndices.forEach(function (gen) {
				view.fill(0);
				Atomics.store(view, gen(view), 37);
				assert.sameValue(fn(view, gen(view), 0), 37, TA.name + " index " + gen);
			});
			// neighbours untouched
			view.fill(0x55);
			fn(view, 3, 0x7f);
			assert.sameValue(view[2], 0x55);
			assert.sameValue(view[4], 0x55);
		});
		bigIntArrayConstructors.forEach(function (TA) {
			var view = new TA(buf, 16, 8);
			var control = new TA(new ArrayBuffer(16), 0, 2);
			[[0n, 10n], [10n, -5n], [-5n, 0n], [2n ** 63n - 1n, 1n], [2n ** 64n - 1n, 2n], [-1n, -(2n ** 70n) - 1n],
			 [3n, "7"], [3n, true], [3n, {valueOf: function () { return 9n; }}]].forEach(function (p) {
				view[4] = p[0];
				control[0] = p[0];
				var old = control[0];
				var v = p[1];
				var b = typeof v === "object" ? v.valueOf() : BigInt(v);
				control[1] = applyBig(old, b);
				assert.sameValue(fn(view, 4, v), old, TA.name + " " + name + " returns the old value");
				assert.sameValue(view[4], control[1], TA.name + " " + name + " stores");
			});
			assert.throws(TypeError, function () { fn(view, 0, 1); }, "a Number for a BigInt array");
			assert.throws(TypeError, function () { fn(view, 0, undefined); });
			assert.throws(SyntaxError, function () { fn(view, 0, "1.5"); });
		});
		assert.throws(TypeError, function () { fn(new Int32Array(buf), 0, 1n); }, "a BigInt for a Number array");
		assert.throws(TypeError, function () { fn(new Int32Array(buf), 0, Symbol()); });
	});

	// bad-range.js, bigint/bad-range.js
	intArrayConstructors.concat(bigIntArrayConstructors).forEach(function (TA) {
		var view = new TA(new SharedArrayBuffer(16));
		var v = TA === BigInt64Array || TA === BigUint64Array ? 10n : 10;
		outOfBoundsIndices.forEach(function (gen) {
			assert.throws(RangeError, function () { fn(view, gen(view), v); }, TA.name + " index " + gen);
		});
		assert.throws(TypeError, function () { fn(view, Symbol(), v); }, "Symbol index");
		assert.throws(TypeError, function () { fn(view, 1n, v); }, "BigInt index");
	});
	// non-views.js
	nonViewValues().forEach(function (nv) {
		assert.throws(TypeError, function () { fn(nv, 0, 0); }, String(typeof nv));
	});
	// shared-nonint-views.js, validate-arraytype-before-index-coercion.js, -value-coercion.js
	var poisoned = {valueOf: function () { throw new Test262Error("coerced"); }};
	nonIntArrayConstructors.forEach(function (TA) {
		[new SharedArrayBuffer(16), new ArrayBuffer(16)].forEach(function (buf) {
			var view = new TA(buf);
			assert.throws(TypeError, function () { fn(view, 0, 0); }, TA.name);
			assert.throws(TypeError, function () { fn(view, poisoned, 0); }, TA.name + " index not coerced");
			assert.throws(TypeError, function () { fn(view, 0, poisoned); }, TA.name + " value not coerced");
		});
	});
	// a detached buffer is refused before any coercion (null-bufferdata / detach tests)
	var ta = new Int32Array(new ArrayBuffer(8));
	$detach(ta.buffer);
	assert.throws(TypeError, function () { fn(ta, poisoned, poisoned); });
	// ... and after the value coercion detached it (RevalidateAtomicAccess)
	var tb = new Int32Array(new ArrayBuffer(8));
	assert.throws(TypeError, function () { fn(tb, 0, {valueOf: function () { $detach(tb.buffer); return 1; }}); });
	// the index is coerced before the value
	var log = [];
	fn(new Int32Array(new SharedArrayBuffer(8)),
		{valueOf: function () { log.push("index"); return 0; }},
		{valueOf: function () { log.push("value"); return 0; }});
	assert.compareArray(log, ["index", "value"]);
	// an index that is out of range is reported before the value is coerced
	assert.throws(RangeError, function () { fn(new Int32Array(new SharedArrayBuffer(8)), 2, poisoned); });
}
`

var atomicsCases = []struct{ name, src string }{
	{"Atomics object", `
		verifyProperty(this, "Atomics", {writable: true, enumerable: false, configurable: true});
		assert.sameValue(typeof Atomics, "object");
		assert.sameValue(Object.getPrototypeOf(Atomics), Object.prototype);
		verifyProperty(Atomics, Symbol.toStringTag, {value: "Atomics", writable: false, enumerable: false, configurable: true});
		assert.sameValue(Object.prototype.toString.call(Atomics), "[object Atomics]");
		assert.throws(TypeError, function () { Atomics(); });
		assert.throws(TypeError, function () { new Atomics(); });
		var names = ["add", "and", "compareExchange", "exchange", "isLockFree", "load", "notify", "or", "pause",
			"store", "sub", "wait", "waitAsync", "xor"];
		var lengths = [3, 3, 4, 3, 1, 2, 3, 3, 0, 3, 3, 4, 4, 3];
		names.forEach(function (n, i) {
			verifyProperty(Atomics, n, {writable: true, enumerable: false, configurable: true});
			verifyProperty(Atomics[n], "name", {value: n, writable: false, enumerable: false, configurable: true});
			verifyProperty(Atomics[n], "length", {value: lengths[i], writable: false, enumerable: false, configurable: true});
			assert.sameValue(isConstructor(Atomics[n]), false, n + " is not a constructor");
		});
	`},
	{"add", rmwHarness + `testRMW("add", function (a, b) { return a + b; }, function (a, b) { return a + b; });`},
	{"sub", rmwHarness + `testRMW("sub", function (a, b) { return a - b; }, function (a, b) { return a - b; });`},
	{"and", rmwHarness + `testRMW("and", function (a, b) { return a & b; }, function (a, b) { return a & b; });`},
	{"or", rmwHarness + `testRMW("or", function (a, b) { return a | b; }, function (a, b) { return a | b; });`},
	{"xor", rmwHarness + `testRMW("xor", function (a, b) { return a ^ b; }, function (a, b) { return a ^ b; });`},
	{"exchange", rmwHarness + `testRMW("exchange", function (a, b) { return b; }, function (a, b) { return b; });`},
	{"compareExchange", `
		var fn = Atomics.compareExchange;
		[new SharedArrayBuffer(1024), new ArrayBuffer(1024)].forEach(function (buf) {
			intArrayConstructors.forEach(function (TA) {
				// good-views.js, nonshared-int-views.js
				var view = new TA(buf, 32, 20);
				var control = new TA(new ArrayBuffer(16), 0, 2);
				view[8] = 0;
				assert.sameValue(fn(view, 8, 0, 10), 0);
				assert.sameValue(view[8], 10);
				view[8] = 0;
				assert.sameValue(fn(view, 8, 1, 10), 0, "no match");
				assert.sameValue(view[8], 0);
				// expected and replacement are converted to the element type (chopped)
				view[3] = -5;
				control[0] = -5;
				assert.sameValue(fn(view, 3, -5, 0), control[0]);
				assert.sameValue(view[3], 0);
				control[0] = 12345;
				view[3] = 12345;
				assert.sameValue(fn(view, 3, 12345, 0), control[0]);
				control[0] = 123456789;
				view[3] = 123456789;
				assert.sameValue(fn(view, 3, 123456789, 0), control[0]);
				view[3] = 1;
				control[0] = 1;
				assert.sameValue(fn(view, 3, 2 ** (TA.BYTES_PER_ELEMENT * 8) + 1, 2 ** 40 + 7), 1, "expected chopped to 1");
				control[1] = 2 ** 40 + 7;
				assert.sameValue(view[3], control[1], "replacement chopped");
				inBoundsIndices.forEach(function (gen) {
					view.fill(0);
					Atomics.store(view, gen(view), 37);
					assert.sameValue(fn(view, gen(view), 37, 0), 37);
				});
			});
			bigIntArrayConstructors.forEach(function (TA) {
				var view = new TA(buf, 16, 8);
				view[2] = 5n;
				assert.sameValue(fn(view, 2, 5n, 2n ** 64n + 9n), TA === BigInt64Array ? 5n : 5n);
				assert.sameValue(view[2], 9n);
				assert.sameValue(fn(view, 2, 9n + 2n ** 64n, -1n), 9n, "expected is converted mod 2^64");
				assert.sameValue(view[2], TA === BigInt64Array ? -1n : 2n ** 64n - 1n);
				assert.throws(TypeError, function () { fn(view, 0, 0, 1); });
			});
		});
		verifyProperty(fn, "length", {value: 4});
		intArrayConstructors.concat(bigIntArrayConstructors).forEach(function (TA) {
			var view = new TA(new SharedArrayBuffer(16));
			outOfBoundsIndices.forEach(function (gen) {
				assert.throws(RangeError, function () { fn(view, gen(view), 0, 0); });
			});
		});
		nonViewValues().forEach(function (nv) { assert.throws(TypeError, function () { fn(nv, 0, 0, 0); }); });
		var poisoned = {valueOf: function () { throw new Test262Error("coerced"); }};
		nonIntArrayConstructors.forEach(function (TA) {
			var view = new TA(new SharedArrayBuffer(16));
			assert.throws(TypeError, function () { fn(view, poisoned, 0, 0); });
			assert.throws(TypeError, function () { fn(view, 0, poisoned, 0); });
			assert.throws(TypeError, function () { fn(view, 0, 0, poisoned); });
		});
		var log = [];
		fn(new Int32Array(new SharedArrayBuffer(8)),
			{valueOf: function () { log.push("index"); return 0; }},
			{valueOf: function () { log.push("expected"); return 0; }},
			{valueOf: function () { log.push("replacement"); return 0; }});
		assert.compareArray(log, ["index", "expected", "replacement"]);
		var tb = new Int32Array(new ArrayBuffer(8));
		assert.throws(TypeError, function () { fn(tb, 0, 0, {valueOf: function () { $detach(tb.buffer); return 1; }}); });
	`},
	{"load", `
		var fn = Atomics.load;
		[new SharedArrayBuffer(1024), new ArrayBuffer(1024)].forEach(function (buf) {
			intArrayConstructors.forEach(function (TA) {
				var view = new TA(buf, 32, 20);
				var control = new TA(new ArrayBuffer(16), 0, 2);
				view[3] = -5;
				control[0] = -5;
				assert.sameValue(fn(view, 3), control[0]);
				control[0] = 12345;
				view[3] = 12345;
				assert.sameValue(fn(view, 3), control[0]);
				control[0] = 123456789;
				view[3] = 123456789;
				assert.sameValue(fn(view, 3), control[0]);
				inBoundsIndices.forEach(function (gen) {
					view.fill(0);
					Atomics.store(view, gen(view), 37);
					assert.sameValue(fn(view, gen(view)), 37);
				});
			});
			bigIntArrayConstructors.forEach(function (TA) {
				var view = new TA(buf, 16, 8);
				view[1] = -1n;
				assert.sameValue(fn(view, 1), TA === BigInt64Array ? -1n : 2n ** 64n - 1n);
			});
		});
		intArrayConstructors.concat(bigIntArrayConstructors).forEach(function (TA) {
			var view = new TA(new SharedArrayBuffer(16));
			outOfBoundsIndices.forEach(function (gen) { assert.throws(RangeError, function () { fn(view, gen(view)); }); });
		});
		nonViewValues().forEach(function (nv) { assert.throws(TypeError, function () { fn(nv, 0); }); });
		var poisoned = {valueOf: function () { throw new Test262Error("coerced"); }};
		nonIntArrayConstructors.forEach(function (TA) {
			assert.throws(TypeError, function () { fn(new TA(new SharedArrayBuffer(16)), poisoned); });
		});
		var ta = new Int32Array(new ArrayBuffer(8));
		$detach(ta.buffer);
		assert.throws(TypeError, function () { fn(ta, poisoned); });
		var tb = new Int32Array(new ArrayBuffer(8));
		assert.throws(TypeError, function () { fn(tb, {valueOf: function () { $detach(tb.buffer); return 0; }}); }, "revalidated after the index coercion");
		verifyProperty(fn, "length", {value: 2});
	`},
	{"store", `
		var fn = Atomics.store;
		[new SharedArrayBuffer(1024), new ArrayBuffer(1024)].forEach(function (buf) {
			intArrayConstructors.forEach(function (TA) {
				var view = new TA(buf, 32, 20);
				var control = new TA(new ArrayBuffer(16), 0, 2);
				// good-views.js, expected-return-value.js: store returns ToIntegerOrInfinity(value)
				[[10, 10], [-5, -5], [12345, 12345], [123456789, 123456789], [Math.PI, 3], ["33", 33],
				 [{valueOf: function () { return 33; }}, 33], [{toString: function () { return "33"; }, valueOf: false}, 33],
				 [Infinity, Infinity], [-Infinity, -Infinity], [NaN, 0], [2 ** 40 + 0.5, 2 ** 40], [-3.9, -3],
				 [true, 1], [null, 0], [undefined, 0]].forEach(function (p) {
					control[0] = typeof p[0] === "object" && p[0] !== null ? p[1] : p[0];
					assert.sameValue(fn(view, 3, p[0]), p[1], TA.name + " store(" + String(p[0]) + ") returns");
					assert.sameValue(view[3], control[0], TA.name + " store(" + String(p[0]) + ") stores");
				});
				// expected-return-value-negative-zero.js
				assert(Object.is(fn(view, 0, -0), 0), "-0 returns +0");
				assert(Object.is(fn(view, 0, -0.5), 0), "-0.5 returns +0");
				inBoundsIndices.forEach(function (gen) {
					view.fill(0);
					fn(view, gen(view), 37);
					assert.sameValue(Atomics.load(view, gen(view)), 37);
				});
			});
			bigIntArrayConstructors.forEach(function (TA) {
				var view = new TA(buf, 16, 8);
				// the returned value is ToBigInt(value), not the stored bits
				assert.sameValue(fn(view, 0, 2n ** 64n + 3n), 2n ** 64n + 3n);
				assert.sameValue(view[0], 3n);
				assert.sameValue(fn(view, 0, "12"), 12n);
				assert.sameValue(fn(view, 0, {valueOf: function () { return -1n; }}), -1n);
				assert.sameValue(view[0], TA === BigInt64Array ? -1n : 2n ** 64n - 1n);
				assert.sameValue(fn(view, 0, {[Symbol.toPrimitive]: function (hint) { return hint === "number" ? 5n : 0n; }}), 5n);
				assert.sameValue(fn(view, 0, false), 0n);
				assert.throws(TypeError, function () { fn(view, 0, 1); });
				assert.throws(TypeError, function () { fn(view, 0, null); });
				assert.throws(TypeError, function () { fn(view, 0, {valueOf: function () { return 1; }}); });
			});
		});
		intArrayConstructors.concat(bigIntArrayConstructors).forEach(function (TA) {
			var view = new TA(new SharedArrayBuffer(16));
			outOfBoundsIndices.forEach(function (gen) { assert.throws(RangeError, function () { fn(view, gen(view), 0); }); });
		});
		nonViewValues().forEach(function (nv) { assert.throws(TypeError, function () { fn(nv, 0, 0); }); });
		var poisoned = {valueOf: function () { throw new Test262Error("coerced"); }};
		nonIntArrayConstructors.forEach(function (TA) {
			assert.throws(TypeError, function () { fn(new TA(new SharedArrayBuffer(16)), poisoned, 0); });
			assert.throws(TypeError, function () { fn(new TA(new SharedArrayBuffer(16)), 0, poisoned); });
		});
		var tb = new Int32Array(new ArrayBuffer(8));
		assert.throws(TypeError, function () { fn(tb, 0, {valueOf: function () { $detach(tb.buffer); return 1; }}); });
		verifyProperty(fn, "length", {value: 3});
	`},
	{"isLockFree", `
		// expected-return-value.js, corner-cases.js, value.js
		[1, 2, 4, 8].forEach(function (n) { assert.sameValue(Atomics.isLockFree(n), true, String(n)); });
		for (var i = 0; i < 12; i++) {
			if ([1, 2, 4, 8].indexOf(i) < 0) assert.sameValue(Atomics.isLockFree(i), false, String(i));
		}
		assert.sameValue(Atomics.isLockFree(NaN), false);
		assert.sameValue(Atomics.isLockFree(-1), false);
		assert.sameValue(Atomics.isLockFree(3.14), false);
		assert.sameValue(Atomics.isLockFree(0), false);
		assert.sameValue(Atomics.isLockFree(), false);
		assert.sameValue(Atomics.isLockFree("1"), Atomics.isLockFree(1));
		assert.sameValue(Atomics.isLockFree("3"), Atomics.isLockFree(3));
		assert.sameValue(Atomics.isLockFree(true), Atomics.isLockFree(1));
		assert.sameValue(Atomics.isLockFree(4.9), true, "ToIntegerOrInfinity truncates");
		assert.sameValue(Atomics.isLockFree({valueOf: function () { return 1; }}), Atomics.isLockFree(1));
		assert.sameValue(Atomics.isLockFree({toString: function () { return "3"; }}), Atomics.isLockFree(3));
		assert.throws(TypeError, function () { Atomics.isLockFree(Symbol()); });
		assert.throws(TypeError, function () { Atomics.isLockFree(1n); });
	`},
	{"pause", `
		// returns-undefined.js, non-integral-iterationnumber-throws.js
		[undefined, 0, -0, 1, -1, 10, 2 ** 53, -(2 ** 60)].forEach(function (n) {
			assert.sameValue(Atomics.pause(n), undefined, String(n));
		});
		assert.sameValue(Atomics.pause(), undefined);
		[null, NaN, Infinity, -Infinity, 1.5, Symbol("foo"), "bar", "1", /baz/, 42n, {}, [], function () {}, new Number(1)]
			.forEach(function (v) {
				assert.throws(TypeError, function () { Atomics.pause(v); }, typeof v);
			});
	`},
	{"notify (no waiters)", `
		var fn = Atomics.notify;
		var i32a = new Int32Array(new SharedArrayBuffer(16));
		// count-boundary-cases.js, count-defaults-to-infinity-*.js, negative-count.js, notify-zero.js,
		// count-from-nans.js, notify-with-no-agents-waiting.js
		[-3, Infinity, undefined, "33", {valueOf: 8}, 0, NaN, -Infinity, 1.5].forEach(function (c) {
			assert.sameValue(fn(i32a, 0, c), 0, String(c));
		});
		assert.sameValue(fn(i32a, 0), 0);
		assert.sameValue(fn(i32a), 0, "undefined-index-defaults-to-zero");
		var i64a = new BigInt64Array(new SharedArrayBuffer(16));
		assert.sameValue(fn(i64a, 1, 1), 0);
		// count-symbol-throws.js, count-tointeger-throws-then-wake-throws.js
		assert.throws(TypeError, function () { fn(i32a, 0, Symbol()); });
		function E() {}
		assert.throws(E, function () { fn(i32a, 0, {valueOf: function () { throw new E(); }}); });
		// bad-range.js, negative-index-throws.js, out-of-range-index-throws.js, symbol-for-index-throws.js
		[i32a, i64a].forEach(function (view) {
			outOfBoundsIndices.forEach(function (gen) { assert.throws(RangeError, function () { fn(view, gen(view), 0); }); });
		});
		assert.throws(TypeError, function () { fn(i32a, Symbol(), 0); });
		// non-int32-typedarray-throws.js, bigint/non-bigint64-typedarray-throws.js, shared-nonint-views.js,
		// validate-arraytype-before-index-coercion.js, -count-coercion.js
		var poisoned = {valueOf: function () { throw new Test262Error("coerced"); }};
		[Int8Array, Uint8Array, Int16Array, Uint16Array, Uint32Array, Uint8ClampedArray, Float32Array, Float64Array,
		 BigUint64Array].forEach(function (TA) {
			var view = new TA(new SharedArrayBuffer(16));
			assert.throws(TypeError, function () { fn(view, poisoned, poisoned); }, TA.name);
		});
		// non-views.js, not-a-typedarray-throws.js, not-an-object-throws.js
		nonViewValues().forEach(function (nv) { assert.throws(TypeError, function () { fn(nv, 0, 0); }); });
		// non-shared-bufferdata-returns-0.js, non-shared-int-views.js, bigint/non-shared-bufferdata-returns-0.js
		assert.sameValue(fn(new Int32Array(new ArrayBuffer(16)), 0, 1), 0);
		assert.sameValue(fn(new BigInt64Array(new ArrayBuffer(16)), 0, 1), 0);
		// non-shared-bufferdata-count-evaluation-throws.js: the count is still coerced
		assert.throws(E, function () { fn(new Int32Array(new ArrayBuffer(16)), 0, {valueOf: function () { throw new E(); }}); });
		// non-shared-bufferdata-index-evaluation-throws: out of range index on a non-shared view
		assert.throws(RangeError, function () { fn(new Int32Array(new ArrayBuffer(16)), 4, 0); });
		// null-bufferdata-throws.js
		var ta = new Int32Array(new ArrayBuffer(16));
		$detach(ta.buffer);
		assert.throws(TypeError, function () { fn(ta, poisoned, poisoned); });
		// detached by the count coercion: a non-shared buffer, so 0
		var tb = new Int32Array(new ArrayBuffer(16));
		assert.sameValue(fn(tb, 0, {valueOf: function () { $detach(tb.buffer); return 1; }}), 0);
	`},
	{"wait (single agent)", `
		var fn = Atomics.wait;
		var i32a = new Int32Array(new SharedArrayBuffer(16));
		var i64a = new BigInt64Array(new SharedArrayBuffer(16));
		// value-not-equal.js, wait-index-value-not-equal.js, bigint/value-not-equal.js
		assert.sameValue(fn(i32a, 0, 42), "not-equal");
		assert.sameValue(fn(i32a, 0, 42, 0), "not-equal");
		assert.sameValue(fn(i64a, 0, 42n), "not-equal");
		i32a[1] = -1;
		assert.sameValue(fn(i32a, 1, 2 ** 32 - 1, 0), "timed-out", "the value is ToInt32'd");
		i64a[1] = -1n;
		assert.sameValue(fn(i64a, 1, 2n ** 64n - 1n, 0), "timed-out", "the value is ToBigInt64'd");
		// false-for-timeout.js, null-for-timeout.js, negative-timeout.js, object-for-timeout.js, true-for-timeout.js
		[false, null, -1, -Infinity, {valueOf: function () { return 0; }}, {toString: function () { return "0"; }},
		 true, 0.5, "1"].forEach(function (t) {
			assert.sameValue(fn(i32a, 0, 0, t), "timed-out", String(t));
			assert.sameValue(fn(i64a, 0, 0n, t), "timed-out", String(t));
		});
		// symbol-for-timeout-throws.js, poisoned-object-for-timeout-throws.js, symbol-for-value-throws.js,
		// symbol-for-index-throws.js, index-symbol-throws.js
		function E() {}
		var poisoned = {valueOf: function () { throw new E(); }};
		assert.throws(TypeError, function () { fn(i32a, 0, 0, Symbol()); });
		assert.throws(TypeError, function () { fn(i32a, 0, 0, 1n); });
		assert.throws(E, function () { fn(i32a, 0, 0, poisoned); });
		assert.throws(TypeError, function () { fn(i32a, 0, Symbol(), 0); });
		assert.throws(E, function () { fn(i32a, 0, poisoned, 0); });
		assert.throws(TypeError, function () { fn(i32a, Symbol(), 0, 0); });
		assert.throws(E, function () { fn(i32a, poisoned, 0, 0); });
		assert.throws(TypeError, function () { fn(i64a, 0, 0, 0); }, "a Number for a BigInt64Array");
		assert.throws(TypeError, function () { fn(i32a, 0, 0n, 0); }, "a BigInt for an Int32Array");
		// coercion order: index, value, timeout
		var log = [];
		fn(i32a, {valueOf: function () { log.push("index"); return 0; }},
			{valueOf: function () { log.push("value"); return 0; }},
			{valueOf: function () { log.push("timeout"); return 0; }});
		assert.compareArray(log, ["index", "value", "timeout"]);
		// bad-range.js, negative-index-throws.js, out-of-range-index-throws.js
		[i32a, i64a].forEach(function (view) {
			outOfBoundsIndices.forEach(function (gen) { assert.throws(RangeError, function () { fn(view, gen(view), 0, 0); }); });
		});
		// undefined-index-defaults-to-zero.js
		assert.sameValue(fn(i32a, undefined, 0, 0), "timed-out");
		// non-int32-typedarray-throws.js, bigint/non-bigint64-typedarray-throws.js, shared-nonint-views.js,
		// validate-arraytype-before-*-coercion.js
		var poison = {valueOf: function () { throw new Test262Error("coerced"); }};
		[Int8Array, Uint8Array, Int16Array, Uint16Array, Uint32Array, Uint8ClampedArray, Float32Array, Float64Array,
		 BigUint64Array].forEach(function (TA) {
			var view = new TA(new SharedArrayBuffer(16));
			assert.throws(TypeError, function () { fn(view, poison, poison, poison); }, TA.name);
		});
		// non-shared-bufferdata-throws.js, nonshared-int-views.js, bigint/non-shared-bufferdata-throws.js:
		// refused before the index is coerced
		assert.throws(TypeError, function () { fn(new Int32Array(new ArrayBuffer(16)), poison, poison, poison); });
		assert.throws(TypeError, function () { fn(new BigInt64Array(new ArrayBuffer(16)), poison, poison, poison); });
		// null-bufferdata-throws.js
		var ta = new Int32Array(new ArrayBuffer(16));
		$detach(ta.buffer);
		assert.throws(TypeError, function () { fn(ta, poison, poison, poison); });
		// non-views.js, not-an-object-throws.js, missing-typedarrayname-throws.js
		nonViewValues().forEach(function (nv) { assert.throws(TypeError, function () { fn(nv, 0, 0, 0); }); });
		// a subarray waits on its own index in the buffer
		var sub = i32a.subarray(2);
		assert.sameValue(fn(sub, 1, 0, 0), "timed-out");
		assert.sameValue(Atomics.notify(sub, 1), 0);
	`},
	{"waitAsync (immediate results)", `
		var fn = Atomics.waitAsync;
		var i32a = new Int32Array(new SharedArrayBuffer(16));
		var i64a = new BigInt64Array(new SharedArrayBuffer(16));
		// returns-result-object-value-is-string-not-equal.js, value-not-equal.js
		var r = fn(i32a, 0, 1);
		assert.sameValue(Object.getPrototypeOf(r), Object.prototype);
		assert.compareArray(Object.keys(r), ["async", "value"]);
		verifyProperty(r, "async", {value: false, writable: true, enumerable: true, configurable: true});
		verifyProperty(r, "value", {value: "not-equal", writable: true, enumerable: true, configurable: true});
		assert.sameValue(fn(i64a, 0, 1n).value, "not-equal");
		// returns-result-object-value-is-string-timed-out.js, false/null/negative/object-for-timeout.js
		[0, false, null, -1, -Infinity, {valueOf: function () { return 0; }}, -0].forEach(function (t) {
			var r = fn(i32a, 0, 0, t);
			assert.sameValue(r.async, false, String(t));
			assert.sameValue(r.value, "timed-out", String(t));
			assert.sameValue(fn(i64a, 0, 0n, t).value, "timed-out");
		});
		// not-equal is checked before the zero timeout
		assert.sameValue(fn(i32a, 0, 1, 0).value, "not-equal");
		// argument validation as for wait
		function E() {}
		var poisoned = {valueOf: function () { throw new E(); }};
		assert.throws(TypeError, function () { fn(i32a, 0, 0, Symbol()); });
		assert.throws(E, function () { fn(i32a, 0, 0, poisoned); });
		assert.throws(TypeError, function () { fn(i32a, 0, Symbol(), 0); });
		assert.throws(TypeError, function () { fn(i32a, Symbol(), 0, 0); });
		[i32a, i64a].forEach(function (view) {
			outOfBoundsIndices.forEach(function (gen) { assert.throws(RangeError, function () { fn(view, gen(view), 0, 0); }); });
		});
		var poison = {valueOf: function () { throw new Test262Error("coerced"); }};
		[Int8Array, Uint8Array, Int16Array, Uint16Array, Uint32Array, Uint8ClampedArray, Float32Array, Float64Array,
		 BigUint64Array].forEach(function (TA) {
			assert.throws(TypeError, function () { fn(new TA(new SharedArrayBuffer(16)), poison, poison, poison); }, TA.name);
		});
		assert.throws(TypeError, function () { fn(new Int32Array(new ArrayBuffer(16)), poison, poison, poison); });
		var ta = new Int32Array(new ArrayBuffer(16));
		$detach(ta.buffer);
		assert.throws(TypeError, function () { fn(ta, poison, poison, poison); });
		nonViewValues().forEach(function (nv) { assert.throws(TypeError, function () { fn(nv, 0, 0, 0); }); });
	`},
}

func TestAtomicsSpec(t *testing.T) {
	checkRegistry(t)
	for _, c := range atomicsCases {
		t.Run(c.name, func(t *testing.T) {
			rt := newRealm(t, RealmOptions{CanBlock: true})
			run(t, rt, c.src)
		})
	}
}

// cannot-suspend-throws.js, bigint/cannot-suspend-throws.js: a realm that
// must not block throws a TypeError from wait (after validating), but
// waitAsync still works.
func TestWaitCannotSuspend(t *testing.T) {
	rt := newRealm(t, RealmOptions{CanBlock: false})
	run(t, rt, `
		var i32a = new Int32Array(new SharedArrayBuffer(16));
		var i64a = new BigInt64Array(new SharedArrayBuffer(16));
		assert.throws(TypeError, function () { Atomics.wait(i32a, 0, 0, 0); });
		assert.throws(TypeError, function () { Atomics.wait(i64a, 0, 0n, 0); });
		assert.throws(TypeError, function () { Atomics.wait(i32a, 0, 1, 0); }, "even when not equal");
		assert.throws(RangeError, function () { Atomics.wait(i32a, 9, 0, 0); }, "arguments are validated first");
		function E() {}
		assert.throws(E, function () { Atomics.wait(i32a, 0, 0, {valueOf: function () { throw new E(); }}); });
		assert.sameValue(Atomics.waitAsync(i32a, 0, 0, 0).value, "timed-out");
	`)
}

// Without Schedule, a waitAsync that would have to wait throws.
func TestWaitAsyncWithoutSchedule(t *testing.T) {
	rt := newRealm(t, RealmOptions{})
	run(t, rt, `
		var i32a = new Int32Array(new SharedArrayBuffer(16));
		assert.sameValue(Atomics.waitAsync(i32a, 0, 1).value, "not-equal");
		assert.throws(TypeError, function () { Atomics.waitAsync(i32a, 0, 0, 10); });
	`)
}
