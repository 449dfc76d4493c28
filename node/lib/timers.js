// Node-style timers (node/worker.go): setTimeout, setInterval and setImmediate return objects with ref/unref; their
// numeric id is their primitive value, so clearTimeout takes either. Callbacks run in the async context
// (AsyncLocalStorage) they were scheduled in; ctx gets and sets it (node/async_hooks.go).
(function (g, setRef, ctx) {
'use strict';
const defineProperty = Object.defineProperty;
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
			close() { clearTimeout_(this._id); return this; }
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
	const setTimeout_ = g.setTimeout, setInterval_ = g.setInterval, setImmediate_ = g.setImmediate;
	const clearTimeout_ = g.clearTimeout;
	const wrap = function (name, fn) { defineProperty(fn, 'name', { value: name }); return fn; };
	const queueMicrotask_ = g.queueMicrotask;
	g.setTimeout = wrap('setTimeout', function (fn, ms, ...args) { if (Timeout === undefined) classes(); return new Timeout(setTimeout_(bind(fn), ms, ...args), false); });
	g.setInterval = wrap('setInterval', function (fn, ms, ...args) { if (Timeout === undefined) classes(); return new Timeout(setInterval_(bind(fn), ms, ...args), true); });
	g.setImmediate = wrap('setImmediate', function (fn, ...args) { if (Immediate === undefined) classes(); return new Immediate(setImmediate_(bind(fn), ...args)); });
	g.queueMicrotask = wrap('queueMicrotask', function (fn) { return queueMicrotask_(bind(fn)); });
	return bind;
})
