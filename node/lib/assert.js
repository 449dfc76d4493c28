// assert (node/builtins.go): Node's assert and assert/strict, with Node's AssertionError messages and a line diff
// of the two values for the deep comparisons (Node's skipping of long common runs is approximated).
(function (N, require, core) {
'use strict';
const { inspect } = require('internal/inspect');
const kMaxShort = 12;
const readable = {
	deepStrictEqual: 'Expected values to be strictly deep-equal:',
	strictEqual: 'Expected values to be strictly equal:',
	strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
	deepEqual: 'Expected values to be loosely deep-equal:',
	notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
	notStrictEqual: 'Expected "actual" to be strictly unequal to:',
	notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
	notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
	notIdentical: 'Values identical but not reference-equal:',
	notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
};

function lines(v) {
	return inspect(v, { compact: false, sorted: true, getters: true, depth: 1000, customInspect: false, breakLength: Infinity }).split('\n');
}

// lcsDiff returns the line diff of a and e: entries [' ', line], ['+', line] (actual only), ['-', line].
function lcsDiff(a, e) {
	const n = a.length, m = e.length;
	const t = [];
	for (let i = 0; i <= n; i++) t.push(new Array(m + 1).fill(0));
	for (let i = n - 1; i >= 0; i--) {
		for (let j = m - 1; j >= 0; j--) t[i][j] = a[i] === e[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
	}
	const out = [];
	let i = 0, j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && a[i] === e[j]) { out.push([' ', a[i]]); i++; j++; }
		else if (i < n && (j >= m || t[i + 1][j] >= t[i][j + 1])) {
			// actual lines first, as Node prints them: gather the run of '+' then the run of '-'
			out.push(['+', a[i]]); i++;
		} else { out.push(['-', e[j]]); j++; }
	}
	return out;
}

// plusFirst reorders each changed block of a diff as its '+' lines then its '-' lines, as Node prints it.
function plusFirst(out) {
	for (let k = 0; k < out.length; k++) {
		if (out[k][0] === ' ') continue;
		let end = k;
		while (end < out.length && out[end][0] !== ' ') end++;
		const block = out.slice(k, end);
		const plus = block.filter(function (x) { return x[0] === '+'; });
		const minus = block.filter(function (x) { return x[0] === '-'; });
		out.splice(k, end - k, ...plus, ...minus);
		k = end - 1;
	}
	return out;
}

function errDiff(actual, expected, operator) {
	const a = lines(actual), e = lines(expected);
	let header = readable[operator];
	if (a.length === 1 && e.length === 1 && a[0] !== e[0]) {
		const len = a[0].length + e[0].length;
		if (len <= kMaxShort && (typeof actual !== 'object' || actual === null) &&
			(typeof expected !== 'object' || expected === null) && (actual !== 0 || expected !== 0)) {
			return header + '\n\n' + a[0] + ' !== ' + e[0] + '\n';
		}
		let indicator = '';
		if (operator !== 'strictEqualObject' && len < 80) {
			let i = 0;
			while (a[0][i] === e[0][i]) i++;
			if (i > 2) indicator = '\n  ' + ' '.repeat(i) + '^';
		}
		return header + '\n+ actual - expected\n\n+ ' + a[0] + '\n- ' + e[0] + indicator;
	}
	// lines that differ only by a trailing comma are the same line (the last entry has none)
	const strip = function (l) { return l.endsWith(',') ? l.slice(0, -1) : l; };
	const d = lcsDiff(a.map(strip), e.map(strip));
	for (let k = 0, i = 0, j = 0; k < d.length; k++) {
		if (d[k][0] === ' ') { d[k][1] = e[j].length > a[i].length ? e[j] : a[i]; i++; j++; }
		else if (d[k][0] === '+') d[k][1] = a[i++];
		else d[k][1] = e[j++];
	}
	plusFirst(d);
	const out = [];
	let skipped = false, k = 0;
	while (k < d.length) {
		if (d[k][0] !== ' ') { out.push(d[k][0] + ' ' + d[k][1]); k++; continue; }
		let end = k;
		while (end < d.length && d[end][0] === ' ') end++;
		const run = d.slice(k, end).map(function (x) { return '  ' + x[1]; });
		if (end === d.length) { // the common lines at the end
			if (run.length > 4) { out.push(run[0], '...', ...run.slice(-3)); skipped = true; }
			else out.push(...run);
		} else if (run.length > 5) {
			out.push(run[0], run[1], '...', ...run.slice(-2));
			skipped = true;
		} else {
			out.push(...run);
		}
		k = end;
	}
	return header + '\n+ actual - expected' + (skipped ? ' ... Lines skipped' : '') + '\n\n' + out.join('\n');
}

class AssertionError extends Error {
	constructor(options) {
		if (options === null || typeof options !== 'object') {
			const e = new TypeError('The "options" argument must be of type object.');
			e.code = 'ERR_INVALID_ARG_TYPE';
			throw e;
		}
		const { message, operator, stackStartFn, details } = options;
		let { actual, expected } = options;
		let msg;
		if (message !== undefined && message !== null) {
			msg = String(message);
			if (options.diff !== false && (operator === 'deepStrictEqual' || operator === 'strictEqual')) {
				const diff = errDiff(actual, expected, operator);
				msg += diff.slice(diff.indexOf('\n'));
			}
		} else if (operator === 'deepStrictEqual' || operator === 'strictEqual') {
			msg = errDiff(actual, expected, operator);
		} else if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
			let base = readable[operator];
			const res = lines(actual);
			if (operator === 'notStrictEqual' && ((typeof actual === 'object' && actual !== null) || typeof actual === 'function')) {
				base = readable.notStrictEqualObject;
			}
			msg = res.length === 1 ? base + ' ' + res[0] : base + '\n\n' + res.join('\n') + '\n';
		} else {
			let a = inspect(actual, { compact: false, customInspect: false, depth: 1000, breakLength: Infinity });
			let e = inspect(expected, { compact: false, customInspect: false, depth: 1000, breakLength: Infinity });
			const base = readable[operator];
			if (operator === 'deepEqual') msg = base + '\n\n' + a + '\n\nshould loosely deep-equal\n\n' + e;
			else if (operator === 'notDeepEqual') msg = base + '\n\n' + a + (a.includes('\n') ? '' : '\n');
			else {
				if (a.length > 512) a = a.slice(0, 509) + '...';
				if (e.length > 512) e = e.slice(0, 509) + '...';
				msg = a + ' ' + operator + ' ' + e;
			}
		}
		super(msg);
		this.generatedMessage = message === undefined || message === null;
		Object.defineProperty(this, 'name', { value: 'AssertionError [ERR_ASSERTION]', enumerable: false, writable: true, configurable: true });
		this.code = 'ERR_ASSERTION';
		if (details !== undefined) this.details = details;
		else { this.actual = actual; this.expected = expected; }
		this.operator = operator;
		if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(this, stackStartFn || this.constructor);
		void this.stack;
		this.name = 'AssertionError';
	}
	toString() { return this.name + ' [' + this.code + ']: ' + this.message; }
}

const { isDeepStrictEqual, isDeepEqual } = require('internal/comparisons');

// -- the assertions --

function innerFail(obj) {
	if (obj.message instanceof Error) throw obj.message;
	throw new AssertionError(obj);
}

function callSiteText(fn) {
	// the source text of the failing call, as Node prints for assert.ok(false): read from the caller's position
	const holder = {};
	if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(holder, fn);
	const stack = String(holder.stack || new Error().stack);
	const frames = stack.split('\n').slice(1);
	for (const f of frames) {
		const m = /\(?((?:file:\/\/)?[^\s()]+):(\d+):(\d+)/.exec(f);
		if (m === null || m[1].startsWith('node:')) continue;
		const src = N.readSource(m[1]);
		if (typeof src !== 'string') return undefined;
		const ls = src.split('\n');
		const line = Number(m[2]) - 1, col = Number(m[3]) - 1;
		if (line >= ls.length) return undefined;
		const text = ls.slice(line).join('\n').slice(col);
		// the call is the callee followed by balanced parentheses
		const open = text.indexOf('(');
		if (open < 0) return undefined;
		// the callee before the position (goja's column may point at the parenthesis)
		const callee = /[\w$.]*$/.exec(ls[line].slice(0, col))[0];
		let depth = 0, q = '';
		for (let i = open; i < text.length; i++) {
			const c = text[i];
			if (q !== '') { if (c === '\\') i++; else if (c === q) q = ''; continue; }
			if (c === '"' || c === "'" || c === '`') q = c;
			else if (c === '(') depth++;
			else if (c === ')' && --depth === 0) {
				let call = text.slice(0, i + 1);
				const start = Math.max(call.lastIndexOf(' ', open), -1);
				call = callee + call.slice(start + 1);
				return call.split('\n').map(function (l, j) { return j === 0 ? l : l.trim(); }).join('\n    ');
			}
		}
		return undefined;
	}
	return undefined;
}

function innerOk(fn, argLen, value, message) {
	if (value) return;
	let generated = false;
	if (argLen === 0) {
		generated = true;
		message = 'No value argument passed to `assert.ok()`';
	} else if (message === undefined || message === null) {
		generated = true;
		const text = callSiteText(fn);
		message = text !== undefined ? 'The expression evaluated to a falsy value:\n\n  ' + text + '\n' : inspect(value) + ' == true';
	} else if (message instanceof Error) {
		throw message;
	}
	const err = new AssertionError({ actual: value, expected: true, message: message, operator: '==', stackStartFn: fn });
	err.generatedMessage = generated;
	throw err;
}

function ok(...args) { innerOk(ok, args.length, ...args); }

function assert(...args) { innerOk(assert, args.length, ...args); }

function missing(n) {
	const e = new TypeError('The "actual" and "expected" arguments must be specified');
	e.code = 'ERR_MISSING_ARGS';
	void n;
	return e;
}

const methods = {
	ok: ok,
	fail(actual, expected, message, operator, stackStartFn) {
		if (arguments.length === 0) message = 'Failed';
		else if (arguments.length === 1) { message = actual; actual = undefined; }
		if (message instanceof Error) throw message;
		const o = { actual: actual, expected: expected, operator: operator === undefined ? 'fail' : operator, stackStartFn: stackStartFn || methods.fail, message: message };
		const err = new AssertionError(o);
		if (arguments.length === 0) err.generatedMessage = true;
		throw err;
	},
	equal(actual, expected, message) {
		if (arguments.length < 2) throw missing();
		if (actual != expected && !(Number.isNaN(actual) && Number.isNaN(expected))) { // eslint-disable-line eqeqeq
			innerFail({ actual, expected, message, operator: '==', stackStartFn: methods.equal });
		}
	},
	notEqual(actual, expected, message) {
		if (arguments.length < 2) throw missing();
		if (actual == expected || (Number.isNaN(actual) && Number.isNaN(expected))) { // eslint-disable-line eqeqeq
			innerFail({ actual, expected, message, operator: '!=', stackStartFn: methods.notEqual });
		}
	},
	strictEqual(actual, expected, message) {
		if (arguments.length < 2) throw missing();
		if (!Object.is(actual, expected)) {
			if (message === undefined && typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null && isDeepStrictEqual(actual, expected)) {
				const err = new AssertionError({ actual, expected, message: 'Values have same structure but are not reference-equal:\n\n' + lines(actual).join('\n') + '\n', diff: false, operator: 'strictEqual', stackStartFn: methods.strictEqual });
				err.generatedMessage = true;
				throw err;
			}
			innerFail({ actual, expected, message, operator: 'strictEqual', stackStartFn: methods.strictEqual });
		}
	},
	notStrictEqual(actual, expected, message) {
		if (arguments.length < 2) throw missing();
		if (Object.is(actual, expected)) innerFail({ actual, expected, message, operator: 'notStrictEqual', stackStartFn: methods.notStrictEqual });
	},
	deepEqual(actual, expected, message) {
		if (arguments.length < 2) throw missing();
		if (!isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'deepEqual', stackStartFn: methods.deepEqual });
	},
	notDeepEqual(actual, expected, message) {
		if (arguments.length < 2) throw missing();
		if (isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'notDeepEqual', stackStartFn: methods.notDeepEqual });
	},
	deepStrictEqual(actual, expected, message) {
		if (arguments.length < 2) throw missing();
		if (!isDeepStrictEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: methods.deepStrictEqual });
	},
	notDeepStrictEqual(actual, expected, message) {
		if (arguments.length < 2) throw missing();
		if (isDeepStrictEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'notDeepStrictEqual', stackStartFn: methods.notDeepStrictEqual });
	},
	throws(fn, expected, message) {
		checkFn(fn, 'fn');
		const r = getActual(fn);
		if (r === NO_EXCEPTION) {
			noException(expected, message, 'throws', methods.throws, 'exception');
			return;
		}
		expectedException(r, expected, message, methods.throws);
	},
	async rejects(promiseFn, expected, message) {
		const r = await waitActual(promiseFn);
		if (r === NO_EXCEPTION) { noException(expected, message, 'rejects', methods.rejects, 'rejection'); return; }
		expectedException(r, expected, message, methods.rejects);
	},
	doesNotThrow(fn, expected, message) {
		checkFn(fn, 'fn');
		const r = getActual(fn);
		if (r !== NO_EXCEPTION) gotUnwanted(r, expected, message, 'doesNotThrow', methods.doesNotThrow, 'exception');
	},
	async doesNotReject(fn, expected, message) {
		const r = await waitActual(fn);
		if (r !== NO_EXCEPTION) gotUnwanted(r, expected, message, 'doesNotReject', methods.doesNotReject, 'rejection');
	},
	ifError(err) {
		if (err === null || err === undefined) return;
		let message = 'ifError got unwanted exception: ';
		if (typeof err === 'object' && typeof err.message === 'string') {
			message += err.message.length === 0 && err.constructor ? err.constructor.name : err.message;
		} else {
			message += inspect(err);
		}
		const e = new AssertionError({ actual: err, expected: null, operator: 'ifError', message: message, stackStartFn: methods.ifError });
		e.generatedMessage = false;
		throw e;
	},
	match(string, re, message) { innerMatch(string, re, message, methods.match, true); },
	doesNotMatch(string, re, message) { innerMatch(string, re, message, methods.doesNotMatch, false); },
};

const NO_EXCEPTION = {};
function checkFn(fn, name) {
	if (typeof fn !== 'function') {
		const e = new TypeError('The "' + name + '" argument must be of type function. Received ' + (fn === null ? 'null' : 'type ' + typeof fn + ' (' + inspect(fn) + ')'));
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
}
function getActual(fn) { try { fn(); } catch (e) { return e; } return NO_EXCEPTION; }
async function waitActual(p) {
	let promise;
	if (typeof p === 'function') {
		promise = p();
		if (promise === null || typeof promise !== 'object' || typeof promise.then !== 'function') {
			const e = new TypeError('Expected instance of Promise to be returned from the "promiseFn" function but got ' +
				(promise === null ? 'null' : promise === undefined ? 'undefined' : typeof promise === 'object' || typeof promise === 'function' ? 'an instance of ' + ((promise.constructor && promise.constructor.name) || 'Object') : 'type ' + typeof promise + ' (' + inspect(promise) + ')') + '.');
			e.code = 'ERR_INVALID_RETURN_VALUE';
			throw e;
		}
	} else if (p !== null && typeof p === 'object' && typeof p.then === 'function') {
		promise = p;
	} else {
		const e = new TypeError('The "promiseFn" argument must be of type function or an instance of Promise.');
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
	try { await promise; } catch (e) { return e; }
	return NO_EXCEPTION;
}

function noException(expected, message, operator, fn, what) {
	let details = '';
	if (typeof expected === 'string') { message = expected; expected = undefined; }
	if (expected && expected.name) details += ' (' + expected.name + ')';
	details += message ? ': ' + message : '.';
	const e = new AssertionError({ actual: undefined, expected: expected, operator: operator, message: 'Missing expected ' + what + details, stackStartFn: fn });
	e.generatedMessage = false; // as Node reports it
	throw e;
}

function gotUnwanted(actual, expected, message, operator, fn, what) {
	if (typeof expected === 'string') { message = expected; expected = undefined; }
	if (expected === undefined || matches(actual, expected)) {
		const details = message ? ': ' + message : '.';
		const e = new AssertionError({ actual: actual, expected: expected, operator: operator,
			message: 'Got unwanted ' + what + details + '\nActual message: "' + (actual && actual.message) + '"', stackStartFn: fn });
		e.generatedMessage = false; // as Node reports it
		throw e;
	}
	throw actual;
}

function matches(actual, expected) {
	if (typeof expected === 'function') {
		if (expected.prototype !== undefined && actual instanceof expected) return true;
		if (Error.isPrototypeOf(expected)) return false;
		return expected.call({}, actual) === true;
	}
	if (expected instanceof RegExp) return expected.test(String(actual));
	return true;
}

function expectedException(actual, expected, message, fn) {
	if (expected === undefined) return;
	if (typeof expected === 'string') return; // the message of the missing-exception case
	if (expected instanceof RegExp) {
		const str = String(actual);
		if (expected.test(str)) return;
		const e = new AssertionError({ actual: actual, expected: expected, message: message || 'The input did not match the regular expression ' + inspect(expected) + '. Input:\n\n' + inspect(str) + '\n', operator: fn.name, stackStartFn: fn });
		e.generatedMessage = !message;
		throw e;
	}
	if (typeof expected === 'function') {
		if (expected.prototype !== undefined && actual instanceof expected) return;
		if (Error.isPrototypeOf(expected) || expected === Error) {
			if (actual instanceof Error) {
				const e = new AssertionError({ actual: actual, expected: expected, operator: fn.name, stackStartFn: fn,
					message: message || 'The error is expected to be an instance of "' + expected.name + '". Received "' + (actual.constructor && actual.constructor.name) + '"\n\nError message:\n\n' + actual.message });
				e.generatedMessage = !message;
				throw e;
			}
			throw actual;
		}
		const r = expected.call({}, actual);
		if (r !== true) {
			const e = new AssertionError({ actual: actual, expected: expected, operator: fn.name, stackStartFn: fn,
				message: message || 'The ' + (expected.name ? '"' + expected.name + '" validation function' : 'validation function') + ' is expected to return "true". Received ' + inspect(r) + '\n\nCaught error:\n\n' + inspect(actual) });
			e.generatedMessage = !message;
			throw e;
		}
		return;
	}
	if (expected === null || typeof expected !== 'object') {
		const e = new TypeError('The "expected" argument must be of type function or an instance of Error, RegExp, or Object. Received ' + inspect(expected));
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
	const keys = Object.keys(expected);
	if (expected instanceof Error) keys.push('name', 'message');
	for (const k of keys) {
		const want = expected[k];
		const got = actual === null || actual === undefined ? undefined : actual[k];
		if (want instanceof RegExp && typeof got === 'string' && want.test(got)) continue;
		if (isDeepStrictEqual(got, want)) continue;
		// Node compares a "Comparison" of the checked keys
		const A = makeComparison(actual, keys), E = makeComparison(expected, keys, actual);
		const e = new AssertionError({ actual: A, expected: E, operator: 'deepStrictEqual', message: message, stackStartFn: fn });
		e.actual = actual; e.expected = expected; e.operator = fn.name;
		throw e;
	}
}

class Comparison {
	constructor(obj, keys, actual) {
		for (const k of keys) {
			if (k in obj) {
				if (actual !== undefined && typeof actual[k] === 'string' && obj[k] instanceof RegExp && obj[k].test(actual[k])) this[k] = actual[k];
				else this[k] = obj[k];
			}
		}
	}
}
function makeComparison(obj, keys, actual) { return new Comparison(obj, keys, actual); }

function innerMatch(string, re, message, fn, want) {
	if (!(re instanceof RegExp)) {
		const e = new TypeError('The "regexp" argument must be an instance of RegExp.');
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
	if (typeof string !== 'string' || re.test(string) !== want) {
		if (message instanceof Error) throw message;
		const generated = !message;
		message = message || (typeof string !== 'string' ?
			'The "string" argument must be of type string. Received type ' + typeof string + ' (' + inspect(string) + ')' :
			(want ? 'The input did not match the regular expression ' : 'The input was expected to not match the regular expression ') +
			inspect(re) + '. Input:\n\n' + inspect(string) + '\n');
		const e = new AssertionError({ actual: string, expected: re, message: message, operator: fn.name, stackStartFn: fn });
		e.generatedMessage = generated;
		throw e;
	}
}

Object.assign(assert, methods);
assert.AssertionError = AssertionError;
assert.isDeepStrictEqual = isDeepStrictEqual;
assert.CallTracker = function CallTracker() { throw new Error('jsworker: assert.CallTracker is not supported'); };

function strict(...args) { innerOk(strict, args.length, ...args); }
Object.assign(strict, assert, {
	equal: assert.strictEqual, deepEqual: assert.deepStrictEqual,
	notEqual: assert.notStrictEqual, notDeepEqual: assert.notDeepStrictEqual,
});
strict.strict = strict;
assert.strict = strict;
return assert;
})
