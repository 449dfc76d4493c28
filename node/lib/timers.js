// Node-style timers (node/worker.go): setTimeout, setInterval and setImmediate return objects with ref/unref; their
// numeric id is their primitive value, so clearTimeout takes either. Callbacks run in the async context
// (AsyncLocalStorage) they were scheduled in; ctx gets and sets it (node/async_hooks.go). It returns bind and make:
// make(name, orig) makes Node's global name over orig, the web layer's function of that name, when a script first
// touches the global (node/timers.go), so a realm that never uses a timer never makes them; make's caller names
// the function (from Go: this source runs on first use, after the program may have changed Object.defineProperty).
(function (setRef, clearTimer, ctx) {
'use strict';
const getCtx = ctx.get, setCtx = ctx.set;
// bind returns fn run in the current async context, or fn itself when there is none.
const bind = function (fn) {
	const c = getCtx();
	if (c === undefined || typeof fn !== 'function') return fn;
	return function () {
		const prev = getCtx();
		setCtx(c);
		try { return fn.apply(this, arguments); } finally { setCtx(prev); }
	};
};

	// The Timeout and Immediate classes are made with the first timer (classes): a realm that sets none never pays
	// for their methods.
	let Timeout, Immediate;
	const classes = function () {
		Timeout = class Timeout {
			constructor(id, repeat) { this._id = id; this._repeat = repeat; this._ref = true; }
			ref() { this._ref = true; setRef(this._id, true); return this; }
			unref() { this._ref = false; setRef(this._id, false); return this; }
			hasRef() { return this._ref; }
			refresh() { return this; }
			close() { clearTimer(this._id); return this; }
			[Symbol.toPrimitive]() { return this._id; }
		};
		Immediate = class Immediate {
			constructor(id) { this._id = id; this._ref = true; }
			ref() { this._ref = true; return this; }
			unref() { this._ref = false; return this; }
			hasRef() { return this._ref; }
			[Symbol.toPrimitive]() { return this._id; }
		};
	};
	const make = function (name, orig) {
		let f;
		switch (name) {
		case 'setTimeout':
			f = function (fn, ms, ...args) { if (Timeout === undefined) classes(); return new Timeout(orig(bind(fn), ms, ...args), false); };
			break;
		case 'setInterval':
			f = function (fn, ms, ...args) { if (Timeout === undefined) classes(); return new Timeout(orig(bind(fn), ms, ...args), true); };
			break;
		case 'setImmediate':
			f = function (fn, ...args) { if (Immediate === undefined) classes(); return new Immediate(orig(bind(fn), ...args)); };
			break;
		case 'queueMicrotask':
			f = function (fn) { return orig(bind(fn)); };
			break;
		default:
			throw new TypeError('jsworker: no Node timer named ' + name);
		}
		return f;
	};
	return { bind, make };
})
