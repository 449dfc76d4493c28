// path (node/builtins.go): Node's path module for POSIX paths. path.win32 is not provided: using it throws an
// error that names it.
(function (N, require, core) {
'use strict';

function checkString(v, name) {
	if (typeof v !== 'string') {
		const e = new TypeError('The "' + name + '" argument must be of type string. Received ' +
			(v === null ? 'null' : v === undefined ? 'undefined' : 'type ' + typeof v + ' (' + String(v) + ')'));
		e.code = 'ERR_INVALID_ARG_TYPE';
		throw e;
	}
}

// normalizeParts resolves '.' and '..' in the segments of p; absolute paths drop '..' at the root.
function normalizeString(p, absolute) {
	const out = [];
	for (const seg of p.split('/')) {
		if (seg === '' || seg === '.') continue;
		if (seg === '..') {
			if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
			else if (!absolute) out.push('..');
		} else {
			out.push(seg);
		}
	}
	return out.join('/');
}

function cwd() { return typeof globalThis.process === 'object' ? globalThis.process.cwd() : '/'; }

const posix = {
	sep: '/',
	delimiter: ':',
	resolve(...args) {
		let resolved = '', absolute = false;
		for (let i = args.length - 1; i >= -1 && !absolute; i--) {
			const p = i >= 0 ? args[i] : cwd();
			checkString(p, 'paths[' + i + ']');
			if (p.length === 0) continue;
			resolved = p + '/' + resolved;
			absolute = p.charCodeAt(0) === 47;
		}
		resolved = normalizeString(resolved, absolute);
		if (absolute) return '/' + resolved;
		return resolved.length > 0 ? resolved : '.';
	},
	normalize(p) {
		checkString(p, 'path');
		if (p.length === 0) return '.';
		const absolute = p.charCodeAt(0) === 47;
		const trailing = p.charCodeAt(p.length - 1) === 47;
		let s = normalizeString(p, absolute);
		if (s.length === 0) {
			if (absolute) return '/';
			return trailing ? './' : '.';
		}
		if (trailing) s += '/';
		return absolute ? '/' + s : s;
	},
	isAbsolute(p) { checkString(p, 'path'); return p.length > 0 && p.charCodeAt(0) === 47; },
	join(...args) {
		if (args.length === 0) return '.';
		const parts = [];
		for (const a of args) {
			checkString(a, 'path');
			if (a.length > 0) parts.push(a);
		}
		if (parts.length === 0) return '.';
		return posix.normalize(parts.join('/'));
	},
	relative(from, to) {
		checkString(from, 'from');
		checkString(to, 'to');
		if (from === to) return '';
		from = posix.resolve(from);
		to = posix.resolve(to);
		if (from === to) return '';
		const f = from === '/' ? [] : from.slice(1).split('/');
		const t = to === '/' ? [] : to.slice(1).split('/');
		let i = 0;
		while (i < f.length && i < t.length && f[i] === t[i]) i++;
		const up = f.slice(i).map(function () { return '..'; });
		return up.concat(t.slice(i)).join('/');
	},
	toNamespacedPath(p) { return p; },
	dirname(p) {
		checkString(p, 'path');
		if (p.length === 0) return '.';
		const absolute = p.charCodeAt(0) === 47;
		let end = -1, matched = true;
		for (let i = p.length - 1; i >= 1; i--) {
			if (p.charCodeAt(i) === 47) {
				if (!matched) { end = i; break; }
			} else {
				matched = false;
			}
		}
		if (end === -1) return absolute ? '/' : '.';
		if (absolute && end === 1) return '//';
		return p.slice(0, end);
	},
	basename(p, ext) {
		checkString(p, 'path');
		if (ext !== undefined) checkString(ext, 'ext');
		let end = p.length;
		while (end > 0 && p.charCodeAt(end - 1) === 47) end--;
		if (end === 0) return '';
		const start = p.lastIndexOf('/', end - 1) + 1;
		let base = p.slice(start, end);
		if (ext !== undefined && ext.length > 0 && base.endsWith(ext)) {
			// Node: a base equal to ext stays whole after a slash, and is emptied when it is the whole path
			if (base !== ext) base = base.slice(0, base.length - ext.length);
			else if (start === 0) base = '';
		}
		return base;
	},
	extname(p) {
		checkString(p, 'path');
		const base = posix.basename(p);
		const dot = base.lastIndexOf('.');
		if (dot <= 0) return '';
		if (dot === base.length - 1) return base === '..' ? '' : '.';
		return base.slice(dot);
	},
	format(o) {
		if (o === null || typeof o !== 'object') {
			const e = new TypeError('The "pathObject" argument must be of type object. Received ' + (o === null ? 'null' : 'type ' + typeof o));
			e.code = 'ERR_INVALID_ARG_TYPE';
			throw e;
		}
		const dir = o.dir || o.root;
		let ext = o.ext || '';
		if (ext !== '' && ext[0] !== '.') ext = '.' + ext;
		const base = o.base || ((o.name || '') + ext);
		if (!dir) return base;
		return dir === o.root ? dir + base : dir + '/' + base;
	},
	parse(p) {
		checkString(p, 'path');
		const r = { root: '', dir: '', base: '', ext: '', name: '' };
		if (p.length === 0) return r;
		if (p.charCodeAt(0) === 47) r.root = '/';
		let end = p.length;
		while (end > 1 && p.charCodeAt(end - 1) === 47) end--;
		const trimmed = p.slice(0, end);
		if (trimmed === '/') return Object.assign(r, { dir: '/' });
		r.base = posix.basename(trimmed);
		r.ext = posix.extname(r.base);
		r.name = r.ext.length > 0 ? r.base.slice(0, r.base.length - r.ext.length) : r.base;
		const slash = trimmed.lastIndexOf('/');
		if (slash > 0) r.dir = trimmed.slice(0, slash);
		else if (slash === 0) r.dir = '/';
		return r;
	},
	matchesGlob() { throw new Error('jsworker: path.matchesGlob is not supported'); },
};

const win32 = new Proxy({}, {
	get(_, k) {
		if (k === Symbol.toPrimitive || k === 'then' || typeof k === 'symbol') return undefined;
		throw new Error('jsworker: path.win32 is not supported (path.win32.' + String(k) + '): jsworker provides POSIX paths only');
	},
});
posix.posix = posix;
posix.win32 = win32;
return posix;
})
