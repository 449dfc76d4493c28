// events (node/builtins.go): Node's EventEmitter and the module's helpers. The Worker, MessagePort and globalThis.process
// objects are core's emitters (core/js/ports.js); instanceof EventEmitter holds for them too, and once, on and
// getEventListeners work on them and on EventTargets.
(function (N, require, core) {
'use strict';
const kCapture = Symbol('kCapture');
const kRejection = Symbol.for('nodejs.rejection');
const errorMonitor = Symbol('events.errorMonitor');
const kMaxListeners = Symbol('kMaxListeners');
const kEvents = Symbol('kEvents');
const kWarned = Symbol('kWarned');
let defaultMaxListeners = 10;
let captureRejectionsDefault = false;
const CoreEmitter = core.EventEmitter;

function checkListener(fn) {
	if (typeof fn !== 'function') {
		const e = new TypeError('The "listener" argument must be of type function. Received ' + describe(fn));
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
}

function describe(v) {
	if (v === null || v === undefined) return String(v);
	if (typeof v === 'function') return 'function ' + v.name;
	if (typeof v === 'object') return v.constructor && v.constructor.name ? 'an instance of ' + v.constructor.name : 'an object';
	let s = String(v);
	if (s.length > 28) s = s.slice(0, 25) + '...';
	if (typeof v === 'string') s = "'" + s + "'";
	return 'type ' + typeof v + ' (' + s + ')';
}

function checkCount(n, name) {
	if (typeof n !== 'number' || n < 0 || Number.isNaN(n)) {
		const e = new RangeError('The value of "' + name + '" is out of range. It must be a non-negative number. Received ' + String(n));
		e.code = 'ERR_OUT_OF_RANGE';
		throw e;
	}
}

function eventsOf(t) {
	let m = t[kEvents];
	if (m === undefined || m === null) {
		m = Object.create(null);
		Object.defineProperty(t, kEvents, { value: m, writable: true, configurable: true });
	}
	return m;
}

function EventEmitter(opts) {
	EventEmitter.init.call(this, opts);
}

EventEmitter.init = function init(opts) {
	if (this[kEvents] === undefined || this[kEvents] === Object.getPrototypeOf(this)[kEvents]) {
		Object.defineProperty(this, kEvents, { value: Object.create(null), writable: true, configurable: true });
	}
	if (this[kMaxListeners] === undefined) {
		Object.defineProperty(this, kMaxListeners, { value: undefined, writable: true, configurable: true });
	}
	if (opts !== undefined && opts !== null && opts.captureRejections !== undefined) {
		if (typeof opts.captureRejections !== 'boolean') {
			const e = new TypeError('The "options.captureRejections" property must be of type boolean.');
			e.code = 'ERR_INVALID_ARG_TYPE';
			throw e;
		}
		Object.defineProperty(this, kCapture, { value: opts.captureRejections, writable: true, configurable: true });
	} else if (this[kCapture] === undefined) {
		Object.defineProperty(this, kCapture, { value: captureRejectionsDefault, writable: true, configurable: true });
	}
};

Object.defineProperty(EventEmitter, Symbol.hasInstance, {
	value: function (obj) {
		if (Function.prototype[Symbol.hasInstance].call(this, obj)) return true;
		return this === EventEmitter && obj instanceof CoreEmitter;
	},
});

function addListener(t, type, fn, prepend) {
	checkListener(fn);
	const events = eventsOf(t);
	if (events.newListener !== undefined) t.emit('newListener', type, fn.listener ? fn.listener : fn);
	let list = events[type];
	if (list === undefined) {
		events[type] = [fn];
	} else {
		if (prepend) list.unshift(fn); else list.push(fn);
		const max = t.getMaxListeners();
		if (max > 0 && list.length > max && !list[kWarned]) {
			list[kWarned] = true;
			const w = new Error('Possible EventEmitter memory leak detected. ' + list.length + ' ' + String(type) +
				' listeners added to ' + (t.constructor && t.constructor.name ? '[' + t.constructor.name + ']' : 'EventEmitter') +
				'. Use emitter.setMaxListeners() to increase limit');
			w.name = 'MaxListenersExceededWarning';
			w.emitter = t; w.type = type; w.count = list.length;
			if (typeof globalThis.process === 'object' && typeof globalThis.process.emitWarning === 'function') globalThis.process.emitWarning(w);
		}
	}
	return t;
}

function onceWrapper(t, type, fn) {
	const state = { fired: false, t: t, type: type, fn: fn };
	const wrapped = function (...args) {
		if (!state.fired) {
			state.t.removeListener(state.type, wrapped);
			state.fired = true;
			return state.fn.apply(state.t, args);
		}
	};
	wrapped.listener = fn;
	return wrapped;
}

function handleRejection(t, p, type, args) {
	p.then(undefined, function (err) {
		const f = function () {
			if (typeof t[kRejection] === 'function') {
				t[kRejection](err, type, ...args);
			} else {
				const prev = t[kCapture];
				try { t[kCapture] = false; t.emit('error', err); } finally { t[kCapture] = prev; }
			}
		};
		if (typeof globalThis.process === 'object') globalThis.process.nextTick(f); else globalThis.queueMicrotask(f);
	});
}

function unhandledError(t, err) {
	if (err instanceof Error) throw err;
	let s;
	try { s = require('util').inspect(err); } catch (e) { s = String(err); }
	const e = new Error('Unhandled error. (' + s + ')');
	e.code = 'ERR_UNHANDLED_ERROR';
	e.context = err;
	throw e;
}

EventEmitter.prototype = {
	constructor: EventEmitter,
	setMaxListeners(n) { checkCount(n, 'n'); this[kMaxListeners] = n; return this; },
	getMaxListeners() { return this[kMaxListeners] === undefined ? defaultMaxListeners : this[kMaxListeners]; },
	emit(type, ...args) {
		const events = this[kEvents];
		if (type === 'error' && events !== undefined && events[errorMonitor] !== undefined) this.emit(errorMonitor, ...args);
		const list = events === undefined ? undefined : events[type];
		if (list === undefined) {
			if (type === 'error') unhandledError(this, args[0]);
			return false;
		}
		const copy = list.slice();
		for (let i = 0; i < copy.length; i++) {
			const r = copy[i].apply(this, args);
			if (r !== undefined && r !== null && this[kCapture] === true && typeof r.then === 'function') {
				handleRejection(this, r, type, args);
			}
		}
		return true;
	},
	addListener(type, fn) { return addListener(this, type, fn, false); },
	on(type, fn) { return addListener(this, type, fn, false); },
	prependListener(type, fn) { return addListener(this, type, fn, true); },
	once(type, fn) { checkListener(fn); return this.on(type, onceWrapper(this, type, fn)); },
	prependOnceListener(type, fn) { checkListener(fn); return this.prependListener(type, onceWrapper(this, type, fn)); },
	removeListener(type, fn) {
		checkListener(fn);
		const events = this[kEvents];
		if (events === undefined) return this;
		const list = events[type];
		if (list === undefined) return this;
		for (let i = list.length - 1; i >= 0; i--) {
			if (list[i] === fn || list[i].listener === fn) {
				const removed = list[i];
				list.splice(i, 1);
				if (list.length === 0) delete events[type];
				if (events.removeListener !== undefined) this.emit('removeListener', type, removed.listener || removed);
				break;
			}
		}
		return this;
	},
	off(type, fn) { return this.removeListener(type, fn); },
	removeAllListeners(type) {
		const events = this[kEvents];
		if (events === undefined) return this;
		if (events.removeListener === undefined) {
			if (arguments.length === 0) this[kEvents] = Object.create(null);
			else delete events[type];
			return this;
		}
		const types = arguments.length === 0 ? Reflect.ownKeys(events).filter(function (k) { return k !== 'removeListener'; }) : [type];
		for (const t of types) {
			const list = events[t];
			if (list === undefined) continue;
			for (let i = list.length - 1; i >= 0; i--) this.removeListener(t, list[i]);
		}
		if (arguments.length === 0) this.removeAllListeners('removeListener');
		return this;
	},
	listeners(type) {
		const list = this[kEvents] === undefined ? undefined : this[kEvents][type];
		return list === undefined ? [] : list.map(function (f) { return f.listener || f; });
	},
	rawListeners(type) {
		const list = this[kEvents] === undefined ? undefined : this[kEvents][type];
		return list === undefined ? [] : list.slice();
	},
	listenerCount(type, fn) {
		const list = this[kEvents] === undefined ? undefined : this[kEvents][type];
		if (list === undefined) return 0;
		if (fn === undefined) return list.length;
		return list.filter(function (f) { return f === fn || f.listener === fn; }).length;
	},
	eventNames() { return this[kEvents] === undefined ? [] : Reflect.ownKeys(this[kEvents]); },
};
Object.defineProperty(EventEmitter.prototype, 'constructor', { enumerable: false });

Object.defineProperty(EventEmitter, 'defaultMaxListeners', {
	enumerable: true,
	get() { return defaultMaxListeners; },
	set(n) { checkCount(n, 'defaultMaxListeners'); defaultMaxListeners = n; },
});
Object.defineProperty(EventEmitter, 'captureRejections', {
	enumerable: true,
	get() { return captureRejectionsDefault; },
	set(v) {
		if (typeof v !== 'boolean') throw new TypeError('The "EventEmitter.captureRejections" property must be of type boolean.');
		captureRejectionsDefault = v;
	},
});

function abortError(signal) {
	const e = new Error('The operation was aborted');
	e.name = 'AbortError';
	e.code = 'ABORT_ERR';
	if (signal !== undefined && signal.reason !== undefined) e.cause = signal.reason;
	return e;
}

function isTarget(t) { return typeof t.addEventListener === 'function' && typeof t.on !== 'function'; }

function once(emitter, name, options) {
	const signal = options !== undefined && options !== null ? options.signal : undefined;
	return new Promise(function (resolve, reject) {
		if (signal !== undefined && signal.aborted) { reject(abortError(signal)); return; }
		if (isTarget(emitter)) {
			const fn = function (ev) { cleanup(); resolve([ev]); };
			const cleanup = function () {
				emitter.removeEventListener(name, fn);
				if (signal !== undefined) signal.removeEventListener('abort', onAbort);
			};
			const onAbort = function () { cleanup(); reject(abortError(signal)); };
			emitter.addEventListener(name, fn, { once: true });
			if (signal !== undefined) signal.addEventListener('abort', onAbort, { once: true });
			return;
		}
		const onEvent = function (...args) { cleanup(); resolve(args); };
		const onError = function (err) { cleanup(); reject(err); };
		const onAbort = function () { cleanup(); reject(abortError(signal)); };
		const cleanup = function () {
			emitter.removeListener(name, onEvent);
			if (name !== 'error') emitter.removeListener('error', onError);
			if (signal !== undefined) signal.removeEventListener('abort', onAbort);
		};
		emitter.on(name, onEvent);
		if (name !== 'error') emitter.on('error', onError);
		if (signal !== undefined) signal.addEventListener('abort', onAbort, { once: true });
	});
}

function on(emitter, name, options) {
	const signal = options !== undefined && options !== null ? options.signal : undefined;
	if (signal !== undefined && signal.aborted) throw abortError(signal);
	const queue = [];
	const waiting = [];
	let error = null, done = false;
	const target = isTarget(emitter);
	const onEvent = function (...args) {
		const v = target ? [args[0]] : args;
		if (waiting.length > 0) waiting.shift().resolve({ value: v, done: false });
		else queue.push(v);
	};
	const onError = function (err) {
		if (waiting.length > 0) { waiting.shift().reject(err); } else { error = err; }
		finish();
	};
	const onAbort = function () { onError(abortError(signal)); };
	const finish = function () {
		if (done) return;
		done = true;
		if (target) emitter.removeEventListener(name, onEvent);
		else {
			emitter.removeListener(name, onEvent);
			if (name !== 'error') emitter.removeListener('error', onError);
		}
		if (signal !== undefined) signal.removeEventListener('abort', onAbort);
		while (waiting.length > 0) waiting.shift().resolve({ value: undefined, done: true });
	};
	if (target) emitter.addEventListener(name, onEvent);
	else {
		emitter.on(name, onEvent);
		if (name !== 'error') emitter.on('error', onError);
	}
	if (signal !== undefined) signal.addEventListener('abort', onAbort, { once: true });
	const it = {
		next() {
			if (queue.length > 0) return Promise.resolve({ value: queue.shift(), done: false });
			if (error !== null) { const e = error; error = null; return Promise.reject(e); }
			if (done) return Promise.resolve({ value: undefined, done: true });
			return new Promise(function (resolve, reject) { waiting.push({ resolve: resolve, reject: reject }); });
		},
		return() { finish(); queue.length = 0; return Promise.resolve({ value: undefined, done: true }); },
		throw(err) { error = err; finish(); return Promise.reject(err); },
		[Symbol.asyncIterator]() { return this; },
	};
	return it;
}

function getEventListeners(t, name) {
	if (typeof t.listeners === 'function') return t.listeners(name);
	if (t instanceof require('internal/globals').EventTarget) return require('internal/globals').targetListeners(t, name);
	if (typeof t.addEventListener === 'function') {
		throw new Error('jsworker: events.getEventListeners of this EventTarget is not supported');
	}
	throw new TypeError('The "emitter" argument must be an instance of EventEmitter or EventTarget.');
}

const targetMax = new WeakMap(); // EventTargets' setMaxListeners
function getMaxListeners(t) {
	if (typeof t.getMaxListeners === 'function') return t.getMaxListeners();
	const m = targetMax.get(t);
	return m === undefined ? defaultMaxListeners : m;
}

function setMaxListeners(n, ...targets) {
	if (n === undefined) n = defaultMaxListeners;
	checkCount(n, 'n');
	if (targets.length === 0) { defaultMaxListeners = n; return; }
	for (const t of targets) {
		if (typeof t.setMaxListeners === 'function') t.setMaxListeners(n);
		else targetMax.set(t, n);
	}
}

function listenerCount(emitter, type) { return emitter.listenerCount(type); }

function addAbortListener(signal, fn) {
	if (signal.aborted) { globalThis.queueMicrotask(function () { fn(); }); }
	else signal.addEventListener('abort', fn, { once: true });
	return { [Symbol.dispose || Symbol.for('nodejs.dispose')]() { signal.removeEventListener('abort', fn); } };
}

// EventEmitterAsyncResource: an EventEmitter whose listeners run in the async scope of its own AsyncResource.
const kResource = Symbol('kResource');
class EventEmitterAsyncResource extends EventEmitter {
	constructor(options) {
		super(options);
		const { AsyncResource } = require('async_hooks');
		const name = options !== undefined && options !== null && options.name !== undefined ? String(options.name) : new.target.name;
		const res = new AsyncResource(name, options !== undefined && options !== null ? options : undefined);
		Object.defineProperty(res, 'eventEmitter', { value: this, enumerable: true });
		Object.defineProperty(this, kResource, { value: res });
	}
	emit(...args) { return this[kResource].runInAsyncScope(EventEmitter.prototype.emit, this, ...args); }
	emitDestroy() { this[kResource].emitDestroy(); }
	get asyncId() { return this[kResource].asyncId(); }
	get triggerAsyncId() { return this[kResource].triggerAsyncId(); }
	get asyncResource() { return this[kResource]; }
}

EventEmitter.EventEmitter = EventEmitter;
EventEmitter.usingDomains = false;
EventEmitter.captureRejectionSymbol = kRejection;
EventEmitter.errorMonitor = errorMonitor;
EventEmitter.once = once;
EventEmitter.on = on;
EventEmitter.getEventListeners = getEventListeners;
EventEmitter.getMaxListeners = getMaxListeners;
EventEmitter.setMaxListeners = setMaxListeners;
EventEmitter.listenerCount = listenerCount;
EventEmitter.addAbortListener = addAbortListener;
EventEmitter.EventEmitterAsyncResource = EventEmitterAsyncResource;
return EventEmitter;
})
