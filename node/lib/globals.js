// internal/globals (node/globals.go): the web globals a Node-style realm has besides core's: EventTarget, Event,
// CustomEvent, AbortController, AbortSignal, DOMException, atob and btoa.
(function (N, require, core) {
'use strict';
const kListeners = Symbol('kListeners');
const kStop = Symbol('kStop');
const kStopImmediate = Symbol('kStopImmediate');
const kTarget = Symbol('kTarget');
const kInternal = Symbol('kInternal');

const codes = { IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
	NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12,
	InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17,
	SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22,
	TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25 };

class DOMException extends Error {
	constructor(message, options) {
		super(message === undefined ? '' : String(message));
		let name = 'Error';
		if (options !== null && typeof options === 'object') {
			if (options.name !== undefined) name = String(options.name);
			if ('cause' in options) Object.defineProperty(this, 'cause', { value: options.cause, writable: true, configurable: true });
		} else if (options !== undefined) {
			name = String(options);
		}
		Object.defineProperty(this, kInternal, { value: name });
	}
	get name() { return this[kInternal]; }
	get code() { return codes[this[kInternal]] || 0; }
}
Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
for (const [name, code] of Object.entries(codes)) {
	const c = name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase().replace(/_ERROR$/, '_ERR');
	Object.defineProperty(DOMException, c, { value: code, enumerable: true });
	Object.defineProperty(DOMException.prototype, c, { value: code, enumerable: true });
}

// DOMException structured-clones (HTML's serializable objects): name, message and stack.
const hasOwn = Object.prototype.hasOwnProperty;
const ownDesc = Object.getOwnPropertyDescriptor;
function ownString(o, k) {
	const d = ownDesc(o, k);
	return d !== undefined && 'value' in d && typeof d.value === 'string' ? d.value : undefined;
}
N.registerDOMException(DOMException.prototype,
	(o) => hasOwn.call(o, kInternal) ? [o[kInternal], ownString(o, 'message') || '', ownString(o, 'stack')] : undefined,
	(name, message, stack) => {
		const e = new DOMException(message, name);
		if (stack !== undefined) Object.defineProperty(e, 'stack', { value: stack, writable: true, configurable: true });
		return e;
	});

class Event {
	constructor(type, options) {
		if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
		const o = options === undefined || options === null ? {} : options;
		Object.defineProperty(this, kInternal, { value: {
			type: String(type), bubbles: !!o.bubbles, cancelable: !!o.cancelable, composed: !!o.composed,
			defaultPrevented: false, timeStamp: typeof globalThis.performance === 'object' ? globalThis.performance.now() : Date.now(),
			target: null, currentTarget: null, phase: 0, stop: false, stopImmediate: false,
		} });
	}
	get type() { return this[kInternal].type; }
	get bubbles() { return this[kInternal].bubbles; }
	get cancelable() { return this[kInternal].cancelable; }
	get composed() { return this[kInternal].composed; }
	get defaultPrevented() { return this[kInternal].cancelable && this[kInternal].defaultPrevented; }
	get timeStamp() { return this[kInternal].timeStamp; }
	get target() { return this[kInternal].target; }
	get currentTarget() { return this[kInternal].currentTarget; }
	get srcElement() { return this[kInternal].target; }
	get eventPhase() { return this[kInternal].phase; }
	get isTrusted() { return false; }
	get returnValue() { return !this.defaultPrevented; }
	get cancelBubble() { return this[kInternal].stop; }
	set cancelBubble(v) { if (v) this[kInternal].stop = true; }
	composedPath() { return this[kInternal].phase === 0 ? [] : [this[kInternal].currentTarget]; }
	preventDefault() { this[kInternal].defaultPrevented = true; }
	stopPropagation() { this[kInternal].stop = true; }
	stopImmediatePropagation() { this[kInternal].stop = true; this[kInternal].stopImmediate = true; }
}
Event.NONE = 0; Event.CAPTURING_PHASE = 1; Event.AT_TARGET = 2; Event.BUBBLING_PHASE = 3;
Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true });

class CustomEvent extends Event {
	constructor(type, options) {
		super(type, options);
		Object.defineProperty(this, kTarget, { value: options !== undefined && options !== null ? options.detail : null });
	}
	get detail() { return this[kTarget] === undefined ? null : this[kTarget]; }
}
Object.defineProperty(CustomEvent.prototype, Symbol.toStringTag, { value: 'CustomEvent', configurable: true });

function listeners(t) {
	let m = t[kListeners];
	if (m === undefined) { m = new Map(); Object.defineProperty(t, kListeners, { value: m }); }
	return m;
}

class EventTarget {
	addEventListener(type, fn, options) {
		if (arguments.length < 2) throw new TypeError('The "type" and "listener" arguments must be specified');
		if (fn === null || fn === undefined) return;
		if (typeof fn !== 'function' && (typeof fn !== 'object' || fn === null)) {
			throw new TypeError('The "listener" argument must be an instance of EventListener.');
		}
		const o = typeof options === 'boolean' ? { capture: options } : (options || {});
		type = String(type);
		const m = listeners(this);
		let list = m.get(type);
		if (list === undefined) { list = []; m.set(type, list); }
		const capture = !!o.capture;
		if (list.some(function (l) { return l.fn === fn && l.capture === capture; })) return;
		const entry = { fn: fn, once: !!o.once, capture: capture, passive: !!o.passive, removed: false };
		const signal = o.signal;
		if (signal !== undefined) {
			if (signal.aborted) return;
			const self = this;
			signal.addEventListener('abort', function () { self.removeEventListener(type, fn, { capture: capture }); }, { once: true });
		}
		list.push(entry);
	}
	removeEventListener(type, fn, options) {
		const capture = typeof options === 'boolean' ? options : !!(options && options.capture);
		const list = listeners(this).get(String(type));
		if (list === undefined) return;
		const i = list.findIndex(function (l) { return l.fn === fn && l.capture === capture; });
		if (i >= 0) { list[i].removed = true; list.splice(i, 1); }
	}
	dispatchEvent(ev) {
		if (!(ev instanceof Event)) throw new TypeError('The "event" argument must be an instance of Event. Received ' + typeof ev);
		const st = ev[kInternal];
		if (st.phase !== 0) {
			throw new DOMException('The event is already being dispatched.', 'InvalidStateError');
		}
		st.target = this; st.currentTarget = this; st.phase = 2;
		const list = listeners(this).get(st.type);
		if (list !== undefined) {
			for (const l of list.slice()) {
				if (l.removed) continue;
				if (l.once) this.removeEventListener(st.type, l.fn, { capture: l.capture });
				try {
					const r = typeof l.fn === 'function' ? l.fn.call(this, ev) : l.fn.handleEvent(ev);
					if (r !== undefined && r !== null && typeof r.then === 'function') {
						r.then(undefined, function (e) { globalThis.queueMicrotask(function () { throw e; }); });
					}
				} catch (e) {
					globalThis.queueMicrotask(function () { throw e; });
				}
				if (st.stopImmediate) break;
			}
		}
		st.currentTarget = null; st.phase = 0;
		return !ev.defaultPrevented;
	}
}

// targetListeners returns the listeners an EventTarget has for type (events.getEventListeners).
function targetListeners(t, type) {
	const m = t[kListeners];
	const list = m === undefined ? undefined : m.get(String(type));
	return list === undefined ? [] : list.map(function (l) { return l.fn; });
}
Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: 'EventTarget', configurable: true });

function handlerProp(cls, type) {
	const k = Symbol('on' + type);
	Object.defineProperty(cls.prototype, 'on' + type, {
		configurable: true, enumerable: true,
		get() { return this[k] === undefined ? null : this[k].fn; },
		set(fn) {
			if (this[k] !== undefined) this.removeEventListener(type, this[k].wrap);
			if (typeof fn === 'function') {
				const self = this;
				const h = { fn: fn, wrap: function (ev) { return h.fn.call(self, ev); } };
				Object.defineProperty(this, k, { value: h, writable: true, configurable: true });
				this.addEventListener(type, h.wrap);
			} else {
				Object.defineProperty(this, k, { value: undefined, writable: true, configurable: true });
			}
		},
	});
}

const kSignal = Symbol('kSignal');
class AbortSignal extends EventTarget {
	constructor(key) {
		if (key !== kSignal) throw new TypeError('Illegal constructor');
		super();
		Object.defineProperty(this, kInternal, { value: { aborted: false, reason: undefined } });
	}
	get aborted() { return this[kInternal].aborted; }
	get reason() { return this[kInternal].reason; }
	throwIfAborted() { if (this[kInternal].aborted) throw this[kInternal].reason; }
	static abort(reason) {
		const s = new AbortSignal(kSignal);
		abortSignal(s, reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason, false);
		return s;
	}
	static timeout(ms) {
		if (typeof ms !== 'number' || ms < 0 || !Number.isFinite(ms)) {
			const e = new RangeError('The value of "delay" is out of range. It must be >= 0 && <= 4294967295. Received ' + String(ms));
			e.code = 'ERR_OUT_OF_RANGE';
			throw e;
		}
		const s = new AbortSignal(kSignal);
		const t = globalThis.setTimeout(function () {
			abortSignal(s, new DOMException('The operation was aborted due to timeout', 'TimeoutError'), true);
		}, ms);
		if (t !== null && typeof t === 'object' && typeof t.unref === 'function') t.unref();
		return s;
	}
	static any(signals) {
		const s = new AbortSignal(kSignal);
		const list = Array.from(signals);
		for (const x of list) {
			if (!(x instanceof AbortSignal)) throw new TypeError('The "signals" argument must be an instance of AbortSignal[].');
			if (x.aborted) { abortSignal(s, x.reason, false); return s; }
		}
		for (const x of list) x.addEventListener('abort', function () { abortSignal(s, x.reason, true); }, { once: true });
		return s;
	}
}
handlerProp(AbortSignal, 'abort');
Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true });

function abortSignal(s, reason, fire) {
	const st = s[kInternal];
	if (st.aborted) return;
	st.aborted = true;
	st.reason = reason;
	if (fire !== false) s.dispatchEvent(new Event('abort'));
}

class AbortController {
	constructor() { Object.defineProperty(this, kInternal, { value: new AbortSignal(kSignal) }); }
	get signal() { return this[kInternal]; }
	abort(reason) {
		abortSignal(this[kInternal], reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason, true);
	}
}
Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: 'AbortController', configurable: true });

const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function btoa(s) {
	if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
	s = String(s);
	let out = '';
	for (let i = 0; i < s.length; i += 3) {
		const a = s.charCodeAt(i), b = s.charCodeAt(i + 1), c = s.charCodeAt(i + 2);
		if (a > 255 || b > 255 || c > 255) throw new DOMException('Invalid character', 'InvalidCharacterError');
		const n = (a << 16) | ((b || 0) << 8) | (c || 0);
		out += b64[n >> 18] + b64[(n >> 12) & 63] + (i + 1 < s.length ? b64[(n >> 6) & 63] : '=') + (i + 2 < s.length ? b64[n & 63] : '=');
	}
	return out;
}
function atob(s) {
	if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
	s = String(s).replace(/[\t\n\f\r ]/g, '');
	if (s.length % 4 === 0) s = s.replace(/==?$/, '');
	if (s.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(s)) throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
	let out = '', bits = 0, n = 0;
	for (let i = 0; i < s.length; i++) {
		n = (n << 6) | b64.indexOf(s[i]);
		bits += 6;
		if (bits >= 8) { bits -= 8; out += String.fromCharCode((n >> bits) & 255); }
	}
	return out;
}

return { DOMException, Event, CustomEvent, EventTarget, AbortSignal, AbortController, atob, btoa, targetListeners };
})
