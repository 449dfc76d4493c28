// internal/inspect (node/util.go): util.inspect and util.format as Node prints values, for the util and assert
// modules. Differences from Node: long arrays are not grouped into columns, and colors are not supported.
(function (N, require, core) {
'use strict';
const defaults = { depth: 2, breakLength: 80, maxArrayLength: 100, maxStringLength: 10000, showHidden: false,
	compact: 3, sorted: false, getters: false, colors: false, customInspect: true, numericSeparator: false };
const custom = Symbol.for('nodejs.util.inspect.custom');
const identRe = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function quote(s) {
	let q = "'";
	if (s.includes("'")) {
		if (!s.includes('"')) q = '"';
		else if (!s.includes('`') && !s.includes('${')) q = '`';
	}
	let out = '';
	for (let i = 0; i < s.length; i++) {
		const c = s[i], code = s.charCodeAt(i);
		if (c === q || c === '\\') out += '\\' + c;
		else if (c === '\n') out += '\\n';
		else if (c === '\t') out += '\\t';
		else if (c === '\r') out += '\\r';
		else if (c === '\b') out += '\\b';
		else if (c === '\f') out += '\\f';
		else if (c === '\v') out += '\\v';
		else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).toUpperCase().padStart(2, '0');
		else out += c;
	}
	return q + out + q;
}

function keyString(k) {
	if (typeof k === 'symbol') return '[' + k.toString() + ']';
	return identRe.test(k) ? k : quote(k);
}

function fnBase(f) {
	const src = Function.prototype.toString.call(f);
	const name = f.name;
	if (src.startsWith('class') && /^class[\s{]/.test(src)) {
		let s = '[class ' + (name || '(anonymous)');
		const sup = Object.getPrototypeOf(f);
		if (sup !== Function.prototype && sup !== null && sup.name) s += ' extends ' + sup.name;
		return s + ']';
	}
	let kind = 'Function';
	const tag = f[Symbol.toStringTag];
	if (tag === 'AsyncFunction' || tag === 'GeneratorFunction' || tag === 'AsyncGeneratorFunction') kind = tag;
	return '[' + kind + (name ? ': ' + name : ' (anonymous)') + ']';
}

function ctorName(o) {
	let p = o;
	while (p !== null) {
		const d = Object.getOwnPropertyDescriptor(p, 'constructor');
		if (d !== undefined && typeof d.value === 'function' && d.value.name !== '') return d.value.name;
		p = Object.getPrototypeOf(p);
	}
	return null;
}

function formatPrimitive(v, ctx) {
	switch (typeof v) {
	case 'string': {
		let s = v, extra = '';
		if (s.length > ctx.maxStringLength) {
			extra = "... " + (s.length - ctx.maxStringLength) + ' more character' + (s.length - ctx.maxStringLength > 1 ? 's' : '');
			s = s.slice(0, ctx.maxStringLength);
		}
		return quote(s) + extra;
	}
	case 'number': return Object.is(v, -0) ? '-0' : String(v);
	case 'bigint': return String(v) + 'n';
	case 'symbol': return v.toString();
	case 'undefined': return 'undefined';
	case 'boolean': return String(v);
	}
	return 'null';
}

function isError(v) { return v instanceof Error || Object.prototype.toString.call(v) === '[object Error]'; }

function formatValue(ctx, v, depth, inner) {
	if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
		return formatPrimitive(v, ctx);
	}
	if (ctx.customInspect) {
		const f = v[custom];
		if (typeof f === 'function' && f !== inspect) {
			const opts = Object.assign({}, ctx, { depth: ctx.depth === null ? null : ctx.depth - depth, stylize: function (s) { return s; } });
			const r = f.call(v, opts.depth, opts, inspect);
			if (r !== v) return typeof r === 'string' ? r : formatValue(ctx, r, depth, inner);
		}
	}
	if (ctx.seen.includes(v)) {
		let i = ctx.circular.get(v);
		if (i === undefined) { i = ctx.circular.size + 1; ctx.circular.set(v, i); }
		return '[Circular *' + i + ']';
	}
	return formatRaw(ctx, v, depth);
}

function entriesOf(ctx, v, keys, depth, arrayLike) {
	const out = [];
	for (const k of keys) {
		const d = Object.getOwnPropertyDescriptor(v, k);
		if (d === undefined) continue;
		let s;
		if (d.get !== undefined || d.set !== undefined) {
			s = d.get !== undefined ? (d.set !== undefined ? '[Getter/Setter]' : '[Getter]') : '[Setter]';
		} else {
			s = formatValue(ctx, d.value, depth + 1, true);
		}
		let name = keyString(k);
		if (!d.enumerable) name = '[' + name + ']';
		out.push(name + ': ' + s);
	}
	return out;
}

function formatRaw(ctx, v, depth) {
	let keys = ctx.showHidden ? Reflect.ownKeys(v) : Object.keys(v).concat(Object.getOwnPropertySymbols(v).filter(function (s) { return Object.prototype.propertyIsEnumerable.call(v, s); }));
	const name = ctorName(v);
	const tag = v[Symbol.toStringTag];
	let prefix = name === null ? '[Object: null prototype] ' : (name === 'Object' ? '' : name + ' ');
	if (typeof tag === 'string' && tag !== '' && tag !== name) prefix = (name === null ? '[Object: null prototype] ' : (name || 'Object') + ' ') + '[' + tag + '] ';
	let braces = ['{', '}'], base = '', items = [], kind = 'object';
	if (Array.isArray(v)) {
		keys = keys.filter(function (k) { return typeof k === 'symbol' || !/^(0|[1-9][0-9]*)$/.test(k); });
		prefix = name === 'Array' ? '' : (name === null ? '[Array(' + v.length + '): null prototype] ' : name + '(' + v.length + ') ');
		braces = [prefix + '[', ']'];
		kind = 'array';
	} else if (typeof v === 'function') {
		base = fnBase(v);
		keys = keys.filter(function (k) { return k !== 'prototype'; });
		if (keys.length === 0) return base;
	} else if (v instanceof RegExp) {
		base = RegExp.prototype.toString.call(v);
		if (keys.length === 0) return base;
	} else if (v instanceof Date) {
		base = isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
		if (keys.length === 0) return base;
	} else if (isError(v)) {
		base = v.stack ? String(v.stack) : Error.prototype.toString.call(v);
		if (!base.includes('\n    at') && v.stack) base = '[' + base + ']';
		else if (!v.stack) base = '[' + base + ']';
		keys = keys.filter(function (k) { return k !== 'stack' && k !== 'message'; });
		if (v.cause !== undefined && !keys.includes('cause')) keys.push('cause');
		if (keys.length === 0) return base;
	} else if (v instanceof Map) {
		braces = [prefix.replace(/ $/, '') + '(' + v.size + ') {', '}'];
		if (depth > ctx.depth && ctx.depth !== null) return '[' + (name || 'Map') + ']';
		ctx.seen.push(v);
		if (v.size > 0) ctx.currentDepth = depth;
		for (const [k, val] of v) items.push(formatValue(ctx, k, depth + 1, true) + ' => ' + formatValue(ctx, val, depth + 1, true));
		ctx.seen.pop();
		kind = 'map';
	} else if (v instanceof Set) {
		braces = [prefix.replace(/ $/, '') + '(' + v.size + ') {', '}'];
		if (depth > ctx.depth && ctx.depth !== null) return '[' + (name || 'Set') + ']';
		ctx.seen.push(v);
		if (v.size > 0) ctx.currentDepth = depth;
		for (const val of v) items.push(formatValue(ctx, val, depth + 1, true));
		ctx.seen.pop();
		kind = 'set';
	} else if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
		const isBuf = typeof N.isBuffer === 'function' && N.isBuffer(v);
		if (isBuf) {
			let hex = [];
			const max = Math.min(v.length, 50);
			for (let i = 0; i < max; i++) hex.push(v[i].toString(16).padStart(2, '0'));
			let s = '<' + (name || 'Buffer') + (hex.length ? ' ' + hex.join(' ') : '');
			if (v.length > 50) s += ' ... ' + (v.length - 50) + ' more byte' + (v.length - 50 > 1 ? 's' : '');
			return s + '>';
		}
		braces = [(name || tag) + '(' + v.length + ') [', ']'];
		keys = keys.filter(function (k) { return typeof k === 'symbol' || !/^(0|[1-9][0-9]*)$/.test(k); });
		kind = 'array';
	} else if (v instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && v instanceof SharedArrayBuffer)) {
		const b = new Uint8Array(v);
		const hex = [];
		for (let i = 0; i < Math.min(b.length, 50); i++) hex.push(b[i].toString(16).padStart(2, '0'));
		items.push('[Uint8Contents]: <' + hex.join(' ') + (b.length > 50 ? ' ... ' + (b.length - 50) + ' more byte' + (b.length - 50 > 1 ? 's' : '') : '') + '>');
		items.push('byteLength: ' + v.byteLength);
		braces = [(name || 'ArrayBuffer') + ' {', '}'];
	} else if (v instanceof Promise) {
		const st = N.promiseState(v);
		items.push(st[0] === 'pending' ? '<pending>' : (st[0] === 'rejected' ? '<rejected> ' : '') + formatValue(ctx, st[1], depth + 1, true));
		braces = [prefix + '{', '}'];
	} else if (v instanceof WeakMap || v instanceof WeakSet) {
		return (name || 'WeakMap') + ' { <items unknown> }';
	} else if (v instanceof Number || v instanceof String || v instanceof Boolean || (typeof BigInt === 'function' && v instanceof BigInt) || v instanceof Symbol) {
		const prim = v.valueOf();
		const t = typeof prim === 'bigint' ? 'BigInt' : typeof prim === 'symbol' ? 'Symbol' : (typeof prim)[0].toUpperCase() + (typeof prim).slice(1);
		base = '[' + t + ': ' + formatPrimitive(prim, ctx) + ']';
		if (typeof prim === 'string') keys = keys.filter(function (k) { return typeof k === 'symbol' || !/^(0|[1-9][0-9]*)$/.test(k) && k !== 'length'; });
		if (keys.length === 0) return base;
	} else {
		braces = [prefix + '{', '}'];
		if (prefix !== '' && keys.length === 0 && !(typeof v[Symbol.iterator] === 'function')) return prefix + '{}';
	}
	if (depth > ctx.depth && ctx.depth !== null) {
		if (kind === 'array') return '[' + (name || 'Array') + ']';
		return '[' + (name === null ? 'Object: null prototype' : name || 'Object') + ']';
	}
	ctx.seen.push(v);
	if (keys.length > 0 || (kind === 'array' && v.length > 0) || (items.length > 0 && kind === 'object')) ctx.currentDepth = depth; // as Node: not for {} and []
	if (kind === 'array') {
		const n = Math.min(v.length, ctx.maxArrayLength);
		let holes = 0;
		const flush = function () { if (holes > 0) { items.push('<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>'); holes = 0; } };
		for (let i = 0; i < n; i++) {
			if (!Object.prototype.hasOwnProperty.call(v, i) && Array.isArray(v)) { holes++; continue; }
			flush();
			items.push(formatValue(ctx, v[i], depth + 1, true));
		}
		flush();
		if (v.length > n) items.push('... ' + (v.length - n) + ' more item' + (v.length - n > 1 ? 's' : ''));
	}
	if (ctx.sorted) keys = keys.slice().sort(function (x, y) { return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0; });
	const out = items.concat(entriesOf(ctx, v, keys, depth, kind === 'array'));
	ctx.seen.pop();
	let res;
	if (out.length === 0) {
		res = base !== '' ? base : braces[0] + braces[1];
	} else {
		res = reduce(ctx, kind === 'array' && out.length > 6 ? group(ctx, out, v, depth, items.length) : out, base, braces, depth, out.length);
	}
	const ref = ctx.circular.get(v);
	if (ref !== undefined) res = '<ref *' + ref + '> ' + res;
	return res;
}

// group lays the entries of a long array out in aligned columns, as Node does when they are short and of
// similar length (numbers right-aligned, anything else left-aligned). nItems entries are elements; a trailing
// "... more items" entry and the array's other properties keep their own lines.
function group(ctx, out, v, depth, nItems) {
	let n = nItems;
	if (n > 0 && out[n - 1].startsWith('... ') && out[n - 1].endsWith(' more items')) n--;
	else if (n > 0 && out[n - 1].startsWith('... ') && out[n - 1].endsWith(' more item')) n--;
	if (n <= 6) return out;
	let total = 0, max = 0;
	for (let i = 0; i < n; i++) {
		total += out[i].length + 2;
		if (out[i].length > max) max = out[i].length;
	}
	const actualMax = max + 2;
	const indent = depth * 2;
	if (!(actualMax * 3 + indent < ctx.breakLength && (total / actualMax > 5 || max <= 6))) return out;
	const bias = Math.sqrt(actualMax - total / out.length);
	const biasedMax = Math.max(actualMax - 3 - bias, 1);
	const columns = Math.min(Math.round(Math.sqrt(2.5 * biasedMax * n) / biasedMax),
		Math.floor((ctx.breakLength - indent) / actualMax), ctx.compact * 4, 15);
	if (columns <= 1) return out;
	const widths = [];
	for (let c = 0; c < columns; c++) {
		let w = 0;
		for (let j = c; j < n; j += columns) if (out[j].length > w) w = out[j].length;
		widths.push(w + 2);
	}
	let numeric = true;
	for (let i = 0; i < n; i++) if (typeof v[i] !== 'number' && typeof v[i] !== 'bigint') { numeric = false; break; }
	const rows = [];
	for (let i = 0; i < n; i += columns) {
		const last = Math.min(i + columns, n);
		let row = '';
		let j = i;
		for (; j < last - 1; j++) {
			const cell = out[j] + ', ';
			row += numeric ? cell.padStart(widths[j - i]) : cell.padEnd(widths[j - i]);
		}
		row += numeric ? out[j].padStart(widths[j - i] - 2) : out[j];
		rows.push(row);
	}
	return rows.concat(out.slice(n));
}

function reduce(ctx, out, base, braces, depth, entries) {
	if (entries === undefined) entries = out.length;
	const start = out.length + depth * 2 + braces[0].length + base.length + 10;
	let total = out.length + start;
	let fits = total + out.length <= ctx.breakLength;
	for (let i = 0; fits && i < out.length; i++) {
		total += out[i].length;
		if (total > ctx.breakLength) fits = false;
	}
	const joined = out.join(', ');
	const head = base !== '' ? base + ' ' + braces[0] : braces[0];
	if (ctx.compact !== false && entries === out.length && (ctx.currentDepth - depth < ctx.compact) && fits && !joined.includes('\n') && !base.includes('\n')) return head + ' ' + joined + ' ' + braces[1];
	const ind = '\n';
	return head + ind + '  ' + out.map(function (s) { return s.split('\n').join('\n  '); }).join(',' + ind + '  ') + ind + braces[1];
}

function inspect(v, opts) {
	const ctx = Object.assign({}, defaults, inspect.defaultOptions);
	if (typeof opts === 'boolean') ctx.showHidden = opts;
	else if (opts !== null && typeof opts === 'object') Object.assign(ctx, opts);
	if (arguments.length > 2 && arguments[2] !== undefined) ctx.depth = arguments[2];
	if (ctx.depth === Infinity) ctx.depth = null;
	ctx.seen = [];
	ctx.circular = new Map();
	ctx.currentDepth = 0;
	let s = formatValue(ctx, v, 0, false);
	// a circular reference found after its target's text was made: format again with the numbers known
	if (ctx.circular.size > 0 && !s.startsWith('<ref')) {
		const known = ctx.circular;
		ctx.seen = [];
		ctx.circular = known;
		s = formatValue(ctx, v, 0, false);
	}
	return s;
}
inspect.custom = custom;
inspect.defaultOptions = {};

function formatWithOptions(opts, ...args) {
	const first = args[0];
	let i = 0, out = '';
	if (typeof first === 'string') {
		i = 1;
		let last = 0;
		for (let j = 0; j < first.length - 1; j++) {
			if (first.charCodeAt(j) !== 37) continue;
			const c = first[j + 1];
			let rep;
			if (c === '%') { out += first.slice(last, j) + '%'; last = j + 2; j++; continue; }
			if (i >= args.length) { if ('sdifjoOc'.includes(c)) { j++; } continue; }
			const a = args[i];
			switch (c) {
			case 's':
				if (typeof a === 'bigint') rep = a + 'n';
				else if (typeof a === 'number') rep = Object.is(a, -0) ? '-0' : String(a);
				else if (a !== null && typeof a === 'object') rep = inspect(a, Object.assign({}, opts, { depth: 0 }));
				else if (typeof a === 'symbol') rep = a.toString();
				else rep = String(a);
				break;
			case 'd': rep = typeof a === 'bigint' ? a + 'n' : typeof a === 'symbol' ? 'NaN' : formatPrimitive(Number(a), ctxOf(opts)); break;
			case 'i': rep = typeof a === 'bigint' ? a + 'n' : typeof a === 'symbol' ? 'NaN' : formatPrimitive(parseInt(a), ctxOf(opts)); break;
			case 'f': rep = typeof a === 'symbol' ? 'NaN' : formatPrimitive(parseFloat(a), ctxOf(opts)); break;
			case 'j': try { rep = JSON.stringify(a); } catch (e) { rep = '[Circular]'; } break;
			case 'o': rep = inspect(a, Object.assign({}, opts, { showHidden: true, depth: 4 })); break;
			case 'O': rep = inspect(a, opts); break;
			case 'c': rep = ''; break;
			default: continue;
			}
			out += first.slice(last, j) + rep;
			last = j + 2;
			j++;
			i++;
		}
		out += first.slice(last);
	}
	for (; i < args.length; i++) {
		const a = args[i];
		if (out.length > 0 || i > 0) out += ' ';
		out += typeof a === 'string' ? a : inspect(a, opts);
	}
	return out;
}

function ctxOf(opts) { return Object.assign({}, defaults, opts); }

return {
	inspect: inspect,
	format: function format(...args) { return formatWithOptions(undefined, ...args); },
	formatWithOptions: formatWithOptions,
};
})
