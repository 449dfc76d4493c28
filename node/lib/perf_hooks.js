// perf_hooks (node/builtins.go): the realm's performance object with Node's user timing (mark, measure and the
// entry lists) added, and timerify. PerformanceObserver, monitorEventLoopDelay, createHistogram and
// eventLoopUtilization are not provided (they throw an error naming them).
(function (N, require, core) {
'use strict';
const performance = globalThis.performance;
const entries = [];

class PerformanceEntry {
	constructor(name, type, start, duration, detail) {
		this.name = name; this.entryType = type; this.startTime = start; this.duration = duration;
		if (detail !== undefined) this.detail = detail;
	}
	toJSON() { return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration, detail: this.detail }; }
}
class PerformanceMark extends PerformanceEntry {}
class PerformanceMeasure extends PerformanceEntry {}

function markTime(name) {
	if (typeof name === 'number') return name;
	for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'mark' && entries[i].name === name) return entries[i].startTime;
	const e = new SyntaxError('The "' + name + '" performance mark has not been set');
	e.code = 'ERR_INVALID_PERFORMANCE_MARK';
	throw e;
}

const methods = {
	mark(name, options) {
		const o = options || {};
		const m = new PerformanceMark(String(name), 'mark', o.startTime !== undefined ? o.startTime : performance.now(), 0, o.detail === undefined ? null : o.detail);
		entries.push(m);
		return m;
	},
	measure(name, start, end) {
		let s = 0, e = performance.now(), detail = null;
		if (start !== null && typeof start === 'object') {
			if (start.start !== undefined) s = markTime(start.start);
			if (start.end !== undefined) e = markTime(start.end);
			if (start.duration !== undefined && start.end === undefined) e = s + start.duration;
			if (start.detail !== undefined) detail = start.detail;
		} else {
			if (start !== undefined) s = markTime(start);
			if (end !== undefined) e = markTime(end);
		}
		const m = new PerformanceMeasure(String(name), 'measure', s, e - s, detail);
		entries.push(m);
		return m;
	},
	getEntries() { return entries.slice(); },
	getEntriesByName(name, type) { return entries.filter(function (e) { return e.name === name && (type === undefined || e.entryType === type); }); },
	getEntriesByType(type) { return entries.filter(function (e) { return e.entryType === type; }); },
	clearMarks(name) { removeEntries('mark', name); },
	clearMeasures(name) { removeEntries('measure', name); },
	timerify(fn) {
		if (typeof fn !== 'function') throw new TypeError('The "fn" argument must be of type function.');
		const t = function (...args) {
			const s = performance.now();
			const r = new.target ? Reflect.construct(fn, args, fn) : Reflect.apply(fn, this, args);
			entries.push(new PerformanceEntry(fn.name, 'function', s, performance.now() - s));
			return r;
		};
		Object.defineProperty(t, 'name', { value: 'timerified ' + fn.name });
		return t;
	},
	eventLoopUtilization() { throw new Error('jsworker: performance.eventLoopUtilization is not supported'); },
	toJSON() { return { timeOrigin: performance.timeOrigin }; },
};
function removeEntries(type, name) {
	for (let i = entries.length - 1; i >= 0; i--) {
		if (entries[i].entryType === type && (name === undefined || entries[i].name === name)) entries.splice(i, 1);
	}
}
for (const k of Object.keys(methods)) {
	if (typeof performance[k] !== 'function') Object.defineProperty(performance, k, { value: methods[k], writable: true, configurable: true });
}

const notSupported = function (name) {
	return function () { throw new Error('jsworker: perf_hooks.' + name + ' is not supported'); };
};
return {
	performance: performance,
	PerformanceEntry: PerformanceEntry,
	PerformanceMark: PerformanceMark,
	PerformanceMeasure: PerformanceMeasure,
	PerformanceObserver: notSupported('PerformanceObserver'),
	monitorEventLoopDelay: notSupported('monitorEventLoopDelay'),
	createHistogram: notSupported('createHistogram'),
	constants: { NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8, NODE_PERFORMANCE_GC_WEAKCB: 16 },
};
})
