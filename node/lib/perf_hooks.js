// perf_hooks (node/builtins.go): the realm's performance object with Node's user timing (mark, measure and the
// entry lists) added, timerify, and createHistogram. PerformanceObserver, monitorEventLoopDelay and
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

// A RecordableHistogram (createHistogram): it keeps every recorded value (Node's is an HDR histogram of bounded
// size, whose percentiles are rounded to its precision; ours are exact).
const kValues = Symbol('kValues');
class Histogram {
	constructor() { this.reset(); }
	reset() {
		Object.defineProperty(this, kValues, { value: { list: new Float64Array(16), n: 0, sorted: true, exceeds: 0, last: undefined }, configurable: true });
	}
	record(v) {
		if (typeof v === 'bigint') v = Number(v);
		if (typeof v !== 'number' || !(v >= 1) || v > Number.MAX_SAFE_INTEGER) {
			const e = new RangeError('The value of "val" is out of range. It must be >= 1 && <= 9007199254740991. Received ' + String(v));
			e.code = 'ERR_OUT_OF_RANGE';
			throw e;
		}
		const st = this[kValues];
		if (st.n === st.list.length) { const l = new Float64Array(st.list.length * 2); l.set(st.list); st.list = l; }
		if (st.n > 0 && v < st.list[st.n - 1]) st.sorted = false;
		st.list[st.n++] = Math.floor(v);
	}
	recordDelta() {
		const st = this[kValues];
		const now = globalThis.performance.now();
		if (st.last !== undefined) this.record(Math.max(1, Math.round((now - st.last) * 1e6)));
		st.last = now;
	}
	add(other) {
		const o = other[kValues];
		for (let i = 0; i < o.n; i++) this.record(o.list[i]);
	}
	get count() { return this[kValues].n; }
	get countBigInt() { return BigInt(this[kValues].n); }
	get min() { const v = values(this); return v.length === 0 ? 9223372036854776000 : v[0]; }
	get max() { const v = values(this); return v.length === 0 ? 0 : v[v.length - 1]; }
	get minBigInt() { return BigInt(this.min); }
	get maxBigInt() { return BigInt(this.max); }
	get mean() {
		const v = values(this);
		if (v.length === 0) return NaN;
		let s = 0;
		for (let i = 0; i < v.length; i++) s += v[i];
		return s / v.length;
	}
	get stddev() {
		const v = values(this);
		if (v.length === 0) return NaN;
		const m = this.mean;
		let s = 0;
		for (let i = 0; i < v.length; i++) s += (v[i] - m) * (v[i] - m);
		return Math.sqrt(s / v.length);
	}
	get exceeds() { return this[kValues].exceeds; }
	get exceedsBigInt() { return BigInt(this[kValues].exceeds); }
	percentile(p) {
		if (typeof p !== 'number' || !(p > 0 && p <= 100)) {
			const e = new RangeError('The value of "percentile" is out of range. It must be > 0 && <= 100. Received ' + String(p));
			e.code = 'ERR_OUT_OF_RANGE';
			throw e;
		}
		const v = values(this);
		if (v.length === 0) return 0;
		return v[Math.min(v.length - 1, Math.max(0, Math.ceil((p / 100) * v.length) - 1))];
	}
	percentileBigInt(p) { return BigInt(this.percentile(p)); }
	get percentiles() {
		const v = values(this);
		const m = new Map();
		if (v.length === 0) { m.set(100, 0); return m; }
		for (const p of [0, 50, 75, 87.5, 93.75, 96.875, 98.4375, 99.21875, 100]) m.set(p, p === 0 ? v[0] : this.percentile(p));
		return m;
	}
	get percentilesBigInt() {
		const m = new Map();
		for (const [k, v] of this.percentiles) m.set(k, BigInt(v));
		return m;
	}
	toJSON() {
		return { count: this.count, min: this.min, max: this.max, mean: this.mean, exceeds: this.exceeds,
			stddev: this.stddev, percentiles: Object.fromEntries(this.percentiles) };
	}
}
function values(h) {
	const st = h[kValues];
	if (!st.sorted) { st.list.subarray(0, st.n).sort(); st.sorted = true; }
	return st.list.subarray(0, st.n);
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
	createHistogram: function createHistogram() { return new Histogram(); },
	constants: { NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8, NODE_PERFORMANCE_GC_WEAKCB: 16 },
};
})
