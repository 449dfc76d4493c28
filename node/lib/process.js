// process (node/process.go): Node's process object over this realm's natives N.
(function (EventEmitter, N) {
'use strict';
const defineProperty = Object.defineProperty;
const queueMicrotask_ = queueMicrotask;
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
})
