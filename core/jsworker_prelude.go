package core

import "github.com/dop251/goja"

// preludeSrc builds the JavaScript side of the JS-facing worker APIs of one
// realm: a Node-compatible EventEmitter, MessagePort, MessageChannel,
// BroadcastChannel, worker_threads' Worker, the web Worker, and the pieces
// of `process`. It is compiled once per process and run once per realm, on
// first use (jsRealm.api). N holds the Go natives of the realm (jsworker_realm.go);
// the returned object is what Go calls back into.
//
// Events: every target keeps one ordered listener list per type. Emitter
// listeners (on, once, prependListener) receive the emitted arguments, as in
// Node; event listeners (addEventListener, the on<type> properties) receive
// an event object with data, as in the DOM. A listener that throws stops the
// dispatch and the exception is reported by the realm's loop, as Node does.
var preludeSrc = goja.MustCompile("jsworker:worker_threads", `(function (N) {
'use strict';
const kListeners = Symbol('kListeners');
const kHandlers = Symbol('kHandlers');
const kChanged = Symbol('kChanged');
const kCreate = Symbol('kCreate');
// kFast holds a target's only 'message' listener when it is a plain one (not
// once, not an event handler): Go calls it directly (jsRealm.emit).
const kFast = Symbol('kFast');
const kThreadId = Symbol('kThreadId');
const kLimits = Symbol('kLimits');
const kEvent = Symbol('kEvent');
const defineProperty = Object.defineProperty;
const queueMicrotask_ = queueMicrotask;

function listenersOf(t) {
	let m = t[kListeners];
	if (m === undefined) {
		m = new Map();
		defineProperty(t, kListeners, { value: m });
	}
	return m;
}

function checkListener(fn) {
	if (typeof fn !== 'function') {
		throw new TypeError('The "listener" argument must be of type function. Received ' +
			(fn === null ? 'null' : typeof fn));
	}
}

function changed(t, type) {
	if (type === 'message') {
		const list = listenersOf(t).get('message');
		const l = list !== undefined && list.length === 1 ? list[0] : undefined;
		defineProperty(t, kFast, { value: l !== undefined && !l.once && !l.event ? l.fn : undefined, writable: true, configurable: true });
	}
	const f = t[kChanged];
	if (typeof f === 'function') f.call(t, type);
}

function addEntry(t, type, entry, prepend) {
	const m = listenersOf(t);
	let list = m.get(type);
	if (list === undefined) {
		list = [];
		m.set(type, list);
	}
	if (prepend) list.unshift(entry); else list.push(entry);
	changed(t, type);
}

function removeEntry(t, type, entry) {
	const list = listenersOf(t).get(type);
	if (list === undefined) return;
	const i = list.indexOf(entry);
	if (i < 0) return;
	list.splice(i, 1);
	if (list.length === 0) listenersOf(t).delete(type);
	changed(t, type);
}

function makeEvent(type, data, target) {
	if (data !== null && typeof data === 'object' && data[kEvent] === true) return data;
	return {
		type: type, data: data, target: target, currentTarget: target, srcElement: target,
		origin: '', lastEventId: '', source: null, ports: [],
		bubbles: false, cancelable: false, composed: false, defaultPrevented: false,
		eventPhase: 2, isTrusted: true, timeStamp: 0,
		preventDefault: function () {}, stopPropagation: function () {},
		stopImmediatePropagation: function () {},
	};
}

function emit(t, type, args) {
	const list = listenersOf(t).get(type);
	if (list === undefined || list.length === 0) {
		if (type === 'error' && !(t instanceof WebWorker)) {
			const e = args[0];
			if (e instanceof Error) throw e;
			const err = new Error('Unhandled error. (' + String(e) + ')');
			err.context = e;
			throw err;
		}
		return false;
	}
	if (list.length === 1) { // the common case, without copying the list
		callListener(t, type, list[0], args, undefined);
		return true;
	}
	let ev;
	const copy = list.slice();
	for (let i = 0; i < copy.length; i++) {
		ev = callListener(t, type, copy[i], args, ev);
	}
	return true;
}

// callListener calls one listener entry; ev is the event object made for
// the entries that take one (made once per emit), returned for the next.
function callListener(t, type, l, args, ev) {
	if (l.once) removeEntry(t, type, l);
	if (l.event) {
		if (ev === undefined) ev = makeEvent(type, args[0], t);
		if (typeof l.fn === 'function') l.fn.call(t, ev);
		else l.fn.handleEvent(ev);
	} else if (args.length === 1) {
		l.fn.call(t, args[0]);
	} else {
		l.fn.apply(t, args);
	}
	return ev;
}

class EventEmitter {
	on(type, fn) { checkListener(fn); addEntry(this, type, { fn: fn }, false); return this; }
	addListener(type, fn) { return this.on(type, fn); }
	prependListener(type, fn) { checkListener(fn); addEntry(this, type, { fn: fn }, true); return this; }
	once(type, fn) { checkListener(fn); addEntry(this, type, { fn: fn, once: true }, false); return this; }
	prependOnceListener(type, fn) { checkListener(fn); addEntry(this, type, { fn: fn, once: true }, true); return this; }
	off(type, fn) { return this.removeListener(type, fn); }
	removeListener(type, fn) {
		const list = listenersOf(this).get(type);
		if (list !== undefined) {
			for (let i = list.length - 1; i >= 0; i--) {
				if (list[i].fn === fn && !list[i].event) { removeEntry(this, type, list[i]); break; }
			}
		}
		return this;
	}
	removeAllListeners(type) {
		const m = listenersOf(this);
		const types = type === undefined ? Array.from(m.keys()) : [type];
		for (const t of types) {
			m.delete(t);
			changed(this, t);
		}
		return this;
	}
	emit(type, ...args) { return emit(this, type, args); }
	listenerCount(type) { const l = listenersOf(this).get(type); return l === undefined ? 0 : l.length; }
	listeners(type) { const l = listenersOf(this).get(type); return l === undefined ? [] : l.map(function (e) { return e.fn; }); }
	rawListeners(type) { return this.listeners(type); }
	eventNames() { return Array.from(listenersOf(this).keys()); }
	setMaxListeners() { return this; }
	getMaxListeners() { return 10; }
}

// The DOM side: addEventListener, removeEventListener, dispatchEvent, and
// on<type> handler properties.
const eventTarget = {
	addEventListener(type, fn, options) {
		if (fn === null || fn === undefined) return;
		if (typeof fn !== 'function' && typeof fn !== 'object') {
			throw new TypeError('addEventListener: the listener must be a function or an object with handleEvent');
		}
		type = String(type);
		const list = listenersOf(this).get(type);
		if (list !== undefined && list.some(function (e) { return e.event && !e.handler && e.fn === fn; })) return;
		const once = options !== null && typeof options === 'object' && !!options.once;
		addEntry(this, type, { fn: fn, once: once, event: true }, false);
	},
	removeEventListener(type, fn) {
		type = String(type);
		const list = listenersOf(this).get(type);
		if (list === undefined) return;
		for (const e of list) {
			if (e.event && !e.handler && e.fn === fn) { removeEntry(this, type, e); return; }
		}
	},
	dispatchEvent(ev) {
		if (ev === null || typeof ev !== 'object') throw new TypeError('dispatchEvent: the event must be an object');
		const list = listenersOf(this).get(String(ev.type));
		if (list === undefined) return true;
		for (const l of list.slice()) {
			if (!l.event) continue;
			if (l.once) removeEntry(this, String(ev.type), l);
			if (typeof l.fn === 'function') l.fn.call(this, ev); else l.fn.handleEvent(ev);
		}
		return true;
	},
};

function mixin(cls, methods) {
	for (const k of Object.keys(methods)) {
		defineProperty(cls.prototype, k, { value: methods[k], writable: true, configurable: true });
	}
}

function handlerProps(cls, types, onSet) {
	for (const type of types) {
		defineProperty(cls.prototype, 'on' + type, {
			configurable: true, enumerable: true,
			get() { const h = this[kHandlers]; return (h && h[type] && h[type].fn) || null; },
			set(fn) {
				let h = this[kHandlers];
				if (h === undefined) { h = {}; defineProperty(this, kHandlers, { value: h }); }
				if (h[type] !== undefined) { removeEntry(this, type, h[type]); h[type] = undefined; }
				if (typeof fn === 'function') {
					h[type] = { fn: fn, event: true, handler: true };
					addEntry(this, type, h[type], false);
					if (onSet !== undefined) onSet.call(this, type);
				}
			},
		});
	}
}

function transferArg(t) {
	if (t === undefined || t === null) return undefined;
	if (Array.isArray(t)) return t;
	if (typeof t === 'object') {
		if (t.transfer === undefined || t.transfer === null) return undefined;
		if (typeof t.transfer[Symbol.iterator] === 'function') return Array.from(t.transfer);
		throw new TypeError('postMessage: options.transfer must be an array');
	}
	if (typeof t[Symbol.iterator] === 'function') return Array.from(t);
	throw new TypeError('postMessage: the transfer list must be an array or an options object');
}

class MessagePort extends EventEmitter {
	constructor(key) {
		super();
		if (key !== kCreate) throw new TypeError('Illegal constructor');
	}
	postMessage(value, transfer) { N.portPost(this, value, transferArg(transfer)); }
	start() { N.portStart(this); }
	close() { N.portClose(this); }
	ref() { N.portRef(this, true); return this; }
	unref() { N.portRef(this, false); return this; }
	hasRef() { return N.portHasRef(this); }
	[kChanged](type) { if (type === 'message') N.portListen(this, this.listenerCount('message') > 0); }
}
mixin(MessagePort, eventTarget);
handlerProps(MessagePort, ['message', 'messageerror', 'close']);
defineProperty(MessagePort.prototype, Symbol.toStringTag, { value: 'MessagePort', configurable: true });

class MessageChannel {
	constructor() {
		const p1 = new MessagePort(kCreate), p2 = new MessagePort(kCreate);
		N.channel(p1, p2);
		defineProperty(this, 'port1', { value: p1, enumerable: true });
		defineProperty(this, 'port2', { value: p2, enumerable: true });
	}
}

class BroadcastChannel extends EventEmitter {
	constructor(name) {
		super();
		if (arguments.length === 0) throw new TypeError('The "name" argument must be specified');
		defineProperty(this, 'name', { value: String(name), enumerable: true });
		N.bcOpen(this, String(name));
	}
	postMessage(message) {
		if (arguments.length === 0) throw new TypeError('The "message" argument must be specified');
		N.bcPost(this, message);
	}
	close() { N.bcClose(this); }
	ref() { N.bcRef(this, true); return this; }
	unref() { N.bcRef(this, false); return this; }
	[kChanged](type) { if (type === 'message') N.bcListen(this, this.listenerCount('message') > 0); }
}
mixin(BroadcastChannel, eventTarget);
handlerProps(BroadcastChannel, ['message', 'messageerror']);
defineProperty(BroadcastChannel.prototype, Symbol.toStringTag, { value: 'BroadcastChannel', configurable: true });

const SHARE_ENV = Symbol.for('nodejs.worker_threads.SHARE_ENV');

class Worker extends EventEmitter {
	constructor(filename, options) {
		super();
		if (options === undefined) options = {};
		if (options === null || typeof options !== 'object') {
			throw new TypeError('The "options" argument must be of type object.');
		}
		if (options.env === SHARE_ENV) {
			throw new Error('jsworker: SHARE_ENV is not supported: every worker has its own copy of process.env');
		}
		if (options.env !== undefined && options.env !== null && typeof options.env !== 'object') {
			throw new TypeError('The "options.env" property must be of type object.');
		}
		if (options.argv !== undefined && !Array.isArray(options.argv)) {
			throw new TypeError('The "options.argv" property must be an array.');
		}
		const rl = options.resourceLimits;
		const spec = {
			eval: !!options.eval,
			name: options.name === undefined ? '' : String(options.name),
			argv: options.argv === undefined ? [] : options.argv.map(String),
			env: options.env === undefined || options.env === null ? undefined : options.env,
			hasWorkerData: options.workerData !== undefined,
			workerData: options.workerData,
			transferList: options.transferList === undefined ? undefined : Array.from(options.transferList),
			stackSizeMb: rl !== undefined && rl !== null && typeof rl.stackSizeMb === 'number' ? rl.stackSizeMb : 0,
			type: options.type === undefined ? '' : String(options.type),
			envData: environmentData,
		};
		if (spec.eval && typeof filename !== 'string') {
			throw new TypeError('The "filename" argument must be a string when options.eval is true.');
		}
		defineProperty(this, kLimits, { value: rl !== undefined && rl !== null ? Object.assign({}, rl) : {} });
		defineProperty(this, kThreadId, { value: N.spawnNode(this, filename, spec), writable: true });
	}
	get threadId() { return this[kThreadId]; }
	get resourceLimits() { return this[kLimits]; }
	get stdin() { return null; }
	get stdout() { return null; }
	get stderr() { return null; }
	postMessage(value, transfer) { N.workerPost(this, value, transferArg(transfer)); }
	terminate(callback) {
		const p = N.workerTerminate(this);
		if (typeof callback === 'function') p.then(function (code) { callback(null, code); });
		return p;
	}
	ref() { N.workerRef(this, true); }
	unref() { N.workerRef(this, false); }
	getHeapSnapshot() { return Promise.reject(new Error('jsworker: getHeapSnapshot is not supported')); }
}

class WebWorker {
	constructor(url, options) {
		if (options === undefined || options === null) options = {};
		const type = options.type === undefined ? 'classic' : String(options.type);
		if (type !== 'classic' && type !== 'module') {
			throw new TypeError("Worker: options.type must be 'classic' or 'module'");
		}
		N.spawnWeb(this, String(url), { type: type, name: options.name === undefined ? '' : String(options.name) });
	}
	postMessage(value, transfer) { N.workerPost(this, value, transferArg(transfer)); }
	terminate() { N.workerTerminate(this); }
}
mixin(WebWorker, eventTarget);
handlerProps(WebWorker, ['message', 'messageerror', 'error']);
defineProperty(WebWorker, 'name', { value: 'Worker' });
defineProperty(WebWorker.prototype, Symbol.toStringTag, { value: 'Worker', configurable: true });

function errorEvent(message, filename, lineno, colno, error) {
	const ev = makeEvent('error', null, null);
	ev[kEvent] = true;
	ev.message = message; ev.filename = filename; ev.lineno = lineno; ev.colno = colno; ev.error = error;
	ev.cancelable = true;
	ev.preventDefault = function () { ev.defaultPrevented = true; };
	return ev;
}

function receiveMessageOnPort(port) {
	if (!(port instanceof MessagePort)) {
		throw new TypeError('The "port" argument must be a MessagePort instance');
	}
	const r = N.portReceive(port);
	return r === undefined ? undefined : { message: r[0] };
}

const environmentData = new Map();

function makeProcess(info) {
	const p = new EventEmitter();
	p.title = 'jsworker';
	p.version = info.version;
	p.versions = info.versions;
	p.platform = info.platform;
	p.arch = info.arch;
	p.pid = info.pid;
	p.ppid = info.ppid;
	p.argv = info.argv;
	p.argv0 = info.argv.length > 0 ? info.argv[0] : 'jsworker';
	p.execArgv = [];
	p.execPath = info.execPath;
	p.env = info.env;
	p.release = { name: 'node' };
	p.config = { variables: {} };
	p.features = {};
	p.exit = function exit(code) { N.exit(code); };
	defineProperty(p, 'exitCode', { get: N.getExitCode, set: N.setExitCode, enumerable: true, configurable: true });
	const memoryUsage = function memoryUsage() { return N.memoryUsage(); };
	memoryUsage.rss = function rss() { return N.rss(); };
	p.memoryUsage = memoryUsage;
	const hrtime = function hrtime(prev) {
		const ns = N.hrtime();
		let s = Math.floor(ns / 1e9), n = ns - s * 1e9;
		if (prev !== undefined) {
			if (!Array.isArray(prev) || prev.length !== 2) throw new TypeError('The "time" argument must be an array of 2 numbers');
			s -= prev[0]; n -= prev[1];
			if (n < 0) { s--; n += 1e9; }
		}
		return [s, n];
	};
	hrtime.bigint = function bigint() { return BigInt(N.hrtime()); };
	p.hrtime = hrtime;
	p.nextTick = function nextTick(fn, ...args) {
		if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function.');
		queueMicrotask_(function () { fn.apply(undefined, args); });
	};
	p.cwd = function cwd() { return N.cwd(); };
	p.uptime = function uptime() { return N.uptime(); };
	p.stdout = { write(s) { N.write(1, String(s)); return true; }, isTTY: false, fd: 1 };
	p.stderr = { write(s) { N.write(2, String(s)); return true; }, isTTY: false, fd: 2 };
	p.emitWarning = function emitWarning(w) {
		N.write(2, '(jsworker) ' + (w instanceof Error ? w.name + ': ' + w.message : 'Warning: ' + String(w)) + '\n');
	};
	p.binding = function binding() { throw new Error('jsworker: process.binding is not supported'); };
	defineProperty(p, Symbol.toStringTag, { value: 'process', configurable: true });
	return p;
}

function makeModule(info) {
	return {
		isMainThread: info.isMainThread,
		parentPort: info.parentPort,
		workerData: info.workerData,
		threadId: info.threadId,
		resourceLimits: info.resourceLimits,
		SHARE_ENV: SHARE_ENV,
		Worker: Worker,
		MessageChannel: MessageChannel,
		MessagePort: MessagePort,
		BroadcastChannel: BroadcastChannel,
		receiveMessageOnPort: receiveMessageOnPort,
		markAsUntransferable: function markAsUntransferable() {},
		isMarkedAsUntransferable: function isMarkedAsUntransferable() { return false; },
		moveMessagePortToContext: function moveMessagePortToContext() {
			throw new Error('jsworker: moveMessagePortToContext is not supported (there is no vm module)');
		},
		setEnvironmentData: function setEnvironmentData(key, value) {
			if (value === undefined) environmentData.delete(key); else environmentData.set(key, value);
		},
		getEnvironmentData: function getEnvironmentData(key) { return environmentData.get(key); },
	};
}

function loadEnvironmentData(m) {
	if (m instanceof Map) m.forEach(function (v, k) { environmentData.set(k, v); });
}

// Node-style timers return objects with ref/unref; their numeric id is
// their primitive value, so clearTimeout takes either.
function nodeTimers(g, setRef) {
	class Timeout {
		constructor(id, repeat) { this._id = id; this._repeat = repeat; this._ref = true; }
		ref() { this._ref = true; setRef(this._id, true); return this; }
		unref() { this._ref = false; setRef(this._id, false); return this; }
		hasRef() { return this._ref; }
		refresh() { return this; }
		close() { clearTimeout_(this._id); return this; }
		[Symbol.toPrimitive]() { return this._id; }
	}
	class Immediate {
		constructor(id) { this._id = id; this._ref = true; }
		ref() { this._ref = true; return this; }
		unref() { this._ref = false; return this; }
		hasRef() { return this._ref; }
		[Symbol.toPrimitive]() { return this._id; }
	}
	const setTimeout_ = g.setTimeout, setInterval_ = g.setInterval, setImmediate_ = g.setImmediate;
	const clearTimeout_ = g.clearTimeout;
	const wrap = function (name, fn) { defineProperty(fn, 'name', { value: name }); return fn; };
	g.setTimeout = wrap('setTimeout', function (fn, ms, ...args) { return new Timeout(setTimeout_(fn, ms, ...args), false); });
	g.setInterval = wrap('setInterval', function (fn, ms, ...args) { return new Timeout(setInterval_(fn, ms, ...args), true); });
	g.setImmediate = wrap('setImmediate', function (fn, ...args) { return new Immediate(setImmediate_(fn, ...args)); });
}

return {
	fastKey: kFast,
	emit: function (t, type, ...args) { return emit(t, type, args); },
	// emit1 is emit with one argument (every message event): one plain
	// listener is called without building an argument list.
	emit1: function (t, type, a) {
		const m = t[kListeners];
		const list = m === undefined ? undefined : m.get(type);
		if (list !== undefined && list.length === 1) {
			const l = list[0];
			if (!l.once && !l.event) {
				l.fn.call(t, a);
				return true;
			}
		}
		return emit(t, type, [a]);
	},
	newPort: function () { return new MessagePort(kCreate); },
	setThreadId: function (w, id) { w[kThreadId] = id; },
	errorEvent: errorEvent,
	makeProcess: makeProcess,
	makeModule: makeModule,
	loadEnvironmentData: loadEnvironmentData,
	nodeTimers: nodeTimers,
	Worker: Worker,
	WebWorker: WebWorker,
	MessageChannel: MessageChannel,
	MessagePort: MessagePort,
	BroadcastChannel: BroadcastChannel,
	EventEmitter: EventEmitter,
	environmentData: environmentData,
};
})`, true)
