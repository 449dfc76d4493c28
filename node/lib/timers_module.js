// timers and timers/promises (node/builtins.go): the realm's Node timers as a module, and their promise forms
// with AbortSignal support.
(function (N, require, core) {
'use strict';
const g = globalThis;
const setTimeout_ = g.setTimeout, setInterval_ = g.setInterval, setImmediate_ = g.setImmediate;
const clearTimeout_ = g.clearTimeout, clearInterval_ = g.clearInterval, clearImmediate_ = g.clearImmediate;

function abortError(signal) {
	const e = new Error('The operation was aborted');
	e.name = 'AbortError';
	e.code = 'ABORT_ERR';
	if (signal.reason !== undefined) e.cause = signal.reason;
	return e;
}

function checkOptions(options) {
	if (options === undefined) return {};
	if (options === null || typeof options !== 'object') {
		const e = new TypeError('The "options" argument must be of type object.');
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
	if (options.signal !== undefined && (options.signal === null || typeof options.signal.aborted !== 'boolean')) {
		const e = new TypeError('The "options.signal" property must be an instance of AbortSignal.');
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
	return options;
}

function later(schedule, clear, options) {
	let o;
	try { o = checkOptions(options); } catch (e) { return Promise.reject(e); }
	const signal = o.signal;
	if (signal !== undefined && signal.aborted) return Promise.reject(abortError(signal));
	return new Promise(function (resolve, reject) {
		let onAbort;
		const t = schedule(function (v) {
			if (signal !== undefined) signal.removeEventListener('abort', onAbort);
			resolve(v);
		});
		if (o.ref === false && t !== null && typeof t === 'object') t.unref();
		if (signal !== undefined) {
			onAbort = function () { clear(t); reject(abortError(signal)); };
			signal.addEventListener('abort', onAbort, { once: true });
		}
	});
}

const promises = {
	setTimeout(delay, value, options) {
		return later(function (done) { return setTimeout_(function () { done(value); }, delay); }, clearTimeout_, options);
	},
	setImmediate(value, options) {
		return later(function (done) { return setImmediate_(function () { done(value); }); }, clearImmediate_, options);
	},
	setInterval(delay, value, options) {
		const o = checkOptions(options);
		const signal = o.signal;
		let waiting = null, done = false, pending = 0;
		if (signal !== undefined && signal.aborted) {
			return { next() { return Promise.reject(abortError(signal)); }, return() { return Promise.resolve({ done: true, value: undefined }); }, [Symbol.asyncIterator]() { return this; } };
		}
		const t = setInterval_(function () {
			pending++;
			if (waiting !== null) { const w = waiting; waiting = null; pending--; w.resolve({ done: false, value: value }); }
		}, delay);
		if (o.ref === false) t.unref();
		const stop = function () { done = true; clearInterval_(t); };
		let onAbort;
		if (signal !== undefined) {
			onAbort = function () {
				stop();
				if (waiting !== null) { const w = waiting; waiting = null; w.reject(abortError(signal)); }
			};
			signal.addEventListener('abort', onAbort, { once: true });
		}
		return {
			next() {
				if (done) {
					if (signal !== undefined && signal.aborted) return Promise.reject(abortError(signal));
					return Promise.resolve({ done: true, value: undefined });
				}
				if (pending > 0) { pending--; return Promise.resolve({ done: false, value: value }); }
				return new Promise(function (resolve, reject) { waiting = { resolve: resolve, reject: reject }; });
			},
			return() {
				stop();
				if (signal !== undefined) signal.removeEventListener('abort', onAbort);
				return Promise.resolve({ done: true, value: undefined });
			},
			[Symbol.asyncIterator]() { return this; },
		};
	},
	scheduler: {
		wait(delay, options) { return promises.setTimeout(delay, undefined, options); },
		yield() { return promises.setImmediate(); },
	},
};

return {
	setTimeout: setTimeout_, clearTimeout: clearTimeout_,
	setInterval: setInterval_, clearInterval: clearInterval_,
	setImmediate: setImmediate_, clearImmediate: clearImmediate_,
	promises: promises,
	active(t) { if (t && typeof t.refresh === 'function') t.refresh(); },
	unenroll(t) { clearTimeout_(t); },
	enroll() { throw new Error('jsworker: timers.enroll is not supported'); },
};
})
