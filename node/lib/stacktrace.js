// internal/stacktrace (node/stacktrace.go): an emulation of V8's stack trace API over goja's call stack —
// CallSite objects for Error.prepareStackTrace and Error.captureStackTrace — made on first use.
(function (N, require, core) {
'use strict';
// A frame is [fileName, line, column, functionName, native] (N.frames).
class CallSite {
	#f;
	constructor(f) { this.#f = f; }
	getThis() { return undefined; }
	getTypeName() { return null; }
	getFunction() { return undefined; }
	getFunctionName() { return this.#f[3] || null; }
	getMethodName() { return null; }
	getFileName() { return this.#f[4] ? undefined : this.#f[0]; }
	getLineNumber() { return this.#f[4] ? null : this.#f[1]; }
	getColumnNumber() { return this.#f[4] ? null : this.#f[2]; }
	getEvalOrigin() { return undefined; }
	getScriptNameOrSourceURL() { return this.getFileName(); }
	getScriptHash() { return ''; }
	getEnclosingLineNumber() { return null; }
	getEnclosingColumnNumber() { return null; }
	getPosition() { return 0; }
	getPromiseIndex() { return null; }
	isToplevel() { return !this.#f[3]; }
	isEval() { return false; }
	isNative() { return false; }
	isConstructor() { return false; }
	isAsync() { return false; }
	isPromiseAll() { return false; }
	toString() {
		const f = this.#f;
		const where = f[4] ? 'native' : f[0] + ':' + f[1] + ':' + f[2];
		return f[3] ? f[3] + ' (' + where + ')' : where;
	}
}
Object.defineProperty(CallSite.prototype, Symbol.toStringTag, { value: 'CallSite', configurable: true });

function callSites(frames) { return frames.map((f) => new CallSite(f)); }

// header is how V8 opens a captured stack: name and message as Error.prototype.toString writes them.
function header(o) {
	let name = o.name, msg = o.message;
	name = name === undefined ? 'Error' : String(name);
	msg = msg === undefined ? '' : String(msg);
	return name === '' ? msg : msg === '' ? name : name + ': ' + msg;
}

// stackOf is what V8 puts in obj.stack for frames: Error.prepareStackTrace(obj, callSites) when that is a
// function, else the header and one "    at …" line a frame.
function stackOf(obj, frames, prepare) {
	if (typeof prepare === 'function') return prepare(obj, callSites(frames));
	let s = header(obj);
	for (const f of frames) s += '\n    at ' + new CallSite(f).toString();
	return s;
}

function define(obj, v) {
	Object.defineProperty(obj, 'stack', { value: v, writable: true, configurable: true, enumerable: false });
}

// captureStackTrace(obj[, fn]): obj.stack from the caller's frame, or from the frame below fn's topmost call (no
// frames when fn is not on the stack, as V8). goja frames carry no function: fn is found by its name.
function captureStackTrace(obj, fn) {
	if (obj === null || (typeof obj !== 'object' && typeof obj !== 'function')) {
		const e = new TypeError('Invalid argument');
		throw e;
	}
	let frames = N.frames(2); // below this function and the native Error.captureStackTrace
	if (typeof fn === 'function') {
		const i = frames.findIndex((f) => f[3] === fn.name && fn.name !== '');
		frames = i < 0 ? [] : frames.slice(i + 1);
	}
	define(obj, stackOf(obj, frames, N.prepare()));
}

// wrap makes the Error that stands in the global while Error.prepareStackTrace is a function: it constructs the
// original Error (same prototype, so instanceof holds) and gives each error a stack from prepareStackTrace.
function wrap(OrigError, get, set) {
	function Error(...args) {
		const e = Reflect.construct(OrigError, args, new.target || OrigError);
		const prepare = N.prepare();
		if (typeof prepare === 'function') define(e, prepare(e, callSites(N.frames(1)))); // below this Error
		return e;
	}
	Error.prototype = OrigError.prototype;
	Object.defineProperty(Error, 'prototype', { writable: false });
	Object.defineProperty(Error, 'prepareStackTrace', { get, set, configurable: true, enumerable: false });
	Object.defineProperty(Error, 'captureStackTrace', { value: OrigError.captureStackTrace, writable: true, configurable: true });
	Object.defineProperty(Error, 'stackTraceLimit', {
		get() { return OrigError.stackTraceLimit; },
		set(v) { OrigError.stackTraceLimit = v; },
		configurable: true,
	});
	Object.setPrototypeOf(Error, Object.getPrototypeOf(OrigError));
	return Error;
}

return { captureStackTrace, wrap };
})
