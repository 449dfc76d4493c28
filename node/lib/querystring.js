// querystring (node/builtins.go): Node's legacy querystring module.
(function (N, require, core) {
'use strict';
const noEscape = /[A-Za-z0-9\-_.!~*'()]/;

function qsEscape(str) {
	if (typeof str !== 'string') {
		if (typeof str === 'object') str = String(str); else str += '';
	}
	let out = '';
	for (const ch of str) {
		if (noEscape.test(ch)) { out += ch; continue; }
		const cp = ch.codePointAt(0);
		if (cp >= 0xD800 && cp <= 0xDFFF) { const e = new URIError('URI malformed'); e.code = 'ERR_INVALID_URI'; throw e; }
		out += encodeURIComponent(ch).replace(/[!'()*]/g, function (c) { return '%' + c.charCodeAt(0).toString(16).toUpperCase(); });
	}
	return out;
}

function qsUnescape(s) {
	try { return decodeURIComponent(s); } catch (e) { return unescapeBuffer(s); }
}

function unescapeBuffer(s) {
	const bytes = [];
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c === 37 && i + 2 < s.length + 0 && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
			bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
			i += 2;
		} else {
			const enc = new globalThis.TextEncoder().encode(s[i]);
			for (const b of enc) bytes.push(b);
		}
	}
	return new globalThis.TextDecoder().decode(new Uint8Array(bytes));
}

function stringifyPrim(v) {
	if (typeof v === 'string') return v;
	if (typeof v === 'number' && isFinite(v)) return '' + v;
	if (typeof v === 'bigint') return '' + v;
	if (typeof v === 'boolean') return v ? 'true' : 'false';
	return '';
}

function stringify(obj, sep, eq, options) {
	sep = sep || '&';
	eq = eq || '=';
	const encode = options && typeof options.encodeURIComponent === 'function' ? options.encodeURIComponent : qsEscape;
	if (obj === null || typeof obj !== 'object') return '';
	const parts = [];
	for (const k of Object.keys(obj)) {
		const v = obj[k];
		const ks = encode(stringifyPrim(k)) + eq;
		if (Array.isArray(v)) for (const x of v) parts.push(ks + encode(stringifyPrim(x)));
		else parts.push(ks + encode(stringifyPrim(v)));
	}
	return parts.join(sep);
}

function parse(qs, sep, eq, options) {
	const obj = Object.create(null);
	if (typeof qs !== 'string' || qs.length === 0) return obj;
	sep = sep || '&';
	eq = eq || '=';
	let max = 1000;
	if (options && typeof options.maxKeys === 'number') max = options.maxKeys;
	const decode = options && typeof options.decodeURIComponent === 'function' ? options.decodeURIComponent : qsUnescape;
	let pairs = qs.split(sep);
	if (max > 0 && pairs.length > max) pairs = pairs.slice(0, max);
	for (const p of pairs) {
		if (p.length === 0 && pairs.length > 1) continue;
		const i = p.indexOf(eq);
		let k, v;
		if (i >= 0) { k = p.slice(0, i); v = p.slice(i + eq.length); } else { k = p; v = ''; }
		k = decode(k.replace(/\+/g, ' '));
		v = decode(v.replace(/\+/g, ' '));
		if (k in obj) {
			if (Array.isArray(obj[k])) obj[k].push(v); else obj[k] = [obj[k], v];
		} else {
			obj[k] = v;
		}
	}
	return obj;
}

return {
	parse: parse, decode: parse, stringify: stringify, encode: stringify,
	escape: qsEscape, unescape: qsUnescape, unescapeBuffer: function (s) { return require('buffer').Buffer.from(unescapeBuffer(s)); },
};
})
