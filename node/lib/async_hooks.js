// async_hooks (node/async_hooks.go): AsyncLocalStorage and AsyncResource over the realm's one async context
// (N.get, N.set), which follows promise jobs, timers, immediates, process.nextTick and queueMicrotask.
// createHook and executionAsyncResource are not provided (they throw an error naming them): only AsyncResources
// have async ids (see executionAsyncId below).
(function (N, require, core) {
'use strict';

const kDisabled = Symbol('kDisabled');

function runIn(ctx, fn, thisArg, args) {
	const prev = N.get();
	N.set(ctx);
	try { return Reflect.apply(fn, thisArg, args); } finally { N.set(prev); }
}

class AsyncLocalStorage {
	constructor() { Object.defineProperty(this, kDisabled, { value: false, writable: true }); }
	run(store, callback, ...args) {
		this[kDisabled] = false;
		const m = new Map(N.get());
		m.set(this, store);
		return runIn(m, callback, undefined, args);
	}
	exit(callback, ...args) {
		const m = new Map(N.get());
		m.delete(this);
		return runIn(m.size === 0 ? undefined : m, callback, undefined, args);
	}
	enterWith(store) {
		this[kDisabled] = false;
		const m = new Map(N.get());
		m.set(this, store);
		N.set(m);
	}
	getStore() {
		if (this[kDisabled]) return undefined;
		const m = N.get();
		return m === undefined ? undefined : m.get(this);
	}
	disable() {
		this[kDisabled] = true;
		const cur = N.get();
		if (cur !== undefined && cur.has(this)) {
			const m = new Map(cur);
			m.delete(this);
			N.set(m.size === 0 ? undefined : m);
		}
	}
	static bind(fn) {
		if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function.');
		const ctx = N.get();
		return function (...args) { return runIn(ctx, fn, this, args); };
	}
	static snapshot() {
		const ctx = N.get();
		return function (fn, ...args) { return runIn(ctx, fn, this, args); };
	}
}

// Async ids: every AsyncResource gets one; executionAsyncId() is the id of the resource whose runInAsyncScope is
// running, else 1 (the main script's, as in Node). Timers, promises and the other resources Node numbers are not
// numbered here, so inside them executionAsyncId() is that of the enclosing runInAsyncScope.
let nextId = 2;
let execId = 1, triggerId = 0;
const kId = Symbol('kId');

class AsyncResource {
	constructor(type, opts) {
		if (typeof type !== 'string') throw new TypeError('The "type" argument must be of type string.');
		Object.defineProperty(this, 'type', { value: type });
		Object.defineProperty(this, kDisabled, { value: N.get() });
		let trigger = execId;
		if (typeof opts === 'number') trigger = opts;
		else if (opts !== null && typeof opts === 'object' && typeof opts.triggerAsyncId === 'number') trigger = opts.triggerAsyncId;
		Object.defineProperty(this, kId, { value: [nextId++, trigger] });
	}
	runInAsyncScope(fn, thisArg, ...args) {
		const prevExec = execId, prevTrigger = triggerId;
		execId = this[kId][0]; triggerId = this[kId][1];
		try { return runIn(this[kDisabled], fn, thisArg, args); } finally { execId = prevExec; triggerId = prevTrigger; }
	}
	emitDestroy() { return this; }
	bind(fn, thisArg) {
		const self = this;
		const bound = function (...args) { return self.runInAsyncScope(fn, thisArg === undefined ? this : thisArg, ...args); };
		Object.defineProperty(bound, 'length', { value: fn.length });
		Object.defineProperty(bound, 'asyncResource', { value: this, enumerable: true, writable: true, configurable: true });
		return bound;
	}
	static bind(fn, type, thisArg) { return new AsyncResource(type || fn.name || 'bound-anonymous-fn').bind(fn, thisArg); }
	asyncId() { return this[kId][0]; }
	triggerAsyncId() { return this[kId][1]; }
}

const notSupported = function (name) {
	return function () { throw new Error('jsworker: async_hooks.' + name + ' is not supported (only AsyncResources are numbered)'); };
};
return {
	AsyncLocalStorage: AsyncLocalStorage,
	AsyncResource: AsyncResource,
	createHook: notSupported('createHook'),
	executionAsyncId: function executionAsyncId() { return execId; },
	triggerAsyncId: function triggerAsyncId() { return triggerId; },
	executionAsyncResource: notSupported('executionAsyncResource'),
	asyncWrapProviders: Object.freeze({ NONE: 0 }),
};
})
