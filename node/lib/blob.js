// internal/blob (node/blob.go): Blob and File as Node 20 has them (also buffer.Blob/File and the globals). The
// bytes live in Go, immutable, behind a handle in a private field: slicing shares them, cloning copies them once.
(function (N, require, core) {
'use strict';
const { inspect } = require('internal/inspect');
const kInspect = Symbol.for('nodejs.util.inspect.custom');
const disallowedType = /[^\u0020-\u007E]/;
const isView = ArrayBuffer.isView;
// kFromHandle, as the first constructor argument, makes a Blob or File from a handle (a slice, a clone): only this
// module has it.
const kFromHandle = Object.freeze({});

function argType(name, v) {
	const e = new TypeError('The "' + name + '" argument must be a sequence. Received ' + describe(v));
	e.code = 'ERR_INVALID_ARG_TYPE';
	return e;
}

function describe(v) {
	if (v === null || v === undefined) return String(v);
	if (typeof v === 'function') return 'function ' + (v.name || '');
	if (typeof v === 'object') return 'an instance of ' + ((v.constructor && v.constructor.name) || 'Object');
	let s = typeof v === 'string' ? "'" + v + "'" : String(v);
	if (s.length > 28) s = s.slice(0, 25) + '...';
	return 'type ' + typeof v + ' (' + s + ')';
}

function normType(type) {
	type = `${type}`;
	return disallowedType.test(type) ? '' : type.toLowerCase();
}

function relIndex(v, len, dflt) {
	if (v === undefined) return dflt;
	let n = Math.trunc(Number(v));
	if (Number.isNaN(n)) n = 0;
	if (n < 0) return Math.max(len + n, 0);
	return Math.min(n, len);
}

function invalidThis(what) {
	const e = new TypeError('Value of "this" must be of type ' + what);
	e.code = 'ERR_INVALID_THIS';
	return e;
}

class Blob {
	#h;
	#type;
	constructor(sources = [], options) {
		if (sources === kFromHandle) {
			this.#h = options.h;
			this.#type = options.type;
			return;
		}
		if (sources === null || typeof sources[Symbol.iterator] !== 'function' || typeof sources === 'string') {
			throw argType('sources', sources);
		}
		if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
			const e = new TypeError('The "options" argument must be a dictionary. Received ' + describe(options));
			e.code = 'ERR_INVALID_ARG_TYPE';
			throw e;
		}
		const o = options || {};
		const endings = o.endings === undefined ? 'transparent' : `${o.endings}`;
		if (endings !== 'transparent' && endings !== 'native') {
			const e = new TypeError("The property 'options.endings' is invalid. Received " + inspect(o.endings));
			e.code = 'ERR_INVALID_ARG_VALUE';
			throw e;
		}
		const parts = [];
		for (const s of sources) {
			if (#h in Object(s)) {
				parts.push(s.#h);
			} else if (s instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && s instanceof SharedArrayBuffer)) {
				parts.push(new Uint8Array(s));
			} else if (isView(s)) {
				parts.push(new Uint8Array(s.buffer, s.byteOffset, s.byteLength));
			} else {
				parts.push(`${s}`);
			}
		}
		// endings 'native' turns \r\n and \r into the platform's line end, \n here.
		this.#h = N.make(parts, endings === 'native');
		this.#type = o.type === undefined ? '' : normType(o.type);
	}

	get size() {
		if (!(#h in Object(this))) throw invalidThis('Blob');
		return N.size(this.#h);
	}

	get type() {
		if (!(#h in Object(this))) throw invalidThis('Blob');
		return this.#type;
	}

	slice(start = 0, end = undefined, contentType = undefined) {
		if (!(#h in Object(this))) throw invalidThis('Blob');
		const len = N.size(this.#h);
		const s = relIndex(start, len, 0);
		const e = relIndex(end, len, len);
		return new Blob(kFromHandle, { h: N.slice(this.#h, s, Math.max(e, s)), type: contentType === undefined ? '' : normType(contentType) });
	}

	text() {
		if (!(#h in Object(this))) return Promise.reject(invalidThis('Blob'));
		return Promise.resolve(N.text(this.#h));
	}

	arrayBuffer() {
		if (!(#h in Object(this))) return Promise.reject(invalidThis('Blob'));
		return Promise.resolve(N.arrayBuffer(this.#h));
	}

	bytes() {
		if (!(#h in Object(this))) return Promise.reject(invalidThis('Blob'));
		return Promise.resolve(new Uint8Array(N.arrayBuffer(this.#h)));
	}

	stream() {
		throw new Error('jsworker: Blob.prototype.stream is not supported (there are no web streams); use arrayBuffer() or text()');
	}

	[kInspect](depth, options) {
		if (depth < 0) return this;
		return this.constructor.name + ' ' + inspect(fields(this), options);
	}

	static state(o) { return #h in o ? [o.#h, o.#type] : undefined; }
}
const blobState = Blob.state;
delete Blob.state;

Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true });
for (const k of ['size', 'type', 'slice', 'text', 'arrayBuffer', 'bytes', 'stream']) {
	Object.defineProperty(Blob.prototype, k, { enumerable: true });
}

function fields(b) {
	const o = { size: b.size, type: b.type };
	if (b instanceof File) { o.name = b.name; o.lastModified = b.lastModified; }
	return o;
}

class File extends Blob {
	#name;
	#lastModified;
	constructor(fileBits, fileName, options = {}) {
		if (arguments.length < 2) {
			const e = new TypeError('The "fileBits" and "fileName" arguments must be specified');
			e.code = 'ERR_MISSING_ARGS';
			throw e;
		}
		if (fileBits === kFromHandle) {
			super(kFromHandle, fileName);
			this.#name = fileName.name;
			this.#lastModified = fileName.lastModified;
			return;
		}
		super(fileBits, options);
		let lastModified = options === null ? undefined : options.lastModified;
		if (lastModified !== undefined) {
			lastModified = +lastModified;
			if (Number.isNaN(lastModified)) lastModified = 0;
		} else {
			lastModified = Date.now();
		}
		this.#name = `${fileName}`;
		this.#lastModified = lastModified;
	}

	get name() {
		if (!(#name in Object(this))) throw invalidThis('File');
		return this.#name;
	}

	get lastModified() {
		if (!(#name in Object(this))) throw invalidThis('File');
		return this.#lastModified;
	}

	static state(o) { return #name in o ? [o.#name, o.#lastModified] : undefined; }
}
Object.defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true });
for (const k of ['name', 'lastModified']) Object.defineProperty(File.prototype, k, { enumerable: true });
const fileState = File.state;
delete File.state;

N.register(Blob.prototype, File.prototype, blobState, fileState,
	(h, type) => new Blob(kFromHandle, { h, type }),
	(h, type, name, lastModified) => new File(kFromHandle, { h, type, name, lastModified }));

return { Blob, File };
})
