// The JavaScript side of the worker APIs every realm has (core/realm.go): a Node-compatible EventEmitter,
// MessagePort, MessageChannel, BroadcastChannel and the web Worker. It runs once per realm, on first use; N holds
// the realm's Go natives; it returns lazy(name), through which Go (and the Node layer's worker_threads) reaches
// everything else.
//
// Only what every Node-style realm needs is made when this runs: the EventEmitter and MessagePort classes (process,
// parentPort) and the few helpers adding a listener and posting use. Everything else is made on first use: the
// prototypes' methods, one at a time (lazy(name), installed by core/realm.go as lazy properties of goja's object
// templates); removing listeners and dispatching events; MessageChannel, BroadcastChannel, the web Worker, the
// worker-post helpers and Go's emit functions (lazy(name)); their Go natives too (N is lazy, N.more(kind)). An idle
// worker would otherwise pay about a kilobyte per function it never calls. Go makes the ports themselves
// (new MessagePort(kCreate)).
//
// Events: every target keeps one ordered listener list per type. Emitter listeners (on, once, prependListener)
// receive the emitted arguments, as in Node; event listeners (addEventListener, the on<type> properties) receive an
// event object with data, as in the DOM. A listener that throws stops the dispatch and the exception is reported by
// the realm's loop, as Node does. As in Node, a type with one listener keeps it alone and a type with more keeps an
// array of them (two or more); a listener entry is the function itself for a plain emitter listener (on,
// prependListener), else an object { fn, once, event, handler } (a once() entry has its own event: false, so that
// no entry's kind is read from Object.prototype): Go calls a target's only plain 'message' listener directly, and
// removes and calls a type's lone once() listener itself (Realm.Emit, emitOnce).
// The private symbols (kListeners … kEvent) and Symbol.toStringTag come from Go (core/realm.go), so that an idle
// realm never makes the global Symbol constructor.
(function (N, kListeners, kHandlers, kChanged, kCreate, kEvent, toStringTag) {
'use strict';
const defineProperty = Object.defineProperty;

// addEntry adds a listener entry (a plain listener's function, or an entry object) first or last. It is the one
// helper made with the classes (adding a listener is what every realm does); the others are made on first use
// (lazy: listenersOf, checkListener, changed, transferArg …). It keeps t's listener lists by event type in an object
// without a prototype, as Node does (event names are property keys: '1' and 1 are one type, and eventNames lists
// them in property order), and tells t's kChanged method, if any, that the type's listeners changed.
function addEntry(t, type, entry, prepend) {
	let m = t[kListeners];
	if (m === undefined) {
		m = { __proto__: null };
		defineProperty(t, kListeners, { value: m });
	}
	const l = m[type];
	if (l === undefined) m[type] = entry;
	else if (Array.isArray(l)) { if (prepend) l.unshift(entry); else l.push(entry); }
	else m[type] = prepend ? [entry, l] : [l, entry];
	const f = t[kChanged];
	if (typeof f === 'function') f.call(t, type);
}

// The prototypes' methods are made on first use, one at a time (core/realm.go installs them on EventEmitter.prototype
// and MessagePort.prototype as lazy properties of goja's object templates): lazy(name) makes the one asked for.
// Method shorthand keeps them what class methods are (named, not constructible, no prototype); the source text of
// each is the same as a class method's. addListener is on and off is removeListener, as in Node; the event-target
// methods are shared by every class that has them (made once, kept in made).
class EventEmitter {}

class MessagePort extends EventEmitter {
	constructor(key) {
		super();
		if (key !== kCreate) throw new TypeError('Illegal constructor');
	}
}
// MessagePort.prototype's kChanged and Symbol.toStringTag ('MessagePort') are defined by Go after this runs
// (core/realm.go, without a descriptor object each): a port's kChanged is Go's N.portChanged(type), with the port as
// this: the first 'message' listener starts delivery, removing the last stops it (a native rather than a method
// calling one: a realm makes one function, not two).

// The parts made on first use (lazy). made holds what has been made.
const made = { __proto__: null };

// lazy makes the prototypes' methods, and makes (once) and returns MessageChannel, BroadcastChannel, WebWorker,
// errorEvent, workerPost, workerRef, receiveMessageOnPort, Go's apiEmit and apiEmit1, and the helpers; the classes
// and functions are written inside it so that none is made before it is asked for (one function, not two: each
// costs a realm about 700 bytes). It also answers what Go keeps of this realm's ports.js: the EventEmitter and
// MessagePort classes.
function lazy(name) {
	// The prototypes' methods (a function) and handler properties ({ get, set }), made each time they are asked for
	// (core/realm.go asks once per prototype and name), but the shared ones (kept in made).
	switch (name) {
	// EventEmitter.prototype
	case 'on': case 'addListener':
		if (made.on === undefined) made.on = { on(type, fn) { if (typeof fn !== 'function') lazy('checkListener')(fn); addEntry(this, type, fn, false); return this; } }.on;
		return made.on;
	case 'prependListener': return { prependListener(type, fn) { if (typeof fn !== 'function') lazy('checkListener')(fn); addEntry(this, type, fn, true); return this; } }.prependListener;
	case 'once': return { once(type, fn) { if (typeof fn !== 'function') lazy('checkListener')(fn); addEntry(this, type, { fn: fn, once: true, event: false }, false); return this; } }.once;
	case 'prependOnceListener': return { prependOnceListener(type, fn) { if (typeof fn !== 'function') lazy('checkListener')(fn); addEntry(this, type, { fn: fn, once: true, event: false }, true); return this; } }.prependOnceListener;
	case 'removeListener': case 'off': {
		const entries = lazy('entries'), removeAt = lazy('removeAt');
		if (made.removeListener === undefined) made.removeListener = {
			removeListener(type, fn) {
				const list = entries(this, type);
				for (let i = list.length - 1; i >= 0; i--) {
					const e = list[i];
					if (typeof e === 'function' ? e === fn : e.fn === fn && !e.event) { removeAt(this, type, i); break; }
				}
				return this;
			},
		}.removeListener;
		return made.removeListener;
	}
	case 'removeAllListeners': {
		const listenersOf = lazy('listenersOf'), changed = lazy('changed');
		return {
			removeAllListeners(type) {
				const m = listenersOf(this);
				const types = type === undefined ? Reflect.ownKeys(m) : [type];
				for (const t of types) {
					delete m[t];
					changed(this, t);
				}
				return this;
			},
		}.removeAllListeners;
	}
	case 'emit': {
		const emit = lazy('emitOn');
		return { emit(type, ...args) { return emit(this, type, args); } }.emit;
	}
	case 'listenerCount': {
		const listenersOf = lazy('listenersOf');
		return { listenerCount(type) { const l = listenersOf(this)[type]; return l === undefined ? 0 : Array.isArray(l) ? l.length : 1; } }.listenerCount;
	}
	case 'listeners': {
		const entries = lazy('entries');
		return { listeners(type) { return entries(this, type).map(function (e) { return typeof e === 'function' ? e : e.fn; }); } }.listeners;
	}
	case 'rawListeners': return { rawListeners(type) { return this.listeners(type); } }.rawListeners;
	case 'eventNames': {
		const listenersOf = lazy('listenersOf');
		return { eventNames() { return Reflect.ownKeys(listenersOf(this)); } }.eventNames;
	}
	case 'setMaxListeners': return { setMaxListeners() { return this; } }.setMaxListeners;
	case 'getMaxListeners': return { getMaxListeners() { return 10; } }.getMaxListeners;
	// MessagePort.prototype
	case 'postMessage': {
		const transferArg = lazy('transferArg');
		return { postMessage(value, transfer) { N.portPost(this, value, transferArg(transfer)); } }.postMessage;
	}
	case 'start': return { start() { N.portStart(this); } }.start;
	case 'close': return { close() { N.portClose(this); } }.close;
	case 'ref': return { ref() { N.portRef(this, true); return this; } }.ref;
	case 'unref': return { unref() { N.portRef(this, false); return this; } }.unref;
	case 'hasRef': return { hasRef() { return N.portHasRef(this); } }.hasRef;
	// The DOM side: addEventListener, removeEventListener, dispatchEvent (shared), and on<type> handler properties.
	case 'addEventListener': {
		const entries = lazy('entries');
		if (made.addEventListener === undefined) made.addEventListener = {
			addEventListener(type, fn, options) {
				if (fn === null || fn === undefined) return;
				if (typeof fn !== 'function' && typeof fn !== 'object') {
					throw new TypeError('addEventListener: the listener must be a function or an object with handleEvent');
				}
				type = String(type);
				if (entries(this, type).some(function (e) { return typeof e !== 'function' && e.event && !e.handler && e.fn === fn; })) return;
				const once = options !== null && typeof options === 'object' && !!options.once;
				addEntry(this, type, { fn: fn, once: once, event: true }, false);
			},
		}.addEventListener;
		return made.addEventListener;
	}
	case 'removeEventListener': {
		const entries = lazy('entries'), removeEntry = lazy('removeEntry');
		if (made.removeEventListener === undefined) made.removeEventListener = {
			removeEventListener(type, fn) {
				type = String(type);
				for (const e of entries(this, type)) {
					if (typeof e !== 'function' && e.event && !e.handler && e.fn === fn) { removeEntry(this, type, e); return; }
				}
			},
		}.removeEventListener;
		return made.removeEventListener;
	}
	case 'dispatchEvent': {
		const entries = lazy('entries'), removeEntry = lazy('removeEntry');
		if (made.dispatchEvent === undefined) made.dispatchEvent = {
			dispatchEvent(ev) {
				if (ev === null || typeof ev !== 'object') throw new TypeError('dispatchEvent: the event must be an object');
				for (const l of entries(this, String(ev.type)).slice()) {
					if (typeof l === 'function' || !l.event) continue;
					if (l.once) removeEntry(this, String(ev.type), l);
					if (typeof l.fn === 'function') l.fn.call(this, ev); else l.fn.handleEvent(ev);
				}
				return true;
			},
		}.dispatchEvent;
		return made.dispatchEvent;
	}
	case 'onmessage': case 'onmessageerror': case 'onclose': case 'onerror': {
		const type = name.slice(2), removeEntry = lazy('removeEntry');
		return {
			get() { const h = this[kHandlers]; return (h && h[type] && h[type].fn) || null; },
			set(fn) {
				let h = this[kHandlers];
				if (h === undefined) { h = {}; defineProperty(this, kHandlers, { value: h }); }
				if (h[type] !== undefined) { removeEntry(this, type, h[type]); h[type] = undefined; }
				if (typeof fn === 'function') {
					h[type] = { fn: fn, event: true, handler: true };
					addEntry(this, type, h[type], false);
				}
			},
		};
	}
	// What Go keeps of this realm's ports.js.
	case 'EventEmitter': return EventEmitter;
	case 'MessagePort': return MessagePort;
	}
	const v = made[name];
	if (v !== undefined) return v;
	switch (name) {
	// eventTargetOf gives a lazily made class the event-target methods and on<type> handler properties.
	case 'eventTargetOf': return (made.eventTargetOf = function eventTargetOf(cls, types) {
		const p = cls.prototype;
		for (const k of ['addEventListener', 'removeEventListener', 'dispatchEvent']) {
			defineProperty(p, k, { value: lazy(k), writable: true, configurable: true });
		}
		for (const type of types) {
			const d = lazy('on' + type);
			d.configurable = true;
			d.enumerable = true;
			defineProperty(p, 'on' + type, d);
		}
	});
	// workerN are the natives of the web Worker and of worker_threads' Worker (workerPost, workerRef).
	case 'workerN': return (made.workerN = N.more('worker'));
	// removeEntry, makeEvent and emit remove listeners and dispatch events: a realm that only adds a listener for the
	// messages Go delivers directly (Realm.Emit) never needs them.
	// listenersOf returns t's listener lists by event type (see addEntry), making them if need be.
	case 'listenersOf': return (made.listenersOf = function listenersOf(t) {
		let m = t[kListeners];
		if (m === undefined) {
			m = { __proto__: null };
			defineProperty(t, kListeners, { value: m });
		}
		return m;
	});
	// checkListener throws Node's TypeError for an emitter listener that is not a function.
	case 'checkListener': return (made.checkListener = function checkListener(fn) {
		if (typeof fn !== 'function') {
			throw new TypeError('The "listener" argument must be of type function. Received ' +
				(fn === null ? 'null' : typeof fn));
		}
	});
	// changed tells t's kChanged method, if any, that its listeners of type changed.
	case 'changed': return (made.changed = function changed(t, type) {
		const f = t[kChanged];
		if (typeof f === 'function') f.call(t, type);
	});
	// transferArg normalizes postMessage's transfer argument (an array, an iterable or { transfer }).
	case 'transferArg': {
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
		return (made.transferArg = transferArg);
	}
	case 'entries': case 'removeAt': case 'removeEntry': case 'makeEvent': case 'emitOn': {
		const listenersOf = lazy('listenersOf'), changed = lazy('changed');
		// entries returns t's listener entries of type as an array (the list itself when there are several: copy it
		// to change the list while going through it).
		function entries(t, type) {
			const l = listenersOf(t)[type];
			return l === undefined ? [] : Array.isArray(l) ? l : [l];
		}

		// removeAt removes the i-th listener entry of type (a type left with one keeps it alone).
		function removeAt(t, type, i) {
			const m = listenersOf(t);
			const l = m[type];
			if (!Array.isArray(l)) delete m[type];
			else if (l.length === 2) m[type] = l[1 - i];
			else l.splice(i, 1);
			changed(t, type);
		}

		// removeEntry removes the entry object entry (once, event and handler entries are each their own object).
		function removeEntry(t, type, entry) {
			const i = entries(t, type).indexOf(entry);
			if (i >= 0) removeAt(t, type, i);
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
			const list = listenersOf(t)[type];
			if (list === undefined) {
				if (type === 'error' && !(made.WebWorker !== undefined && t instanceof made.WebWorker)) {
					const e = args[0];
					if (e instanceof Error) throw e;
					const err = new Error('Unhandled error. (' + String(e) + ')');
					err.context = e;
					throw err;
				}
				return false;
			}
			if (!Array.isArray(list)) { // the common case: one listener
				callListener(t, type, list, args, undefined);
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
			if (typeof l === 'function') { // a plain emitter listener
				if (args.length === 1) l.call(t, args[0]); else l.apply(t, args);
				return ev;
			}
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
		made.entries = entries;
		made.removeAt = removeAt;
		made.removeEntry = removeEntry;
		made.makeEvent = makeEvent;
		made.emitOn = emit;
		return made[name];
	}
	// apiEmit and apiEmit1 are Go's emit (Realm.Emit): emit1 is emit with one argument (every message event), and
	// calls one plain listener without building an argument list.
	case 'apiEmit': {
		const emit = lazy('emitOn');
		return (made.apiEmit = function (t, type, ...args) { return emit(t, type, args); });
	}
	case 'apiEmit1': {
		const emit = lazy('emitOn');
		return (made.apiEmit1 = function (t, type, a) {
			const m = t[kListeners];
			const l = m === undefined ? undefined : m[type];
			if (typeof l === 'function') {
				l.call(t, a);
				return true;
			}
			return emit(t, type, [a]);
		});
	}
	case 'MessageChannel': {
		class MessageChannel {
			constructor() {
				const p1 = new MessagePort(kCreate), p2 = new MessagePort(kCreate);
				N.channel(p1, p2);
				defineProperty(this, 'port1', { value: p1, enumerable: true });
				defineProperty(this, 'port2', { value: p2, enumerable: true });
			}
		}
		return (made.MessageChannel = MessageChannel);
	}
	case 'BroadcastChannel': {
		const B = N.more('broadcast');
		class BroadcastChannel extends EventEmitter {
			constructor(name) {
				super();
				if (arguments.length === 0) throw new TypeError('The "name" argument must be specified');
				defineProperty(this, 'name', { value: String(name), enumerable: true });
				B.bcOpen(this, String(name));
			}
			postMessage(message) {
				if (arguments.length === 0) throw new TypeError('The "message" argument must be specified');
				B.bcPost(this, message);
			}
			close() { B.bcClose(this); }
			ref() { B.bcRef(this, true); return this; }
			unref() { B.bcRef(this, false); return this; }
			[kChanged](type) { if (type === 'message') B.bcListen(this, this.listenerCount('message') > 0); }
		}
		lazy('eventTargetOf')(BroadcastChannel, ['message', 'messageerror']);
		defineProperty(BroadcastChannel.prototype, toStringTag, { value: 'BroadcastChannel', configurable: true });
		return (made.BroadcastChannel = BroadcastChannel);
	}
	case 'WebWorker': {
		const W = lazy('workerN'), transferArg = lazy('transferArg');
		class WebWorker {
			constructor(url, options) {
				if (options === undefined || options === null) options = {};
				const type = options.type === undefined ? 'classic' : String(options.type);
				if (type !== 'classic' && type !== 'module') {
					throw new TypeError("Worker: options.type must be 'classic' or 'module'");
				}
				W.spawnWeb(this, String(url), { type: type, name: options.name === undefined ? '' : String(options.name) });
			}
			postMessage(value, transfer) { W.workerPost(this, value, transferArg(transfer)); }
			terminate() { W.workerTerminate(this); }
		}
		lazy('eventTargetOf')(WebWorker, ['message', 'messageerror', 'error']);
		defineProperty(WebWorker, 'name', { value: 'Worker' });
		defineProperty(WebWorker.prototype, toStringTag, { value: 'Worker', configurable: true });
		return (made.WebWorker = WebWorker);
	}
	// errorEvent(message, filename, lineno, colno, error) makes the ErrorEvent a web Worker's uncaught error becomes
	// in its parent.
	case 'errorEvent': {
		const makeEvent = lazy('makeEvent');
		return (made.errorEvent = function errorEvent(message, filename, lineno, colno, error) {
		const ev = makeEvent('error', null, null);
		ev[kEvent] = true;
		ev.message = message; ev.filename = filename; ev.lineno = lineno; ev.colno = colno; ev.error = error;
		ev.cancelable = true;
		ev.preventDefault = function () { ev.defaultPrevented = true; };
		return ev;
	});
	}
	case 'workerPost': {
		const W = lazy('workerN'), transferArg = lazy('transferArg');
		return (made.workerPost = function (w, value, transfer) { W.workerPost(w, value, transferArg(transfer)); });
	}
	case 'workerRef': {
		const W = lazy('workerN');
		return (made.workerRef = function (w, on) { W.workerRef(w, on); });
	}
	case 'receiveMessageOnPort': return (made.receiveMessageOnPort = function receiveMessageOnPort(port) {
		if (!(port instanceof MessagePort)) {
			throw new TypeError('The "port" argument must be a MessagePort instance');
		}
		const r = N.portReceive(port);
		return r === undefined ? undefined : { message: r[0] };
	});
	}
	throw new Error('jsworker: ports.js makes no ' + name);
}

return lazy;
})
