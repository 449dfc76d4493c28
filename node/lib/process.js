// process (node/process.go): Node's process object over this realm's natives N, made on the first use of the
// process global (or require('process')). Its nextTick is lib/ticks.js's, made with the realm.
(function (EventEmitter, N) {
'use strict';
const defineProperty = Object.defineProperty;
return function makeProcess(info) {
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
	p.release = { name: 'node', sourceUrl: '', headersUrl: '' };
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
	p.nextTick = N.nextTick; // lib/ticks.js: the tick queue exists before process does
	p.cwd = function cwd() { return N.cwd(); };
	p.uptime = function uptime() { return N.uptime(); };
	p.stdout = { write(s) { N.write(1, String(s)); return true; }, isTTY: false, fd: 1 };
	p.stderr = { write(s) { N.write(2, String(s)); return true; }, isTTY: false, fd: 2 };
	// emitWarning(warning[, type[, code]][, ctor]) or emitWarning(warning, { type, code, detail }): the 'warning'
	// event on the next tick, and Node's line on standard error ("(node:PID) [code] Type: message").
	p.emitWarning = function emitWarning(warning, type, code, ctor) {
		let detail;
		if (type !== null && typeof type === 'object') {
			code = type.code; detail = type.detail; type = type.type;
		} else if (typeof type === 'function') {
			type = undefined; code = undefined;
		}
		if (typeof code === 'function') code = undefined;
		if (type === undefined) type = 'Warning';
		if (typeof warning === 'string') {
			const w = new Error(warning);
			w.name = String(type);
			if (code !== undefined) w.code = code;
			if (detail !== undefined) w.detail = detail;
			warning = w;
		} else if (!(warning instanceof Error)) {
			const e = new TypeError('The "warning" argument must be of type string or an instance of Error.');
			e.code = 'ERR_INVALID_ARG_TYPE';
			throw e;
		}
		void ctor;
		if (warning.name === 'DeprecationWarning' && p.noDeprecation) return;
		p.nextTick(function () {
			p.emit('warning', warning);
			if (p.noProcessWarnings) return;
			let line = '(node:' + p.pid + ') ' + (warning.code ? '[' + warning.code + '] ' : '') +
				(p.traceProcessWarnings && warning.stack ? warning.stack : warning.name + ': ' + warning.message) + '\n';
			if (typeof warning.detail === 'string') line += warning.detail + '\n';
			N.write(2, line);
		});
	};
	p.noDeprecation = false;
	p.throwDeprecation = false;
	p.cpuUsage = function cpuUsage(prev) {
		const u = N.cpuUsage();
		const r = { user: u[0], system: u[1] };
		if (prev !== undefined) {
			if (prev === null || typeof prev !== 'object' || typeof prev.user !== 'number' || typeof prev.system !== 'number') {
				const e = new TypeError('The "prevValue" argument must be of type object.');
				e.code = 'ERR_INVALID_ARG_TYPE';
				throw e;
			}
			r.user -= prev.user; r.system -= prev.system;
		}
		return r;
	};
	p.resourceUsage = function resourceUsage() { return N.resourceUsage(); };
	p.chdir = function chdir(dir) {
		if (typeof dir !== 'string') {
			const e = new TypeError('The "directory" argument must be of type string.');
			e.code = 'ERR_INVALID_ARG_TYPE';
			throw e;
		}
		N.chdir(dir);
	};
	let captureFn = null;
	p.setUncaughtExceptionCaptureCallback = function setUncaughtExceptionCaptureCallback(fn) {
		if (fn !== null && typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function or null.');
		if (captureFn !== null) p.removeListener('uncaughtException', captureFn);
		captureFn = fn === null ? null : function (err) { fn(err); };
		if (captureFn !== null) p.on('uncaughtException', captureFn);
	};
	p.hasUncaughtExceptionCaptureCallback = function hasUncaughtExceptionCaptureCallback() { return captureFn !== null; };
	p.binding = function binding() { throw new Error('jsworker: process.binding is not supported'); };
	defineProperty(p, Symbol.toStringTag, { value: 'process', configurable: true });
	return p;
}
})
