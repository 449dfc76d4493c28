// util (node/util.go): Node's util module. inspect and format come from internal/inspect.
(function (N, require, core) {
'use strict';
const ins = require('internal/inspect');
const inspect = ins.inspect;
const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');

function argType(name, type, v) {
	const e = new TypeError('The "' + name + '" argument must be of type ' + type + '. Received ' +
		(v === null ? 'null' : v === undefined ? 'undefined' : 'type ' + typeof v + ' (' + inspect(v) + ')'));
	e.code = 'ERR_INVALID_ARG_TYPE';
	return e;
}

function promisify(original) {
	if (typeof original !== 'function') throw argType('original', 'function', original);
	// Node's timers carry promisify.custom: their promise forms
	if (original === globalThis.setTimeout) return require('timers').promises.setTimeout;
	if (original === globalThis.setImmediate) return require('timers').promises.setImmediate;
	if (original[kCustomPromisify]) {
		const fn = original[kCustomPromisify];
		if (typeof fn !== 'function') throw argType('util.promisify.custom', 'function', fn);
		return Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
	}
	function fn(...args) {
		return new Promise((resolve, reject) => {
			Reflect.apply(original, this, args.concat(function (err, ...values) {
				if (err) return reject(err);
				resolve(values[0]);
			}));
		});
	}
	Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
	Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
	return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = kCustomPromisify;

function callbackify(original) {
	if (typeof original !== 'function') throw argType('original', 'function', original);
	function callbackified(...args) {
		const cb = args.pop();
		if (typeof cb !== 'function') throw argType('last argument', 'function', cb);
		const self = this;
		Reflect.apply(original, this, args).then(function (v) { globalThis.process.nextTick(cb, null, v); }, function (err) {
			if (!err) {
				const e = new Error('Promise was rejected with a falsy value');
				e.code = 'ERR_FALSY_VALUE_REJECTION';
				e.reason = err;
				err = e;
			}
			globalThis.process.nextTick(cb, err);
		});
		void self;
	}
	Object.setPrototypeOf(callbackified, Object.getPrototypeOf(original));
	Object.defineProperties(callbackified, Object.getOwnPropertyDescriptors(original));
	return callbackified;
}

function inherits(ctor, superCtor) {
	if (ctor === undefined || ctor === null) throw argType('ctor', 'function', ctor);
	if (superCtor === undefined || superCtor === null) throw argType('superCtor', 'function', superCtor);
	if (superCtor.prototype === undefined) throw argType('superCtor.prototype', 'object', superCtor.prototype);
	Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
	Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const warned = new Set();
function deprecate(fn, msg, code) {
	if (typeof fn !== 'function') throw argType('fn', 'function', fn);
	let done = false;
	function deprecated(...args) {
		if (!done && !(typeof globalThis.process === 'object' && globalThis.process.noDeprecation)) {
			done = true;
			if (code === undefined || !warned.has(code)) {
				if (code !== undefined) warned.add(code);
				globalThis.process.emitWarning(msg, 'DeprecationWarning', code);
			}
		}
		return new.target ? Reflect.construct(fn, args, new.target) : Reflect.apply(fn, this, args);
	}
	Object.setPrototypeOf(deprecated, fn);
	if (fn.prototype) deprecated.prototype = fn.prototype;
	return deprecated;
}

const tag = function (v) { return Object.prototype.toString.call(v).slice(8, -1); };
const typedNames = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
	'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
const AsyncFunction = (async function () {}).constructor;
const GeneratorFunction = (function* () {}).constructor;
const types = {
	isPromise(v) { return v instanceof Promise; },
	isDate(v) { return v instanceof Date; },
	isRegExp(v) { return v instanceof RegExp; },
	isMap(v) { return v instanceof Map; },
	isSet(v) { return v instanceof Set; },
	isWeakMap(v) { return v instanceof WeakMap; },
	isWeakSet(v) { return v instanceof WeakSet; },
	isNativeError(v) { return v instanceof Error; },
	isArrayBuffer(v) { return v instanceof ArrayBuffer; },
	isSharedArrayBuffer(v) { return typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer; },
	isAnyArrayBuffer(v) { return types.isArrayBuffer(v) || types.isSharedArrayBuffer(v); },
	isArrayBufferView(v) { return ArrayBuffer.isView(v); },
	isTypedArray(v) { return ArrayBuffer.isView(v) && !(v instanceof DataView); },
	isDataView(v) { return v instanceof DataView; },
	isAsyncFunction(v) { return typeof v === 'function' && v instanceof AsyncFunction; },
	isGeneratorFunction(v) { return typeof v === 'function' && v instanceof GeneratorFunction; },
	isGeneratorObject(v) { return tag(v) === 'Generator'; },
	isMapIterator(v) { return tag(v) === 'Map Iterator'; },
	isSetIterator(v) { return tag(v) === 'Set Iterator'; },
	isBoxedPrimitive(v) {
		return v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof Symbol ||
			(typeof BigInt === 'function' && v instanceof BigInt);
	},
	isNumberObject(v) { return v instanceof Number; },
	isStringObject(v) { return v instanceof String; },
	isBooleanObject(v) { return v instanceof Boolean; },
	isSymbolObject(v) { return v instanceof Symbol; },
	isBigIntObject(v) { return typeof BigInt === 'function' && v instanceof BigInt; },
	isProxy(v) { return N.isProxy(v); },
	isArgumentsObject(v) { return tag(v) === 'Arguments'; },
	isModuleNamespaceObject(v) { return tag(v) === 'Module'; },
	isExternal() { return false; },
	isWeakRef(v) { return typeof WeakRef === 'function' && v instanceof WeakRef; },
	isKeyObject() { return false; },
	isCryptoKey() { return false; },
};
for (const t of typedNames) {
	const C = globalThis[t];
	types['is' + t] = function (v) { return C !== undefined && v instanceof C; };
}

function isDeepStrictEqual(a, b) { return require('internal/comparisons').isDeepStrictEqual(a, b); }

function parseArgs(config) {
	return require('internal/parse_args').parseArgs(config);
}

function stripVTControlCharacters(s) {
	return String(s).replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, '');
}

function toUSVString(s) { return String(s).toWellFormed ? String(s).toWellFormed() : String(s).replace(/[\uD800-\uDFFF]/g, function (c, i, str) { return '\uFFFD'; }); }

function aborted(signal, resource) {
	return new Promise(function (resolve) {
		if (signal.aborted) resolve(); else signal.addEventListener('abort', function () { resolve(); }, { once: true });
		void resource;
	});
}

const notSupported = function (name) {
	return function () { throw new Error('jsworker: util.' + name + ' is not supported'); };
};

const util = {
	inspect: inspect,
	format: ins.format,
	formatWithOptions: ins.formatWithOptions,
	promisify: promisify,
	callbackify: callbackify,
	inherits: inherits,
	deprecate: deprecate,
	isDeepStrictEqual: isDeepStrictEqual,
	parseArgs: parseArgs,
	types: types,
	TextEncoder: globalThis.TextEncoder,
	TextDecoder: globalThis.TextDecoder,
	stripVTControlCharacters: stripVTControlCharacters,
	toUSVString: toUSVString,
	aborted: aborted,
	inspectDefault: undefined,
	debuglog: function debuglog(section) {
		const on = typeof globalThis.process === 'object' && new RegExp('(^|,)' + String(section).replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '($|,)', 'i').test(globalThis.process.env.NODE_DEBUG || '');
		const f = function (...args) {
			if (on) globalThis.process.stderr.write(String(section).toUpperCase() + ' ' + globalThis.process.pid + ': ' + ins.format(...args) + '\n');
		};
		f.enabled = on;
		return f;
	},
	isArray: Array.isArray,
	getSystemErrorName: notSupported('getSystemErrorName'),
	getSystemErrorMap: notSupported('getSystemErrorMap'),
	transferableAbortController: notSupported('transferableAbortController'),
	transferableAbortSignal: notSupported('transferableAbortSignal'),
	MIMEType: undefined,
};
delete util.inspectDefault;
delete util.MIMEType;
util.debug = util.debuglog;
return util;
})
