// internal/comparisons (node/builtins.go): the deep equality of assert.deepStrictEqual (same prototypes, Object.is
// on primitives, enumerable own symbols) and assert.deepEqual (loose: ==, prototypes ignored), and
// util.isDeepStrictEqual. Dates, RegExps, Errors, boxed primitives, typed arrays, ArrayBuffers, Maps and Sets compare
// by content; cycles compare equal when both sides reach the same pair again.
(function (N, require, core) {
'use strict';

function isPrim(v) { return v === null || (typeof v !== 'object' && typeof v !== 'function'); }
const tagOf = function (v) { return Object.prototype.toString.call(v); };

function ownKeys(o, strict) {
	const keys = Object.keys(o);
	if (!strict) return keys;
	return keys.concat(Object.getOwnPropertySymbols(o).filter(function (s) { return Object.prototype.propertyIsEnumerable.call(o, s); }));
}

function deepEq(a, b, strict, memo) {
	if (a === b) return a !== 0 || !strict || Object.is(a, b);
	if (strict) {
		if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
			return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
		}
		if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
	} else {
		if (a === null || typeof a !== 'object') {
			if (b === null || typeof b !== 'object') return a == b || (Number.isNaN(a) && Number.isNaN(b)); // eslint-disable-line eqeqeq
			return false;
		}
		if (b === null || typeof b !== 'object') return false;
	}
	if (tagOf(a) !== tagOf(b)) return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	if (a instanceof Date) {
		if (!(b instanceof Date) || a.getTime() !== b.getTime()) return false;
	} else if (a instanceof RegExp) {
		if (!(b instanceof RegExp) || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
	} else if (a instanceof Error) {
		if (!(b instanceof Error) || a.message !== b.message || a.name !== b.name) return false;
	} else if (ArrayBuffer.isView(a)) {
		if (!ArrayBuffer.isView(b) || a.byteLength !== b.byteLength) return false;
		if (!strict && !(a instanceof Float32Array || a instanceof Float64Array)) {
			const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength), y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
			for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
		} else {
			if (a.length !== b.length) return false;
			for (let i = 0; i < a.length; i++) if (!(strict ? Object.is(a[i], b[i]) : a[i] == b[i])) return false; // eslint-disable-line eqeqeq
		}
	} else if (a instanceof ArrayBuffer) {
		if (!(b instanceof ArrayBuffer) || a.byteLength !== b.byteLength) return false;
		const x = new Uint8Array(a), y = new Uint8Array(b);
		for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
	} else if (a instanceof Number || a instanceof String || a instanceof Boolean || a instanceof Symbol || (typeof BigInt === 'function' && a instanceof BigInt)) {
		if (!Object.is(a.valueOf(), b.valueOf())) return false;
	} else if (a instanceof WeakMap || a instanceof WeakSet || a instanceof Promise) {
		return false;
	}
	let ka = ownKeys(a, strict), kb = ownKeys(b, strict);
	if (ArrayBuffer.isView(a)) {
		ka = ka.filter(function (k) { return typeof k === 'symbol' || !/^\d+$/.test(k); });
		kb = kb.filter(function (k) { return typeof k === 'symbol' || !/^\d+$/.test(k); });
	}
	if (ka.length !== kb.length) return false;
	if (Array.isArray(a) && a.length !== b.length) return false;
	for (const k of ka) if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false;
	// cycles: a pair seen on the current path counts as equal
	for (const [x, y] of memo) if (x === a && y === b) return true;
	memo.push([a, b]);
	try {
		for (const k of ka) if (!deepEq(a[k], b[k], strict, memo)) return false;
		if (a instanceof Map) {
			if (!(b instanceof Map) || a.size !== b.size) return false;
			const rest = Array.from(b);
			for (const [k, v] of a) {
				let idx = -1;
				if (b.has(k) && (isPrim(k) || !strict)) {
					if (!deepEq(v, b.get(k), strict, memo)) return false;
					idx = rest.findIndex(function (e) { return e[0] === k; });
				} else {
					idx = rest.findIndex(function (e) { return deepEq(k, e[0], strict, memo) && deepEq(v, e[1], strict, memo); });
				}
				if (idx < 0) return false;
				rest.splice(idx, 1);
			}
		} else if (a instanceof Set) {
			if (!(b instanceof Set) || a.size !== b.size) return false;
			const rest = Array.from(b).filter(function (v) { return !isPrim(v) || !a.has(v); });
			for (const v of a) {
				if (isPrim(v) && b.has(v)) continue;
				const idx = rest.findIndex(function (e) { return deepEq(v, e, strict, memo); });
				if (idx < 0) return false;
				rest.splice(idx, 1);
			}
		}
	} finally {
		memo.pop();
	}
	return true;
}

function isDeepStrictEqual(a, b) { return deepEq(a, b, true, []); }
function isDeepEqual(a, b) { return deepEq(a, b, false, []); }

return { isDeepStrictEqual: isDeepStrictEqual, isDeepEqual: isDeepEqual };
})
