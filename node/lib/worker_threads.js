// worker_threads (node/threads.go): the Worker class of Node-style workers and the module's exports. core holds
// the JavaScript side of the ports, channels and the web Worker every realm has; N holds this realm's Node natives.
(function (core, N) {
'use strict';
const EventEmitter = core.EventEmitter;
const defineProperty = Object.defineProperty;
// The Worker's private symbols are made with the class (makeWorker), SHARE_ENV on first touch (a lazy export, from
// the global registry: Symbol.for gives every realm the same one), so an idle realm never makes Symbol.
let kThreadId, kLimits, kShareEnv;
const shareEnvSymbol = () => Symbol.for('nodejs.worker_threads.SHARE_ENV');

// environmentData (the Map of setEnvironmentData) is made on first use: env() returns it.
let environmentData;
const env = () => environmentData !== undefined ? environmentData : (environmentData = new Map());

// The Worker class is made on first use (WorkerClass): a worker that only talks to its parent never pays for it.
let WorkerClass_;
function WorkerClass() {
	if (WorkerClass_ === undefined) WorkerClass_ = makeWorker();
	return WorkerClass_;
}

function makeWorker() {
	kThreadId = N.kThreadId; // Go's: N.spawn defines it, and Go sets it to -1 once the worker has exited
	kLimits = Symbol('kLimits');
	kShareEnv = shareEnvSymbol();
	// The options when none are given: one {} for every Worker (only read, never exposed), not one each.
	const kNoOptions = {};
	const workerPost = core.lazy('workerPost'), workerRef = core.lazy('workerRef');
	// A Worker's listeners run in the async context (AsyncLocalStorage) the Worker was made in, as in Node: while a
	// context is set, each listener is registered as a wrapper that enters it (kWrappers maps listener -> wrapper).
	const kCtx = Symbol('kCtx');
	const kWrappers = Symbol('kWrappers');
	const getCtx = N.ctx.get, setCtx = N.ctx.set;
	function wrapListener(w, fn) {
		const ctx = w[kCtx];
		if (ctx === undefined || typeof fn !== 'function') return fn;
		let m = w[kWrappers];
		if (m === undefined) { m = new Map(); defineProperty(w, kWrappers, { value: m }); }
		let wrapped = m.get(fn);
		if (wrapped === undefined) {
			wrapped = function () {
				const prev = getCtx();
				setCtx(ctx);
				try { return fn.apply(this, arguments); } finally { setCtx(prev); }
			};
			m.set(fn, wrapped);
		}
		return wrapped;
	}
	function unwrapListener(w, fn) {
		const m = w[kWrappers];
		return m === undefined ? fn : (m.get(fn) || fn);
	}

	class Worker extends EventEmitter {
		constructor(filename, options) {
			super();
			if (options === undefined) options = kNoOptions;
			if (options === null || typeof options !== 'object') {
				throw new TypeError('The "options" argument must be of type object.');
			}
			const shareEnv = options.env === kShareEnv;
			if (!shareEnv && options.env !== undefined && options.env !== null && typeof options.env !== 'object') {
				throw new TypeError('The "options.env" property must be of type object.');
			}
			if (options.argv !== undefined && !Array.isArray(options.argv)) {
				throw new TypeError('The "options.argv" property must be an array.');
			}
			// The options are read in this order, each as often as before (a getter sees the same reads), and handed
			// to N.spawn as its arguments: no spec object, no argv array when there is none, environmentData only
			// once it exists.
			const rl = options.resourceLimits;
			const hasLimits = rl !== undefined && rl !== null;
			const isEval = !!options.eval;
			const name = options.name === undefined ? '' : String(options.name);
			const argv = options.argv === undefined ? undefined : options.argv.map(String);
			const envOption = shareEnv || options.env === undefined || options.env === null ? undefined : options.env;
			const hasWorkerData = options.workerData !== undefined;
			const workerData = options.workerData;
			const transferList = options.transferList === undefined ? undefined : Array.from(options.transferList);
			const stackSizeMb = hasLimits && typeof rl.stackSizeMb === 'number' ? rl.stackSizeMb : 0;
			const maxOld = hasLimits && typeof rl.maxOldGenerationSizeMb === 'number' ? rl.maxOldGenerationSizeMb : 0;
			const maxYoung = hasLimits && typeof rl.maxYoungGenerationSizeMb === 'number' ? rl.maxYoungGenerationSizeMb : 0;
			const type = options.type === undefined ? '' : String(options.type);
			if (isEval && typeof filename !== 'string') {
				throw new TypeError('The "filename" argument must be a string when options.eval is true.');
			}
			// Only what this Worker has: its resourceLimits' copy when given (else {} is made on first read), its
			// async context when there is one; then N.spawn defines its threadId (kThreadId, as a non-enumerable
			// writable property).
			if (hasLimits) defineProperty(this, kLimits, { value: Object.assign({}, rl) });
			const ctx = getCtx();
			if (ctx !== undefined) defineProperty(this, kCtx, { value: ctx });
			N.spawn(this, filename, isEval, name, argv, envOption, shareEnv, hasWorkerData, workerData, transferList,
				stackSizeMb, maxOld, maxYoung, type, environmentData);
		}
		on(type, fn) { return super.on(type, wrapListener(this, fn)); }
		addListener(type, fn) { return super.on(type, wrapListener(this, fn)); }
		once(type, fn) { return super.once(type, wrapListener(this, fn)); }
		prependListener(type, fn) { return super.prependListener(type, wrapListener(this, fn)); }
		prependOnceListener(type, fn) { return super.prependOnceListener(type, wrapListener(this, fn)); }
		removeListener(type, fn) { return super.removeListener(type, unwrapListener(this, fn)); }
		off(type, fn) { return this.removeListener(type, fn); }
		listeners(type) {
			const m = this[kWrappers];
			const ls = super.listeners(type);
			if (m === undefined) return ls;
			return ls.map(function (l) { for (const [k, v] of m) if (v === l) return k; return l; });
		}
		get threadId() { return this[kThreadId]; }
		get resourceLimits() {
			let l = this[kLimits];
			if (l === undefined) {
				l = {};
				if (Object.isExtensible(this)) defineProperty(this, kLimits, { value: l });
			}
			return l;
		}
		get stdin() { return null; }
		get stdout() { return null; }
		get stderr() { return null; }
		postMessage(value, transfer) { workerPost(this, value, transfer); }
		terminate(callback) {
			const p = N.terminate(this);
			if (typeof callback === 'function') p.then(function (code) { callback(null, code); });
			return p;
		}
		ref() { workerRef(this, true); }
		unref() { workerRef(this, false); }
		getHeapSnapshot() { return Promise.reject(new Error('jsworker: getHeapSnapshot is not supported')); }
	}
	return Worker;
}

// exportOf makes the export name: node/threads.go makes every export on first touch, the realm's facts (isMainThread,
// threadId, resourceLimits, parentPort, workerData) itself and the others here (plain data properties, writable,
// enumerable and configurable, as every export is).
function exportOf(name) {
	switch (name) {
	case 'SHARE_ENV': return shareEnvSymbol();
	case 'Worker': return WorkerClass();
	case 'MessageChannel': return core.lazy('MessageChannel');
	case 'MessagePort': return core.MessagePort;
	case 'BroadcastChannel': return core.lazy('BroadcastChannel');
	case 'receiveMessageOnPort': return core.lazy('receiveMessageOnPort');
	case 'markAsUntransferable': return function markAsUntransferable() {};
	case 'isMarkedAsUntransferable': return function isMarkedAsUntransferable() { return false; };
	case 'moveMessagePortToContext': return function moveMessagePortToContext() {
		throw new Error('jsworker: moveMessagePortToContext is not supported (there is no vm module)');
	};
	case 'setEnvironmentData': return function setEnvironmentData(key, value) {
		if (value === undefined) env().delete(key); else env().set(key, value);
	};
	case 'getEnvironmentData': return function getEnvironmentData(key) { return env().get(key); };
	}
	throw new Error('jsworker: worker_threads has no export ' + name);
}

function loadEnvironmentData(m) {
	if (m instanceof Map) m.forEach(function (v, k) { env().set(k, v); });
}

return {
	exportOf: exportOf,
	loadEnvironmentData: loadEnvironmentData,
};
})
