// buffer (node/buffer.go): Node's Buffer, a Uint8Array subclass, and the buffer module. Encodings: utf8/utf-8,
// utf16le/ucs2, latin1/binary, ascii, base64, base64url, hex.
(function (N, require, core) {
'use strict';
const kMaxLength = 0x100000000;
const kStringMaxLength = (1 << 29) - 24;

class FastBuffer extends Uint8Array {
	constructor(a, b, c) { super(a, b, c); }
}

function normEncoding(enc) {
	if (enc === undefined || enc === null || enc === '') return 'utf8';
	switch (String(enc).toLowerCase()) {
	case 'utf8': case 'utf-8': return 'utf8';
	case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
	case 'latin1': case 'binary': return 'latin1';
	case 'ascii': return 'ascii';
	case 'base64': return 'base64';
	case 'base64url': return 'base64url';
	case 'hex': return 'hex';
	}
	return undefined;
}

function encodingOrThrow(enc) {
	const e = normEncoding(enc);
	if (e === undefined) {
		const err = new TypeError('Unknown encoding: ' + enc);
		err.code = 'ERR_UNKNOWN_ENCODING';
		throw err;
	}
	return e;
}

function argError(name, type, v) {
	const e = new TypeError('The "' + name + '" argument must be ' + type + '. Received ' +
		(v === null ? 'null' : v === undefined ? 'undefined' : typeof v === 'object' ? 'an instance of ' + ((v.constructor && v.constructor.name) || 'Object') : 'type ' + typeof v + ' (' + String(v) + ')'));
	e.code = 'ERR_INVALID_ARG_TYPE';
	return e;
}

function rangeError(name, range, v) {
	const e = new RangeError('The value of "' + name + '" is out of range. It must be ' + range + '. Received ' + String(v));
	e.code = 'ERR_OUT_OF_RANGE';
	return e;
}

function checkSize(size) {
	if (typeof size !== 'number') throw argError('size', 'of type number', size);
	if (!(size >= 0 && size <= kMaxLength)) throw rangeError('size', '>= 0 && <= ' + kMaxLength, size);
}

// bytesOf encodes string s.
function bytesOf(s, enc) {
	switch (enc) {
	case 'utf16le': {
		const b = new FastBuffer(s.length * 2);
		for (let i = 0; i < s.length; i++) { const c = s.charCodeAt(i); b[i * 2] = c & 255; b[i * 2 + 1] = c >> 8; }
		return b;
	}
	case 'latin1': case 'ascii': {
		const b = new FastBuffer(s.length);
		for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i) & 255;
		return b;
	}
	}
	return new FastBuffer(N.encode(s, enc));
}

function stringOf(b, enc, start, end) {
	const v = start === 0 && end === b.length ? b : b.subarray(start, end);
	switch (enc) {
	case 'utf16le': {
		let s = '';
		for (let i = 0; i + 1 < v.length; i += 2) s += String.fromCharCode(v[i] | (v[i + 1] << 8));
		return s;
	}
	case 'latin1': case 'ascii': {
		let s = '';
		const mask = enc === 'ascii' ? 127 : 255;
		for (let i = 0; i < v.length; i += 4096) {
			const chunk = v.subarray(i, Math.min(i + 4096, v.length));
			s += String.fromCharCode.apply(null, mask === 255 ? chunk : Array.from(chunk, function (x) { return x & mask; }));
		}
		return s;
	}
	}
	return N.decode(v, enc);
}

function Buffer(arg, encodingOrOffset, length) {
	if (typeof arg === 'number') {
		if (typeof encodingOrOffset === 'string') throw argError('string', 'of type string', arg);
		return Buffer.alloc(arg);
	}
	return Buffer.from(arg, encodingOrOffset, length);
}
Buffer.prototype = FastBuffer.prototype;
Object.defineProperty(FastBuffer.prototype, 'constructor', { value: Buffer, writable: true, configurable: true });
Object.setPrototypeOf(Buffer, Uint8Array);
Object.defineProperty(Buffer, Symbol.species, { get() { return FastBuffer; }, configurable: true });

Buffer.poolSize = 8192;

Buffer.from = function from(value, encodingOrOffset, length) {
	if (typeof value === 'string') return bytesOf(value, encodingOrOffset === undefined ? 'utf8' : encodingOrThrow(encodingOrOffset));
	if (value !== null && typeof value === 'object') {
		if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)) {
			const off = encodingOrOffset === undefined ? 0 : +encodingOrOffset || 0;
			if (off > value.byteLength) { const e = new RangeError('"offset" is outside of buffer bounds'); e.code = 'ERR_BUFFER_OUT_OF_BOUNDS'; throw e; }
			const len = length === undefined ? value.byteLength - off : +length || 0;
			if (off + len > value.byteLength) { const e = new RangeError('"length" is outside of buffer bounds'); e.code = 'ERR_BUFFER_OUT_OF_BOUNDS'; throw e; }
			return new FastBuffer(value, off, len);
		}
		if (ArrayBuffer.isView(value)) {
			if (value instanceof Uint8Array) return new FastBuffer(value);
			const b = new FastBuffer(value.length);
			for (let i = 0; i < value.length; i++) b[i] = value[i];
			return b;
		}
		const prim = value.valueOf && value.valueOf();
		if (prim !== null && prim !== undefined && prim !== value) return Buffer.from(prim, encodingOrOffset, length);
		if (typeof value.length === 'number' || Array.isArray(value)) return new FastBuffer(Array.from(value, function (x) { return +x & 255; }));
		if (value.type === 'Buffer' && Array.isArray(value.data)) return new FastBuffer(value.data);
		if (typeof value[Symbol.toPrimitive] === 'function') return Buffer.from(value[Symbol.toPrimitive]('string'), encodingOrOffset, length);
	}
	throw argError('first argument', 'of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object', value);
};
Buffer.copyBytesFrom = function copyBytesFrom(view, offset, length) {
	if (!ArrayBuffer.isView(view)) throw argError('view', 'an instance of TypedArray', view);
	const start = offset === undefined ? 0 : offset;
	const end = length === undefined ? view.length : start + length;
	const part = view.subarray(start, end);
	return new FastBuffer(new Uint8Array(part.buffer, part.byteOffset, part.byteLength).slice());
};
Buffer.alloc = function alloc(size, fill, encoding) {
	checkSize(size);
	const b = new FastBuffer(size);
	if (fill !== undefined && fill !== 0 && size > 0) b.fill(fill, 0, b.length, encoding);
	return b;
};
Buffer.allocUnsafe = function allocUnsafe(size) { checkSize(size); return new FastBuffer(size); };
Buffer.allocUnsafeSlow = function allocUnsafeSlow(size) { checkSize(size); return new FastBuffer(size); };
Buffer.isBuffer = function isBuffer(b) { return b instanceof Buffer; };
Buffer.isEncoding = function isEncoding(enc) { return typeof enc === 'string' && enc.length > 0 && normEncoding(enc) !== undefined; };
Buffer.byteLength = function byteLength(s, enc) {
	if (typeof s !== 'string') {
		if (ArrayBuffer.isView(s) || s instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && s instanceof SharedArrayBuffer)) return s.byteLength;
		throw argError('string', 'of type string or an instance of Buffer or ArrayBuffer', s);
	}
	const e = normEncoding(enc) || 'utf8';
	switch (e) {
	case 'utf16le': return s.length * 2;
	case 'latin1': case 'ascii': return s.length;
	case 'hex': return s.length >>> 1;
	case 'base64': case 'base64url': {
		// as Node: from the length, less the padding
		let n = s.length;
		if (n > 0 && s.charCodeAt(n - 1) === 0x3D) n--;
		if (n > 1 && s.charCodeAt(n - 1) === 0x3D) n--;
		return (n * 3) >>> 2;
	}
	}
	return N.byteLength(s, e);
};
Buffer.concat = function concat(list, totalLength) {
	if (!Array.isArray(list)) throw argError('list', 'an instance of Array', list);
	if (totalLength === undefined) {
		totalLength = 0;
		for (const b of list) totalLength += b.length;
	}
	const out = Buffer.alloc(totalLength);
	let pos = 0;
	for (let i = 0; i < list.length; i++) {
		const b = list[i];
		if (!(b instanceof Uint8Array)) throw argError('list[' + i + ']', 'an instance of Buffer or Uint8Array', b);
		if (pos >= totalLength) break;
		const part = pos + b.length > totalLength ? b.subarray(0, totalLength - pos) : b;
		out.set(part, pos);
		pos += part.length;
	}
	return out;
};
Buffer.compare = function compare(a, b) {
	if (!(a instanceof Uint8Array)) throw argError('buf1', 'an instance of Buffer or Uint8Array', a);
	if (!(b instanceof Uint8Array)) throw argError('buf2', 'an instance of Buffer or Uint8Array', b);
	return N.compare(a, b);
};

const proto = FastBuffer.prototype;
function clampEnd(v, len) { return v === undefined ? len : Math.max(0, Math.min(len, Math.trunc(+v) || 0)); }
proto.toString = function toString(encoding, start, end) {
	if (arguments.length === 0) return N.decode(this, 'utf8');
	const enc = encodingOrThrow(encoding);
	start = start === undefined ? 0 : Math.max(0, Math.trunc(+start) || 0);
	end = clampEnd(end, this.length);
	if (end <= start) return '';
	return stringOf(this, enc, start, end);
};
proto.toLocaleString = proto.toString;
proto.equals = function equals(other) {
	if (!(other instanceof Uint8Array)) throw argError('otherBuffer', 'an instance of Buffer or Uint8Array', other);
	return this === other || (this.length === other.length && N.compare(this, other) === 0);
};
proto.compare = function compare(target, tStart, tEnd, sStart, sEnd) {
	if (!(target instanceof Uint8Array)) throw argError('target', 'an instance of Buffer or Uint8Array', target);
	const t = target.subarray(tStart === undefined ? 0 : tStart, tEnd === undefined ? target.length : tEnd);
	const s = this.subarray(sStart === undefined ? 0 : sStart, sEnd === undefined ? this.length : sEnd);
	return N.compare(s, t);
};
proto.copy = function copy(target, targetStart, sourceStart, sourceEnd) {
	targetStart = targetStart === undefined ? 0 : Math.trunc(targetStart);
	sourceStart = sourceStart === undefined ? 0 : Math.trunc(sourceStart);
	sourceEnd = sourceEnd === undefined ? this.length : Math.min(this.length, Math.trunc(sourceEnd));
	if (targetStart < 0) throw rangeError('targetStart', '>= 0', targetStart);
	if (sourceStart < 0 || sourceStart > this.length) throw rangeError('sourceStart', '>= 0 && <= ' + this.length, sourceStart);
	const n = Math.max(0, Math.min(sourceEnd - sourceStart, target.length - targetStart));
	if (n > 0) target.set(this.subarray(sourceStart, sourceStart + n), targetStart);
	return n;
};
proto.slice = function slice(start, end) { return this.subarray(start, end); };
proto.write = function write(string, offset, length, encoding) {
	if (typeof offset === 'string') { encoding = offset; offset = 0; length = this.length; }
	else if (typeof length === 'string') { encoding = length; length = this.length - (offset || 0); }
	offset = offset === undefined ? 0 : offset >>> 0;
	if (offset > this.length) throw rangeError('offset', '>= 0 && <= ' + this.length, offset);
	const max = this.length - offset;
	length = length === undefined ? max : Math.min(max, length >>> 0);
	const enc = encodingOrThrow(encoding);
	const target = this.subarray(offset, offset + length);
	if (enc === 'utf8' || enc === 'hex' || enc === 'base64' || enc === 'base64url') return N.write(target, string, enc);
	const b = bytesOf(string, enc);
	const n = enc === 'utf16le' ? Math.min(b.length, target.length & ~1) : Math.min(b.length, target.length);
	target.set(b.subarray(0, n));
	return n;
};
proto.fill = function fill(value, offset, end, encoding) {
	if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; }
	else if (typeof end === 'string') { encoding = end; end = this.length; }
	offset = offset === undefined ? 0 : offset;
	end = end === undefined ? this.length : end;
	if (offset < 0 || offset > this.length) throw rangeError('offset', '>= 0 && <= ' + this.length, offset);
	if (end < 0 || end > this.length) throw rangeError('end', '>= 0 && <= ' + this.length, end);
	if (end <= offset) return this;
	if (typeof value === 'number') { Uint8Array.prototype.fill.call(this, value & 255, offset, end); return this; }
	if (typeof value === 'boolean') { Uint8Array.prototype.fill.call(this, +value, offset, end); return this; }
	const b = typeof value === 'string' ? bytesOf(value, encodingOrThrow(encoding)) : value instanceof Uint8Array ? value : Buffer.from(value);
	if (b.length === 0) {
		if (typeof value === 'string' && value.length > 0) {
			const e = new TypeError('The argument \'value\' is invalid. Received ' + require('internal/inspect').inspect(value));
			e.code = 'ERR_INVALID_ARG_VALUE';
			throw e;
		}
		Uint8Array.prototype.fill.call(this, 0, offset, end);
		return this;
	}
	for (let i = offset; i < end; i++) this[i] = b[(i - offset) % b.length];
	return this;
};
function needleOf(value, enc) {
	if (typeof value === 'string') return bytesOf(value, encodingOrThrow(enc));
	if (value instanceof Uint8Array) return value;
	throw argError('value', 'one of type number or string or an instance of Buffer or Uint8Array', value);
}
function search(buf, value, byteOffset, encoding, last) {
	if (typeof byteOffset === 'string') { encoding = byteOffset; byteOffset = undefined; }
	let from = byteOffset === undefined ? (last ? buf.length : 0) : Math.trunc(+byteOffset);
	if (Number.isNaN(from)) from = last ? buf.length : 0;
	if (from < 0) from += buf.length;
	if (typeof value === 'number') {
		value &= 255;
		if (last) { for (let i = Math.min(from, buf.length - 1); i >= 0; i--) if (buf[i] === value) return i; return -1; }
		for (let i = Math.max(0, from); i < buf.length; i++) if (buf[i] === value) return i;
		return -1;
	}
	const needle = needleOf(value, encoding);
	if (!last && from < 0) from = 0;
	if (last && from < 0) return -1;
	if (needle.length === 0) return last ? Math.min(from, buf.length) : Math.min(from, buf.length);
	return N.indexOf(buf, needle, from, last);
}
proto.indexOf = function indexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false); };
proto.lastIndexOf = function lastIndexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true); };
proto.includes = function includes(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false) !== -1; };
proto.toJSON = function toJSON() { return { type: 'Buffer', data: Array.from(this) }; };
proto.swap16 = function swap16() { return swap(this, 2); };
proto.swap32 = function swap32() { return swap(this, 4); };
proto.swap64 = function swap64() { return swap(this, 8); };
function swap(b, n) {
	if (b.length % n !== 0) { const e = new RangeError('Buffer size must be a multiple of ' + (n * 8) + '-bits'); e.code = 'ERR_INVALID_BUFFER_SIZE'; throw e; }
	for (let i = 0; i < b.length; i += n) for (let j = 0; j < n / 2; j++) { const t = b[i + j]; b[i + j] = b[i + n - 1 - j]; b[i + n - 1 - j] = t; }
	return b;
}
Object.defineProperty(proto, 'parent', { get() { return this.buffer; }, configurable: true, enumerable: true });
Object.defineProperty(proto, 'offset', { get() { return this.byteOffset; }, configurable: true, enumerable: true });
proto[Symbol.for('nodejs.util.inspect.custom')] = function inspect() {
	const max = module.INSPECT_MAX_BYTES;
	const hex = [];
	for (let i = 0; i < Math.min(max, this.length); i++) hex.push(this[i].toString(16).padStart(2, '0'));
	let s = '<Buffer' + (hex.length ? ' ' + hex.join(' ') : '');
	if (this.length > max) s += ' ... ' + (this.length - max) + ' more byte' + (this.length - max > 1 ? 's' : '');
	return s + '>';
};

// numbers: through a DataView over the buffer's bytes
function view(b) { return new DataView(b.buffer, b.byteOffset, b.byteLength); }
function checkOffset(b, offset, size) {
	if (offset === undefined) offset = 0;
	if (typeof offset !== 'number') throw argError('offset', 'of type number', offset);
	if (offset !== Math.floor(offset)) throw rangeError('offset', 'an integer', offset);
	if (offset < 0 || offset + size > b.length) {
		if (b.length - size < 0) { const e = new RangeError('Attempt to access memory outside buffer bounds'); e.code = 'ERR_BUFFER_OUT_OF_BOUNDS'; throw e; }
		throw rangeError('offset', '>= 0 and <= ' + (b.length - size), offset);
	}
	return offset;
}
const numTypes = [
	['UInt8', 1, 'getUint8', 'setUint8', 0, 255], ['Int8', 1, 'getInt8', 'setInt8', -128, 127],
	['UInt16', 2, 'getUint16', 'setUint16', 0, 65535], ['Int16', 2, 'getInt16', 'setInt16', -32768, 32767],
	['UInt32', 4, 'getUint32', 'setUint32', 0, 4294967295], ['Int32', 4, 'getInt32', 'setInt32', -2147483648, 2147483647],
	['Float', 4, 'getFloat32', 'setFloat32'], ['Double', 8, 'getFloat64', 'setFloat64'],
	['BigUInt64', 8, 'getBigUint64', 'setBigUint64', 0n, 2n ** 64n - 1n], ['BigInt64', 8, 'getBigInt64', 'setBigInt64', -(2n ** 63n), 2n ** 63n - 1n],
];
for (const [name, size, get, set, min, max] of numTypes) {
	for (const end of size === 1 ? [''] : ['LE', 'BE']) {
		const little = end === 'LE';
		const r = function (offset) { offset = checkOffset(this, offset, size); return view(this)[get](offset, little); };
		const w = function (value, offset) {
			offset = checkOffset(this, offset, size);
			if (min !== undefined) {
				if (typeof min === 'bigint' && typeof value !== 'bigint') throw argError('value', 'of type bigint', value);
				if (value < min || value > max) throw rangeError('value', '>= ' + min + (typeof min === 'bigint' ? 'n' : '') + ' and <= ' + max + (typeof min === 'bigint' ? 'n' : ''), value);
			}
			view(this)[set](offset, typeof min === 'bigint' ? value : +value, little);
			return offset + size;
		};
		proto['read' + name + end] = r;
		proto['write' + name + end] = w;
		if (name.startsWith('UInt') || name.startsWith('BigUInt')) {
			proto['read' + name.replace('UInt', 'Uint') + end] = r;
			proto['write' + name.replace('UInt', 'Uint') + end] = w;
		}
	}
}
function checkByteLength(n) {
	if (typeof n !== 'number' || n < 1 || n > 6 || n !== Math.floor(n)) throw rangeError('byteLength', '>= 1 and <= 6', n);
}
proto.readUIntLE = function readUIntLE(offset, byteLength) {
	checkByteLength(byteLength); offset = checkOffset(this, offset, byteLength);
	let v = 0;
	for (let i = byteLength - 1; i >= 0; i--) v = v * 256 + this[offset + i];
	return v;
};
proto.readUIntBE = function readUIntBE(offset, byteLength) {
	checkByteLength(byteLength); offset = checkOffset(this, offset, byteLength);
	let v = 0;
	for (let i = 0; i < byteLength; i++) v = v * 256 + this[offset + i];
	return v;
};
proto.readIntLE = function readIntLE(offset, byteLength) {
	const v = this.readUIntLE(offset, byteLength), lim = 2 ** (8 * byteLength - 1);
	return v >= lim ? v - lim * 2 : v;
};
proto.readIntBE = function readIntBE(offset, byteLength) {
	const v = this.readUIntBE(offset, byteLength), lim = 2 ** (8 * byteLength - 1);
	return v >= lim ? v - lim * 2 : v;
};
function writeInt(b, value, offset, byteLength, little, signed) {
	checkByteLength(byteLength); offset = checkOffset(b, offset, byteLength);
	const lim = 2 ** (8 * byteLength);
	const min = signed ? -lim / 2 : 0, max = signed ? lim / 2 - 1 : lim - 1;
	if (value < min || value > max) throw rangeError('value', '>= ' + min + ' and <= ' + max, value);
	let v = value < 0 ? value + lim : value;
	for (let i = 0; i < byteLength; i++) {
		b[little ? offset + i : offset + byteLength - 1 - i] = v % 256;
		v = Math.floor(v / 256);
	}
	return offset + byteLength;
}
proto.writeUIntLE = function writeUIntLE(v, o, n) { return writeInt(this, v, o, n, true, false); };
proto.writeUIntBE = function writeUIntBE(v, o, n) { return writeInt(this, v, o, n, false, false); };
proto.writeIntLE = function writeIntLE(v, o, n) { return writeInt(this, v, o, n, true, true); };
proto.writeIntBE = function writeIntBE(v, o, n) { return writeInt(this, v, o, n, false, true); };
proto.readUintLE = proto.readUIntLE; proto.readUintBE = proto.readUIntBE;
proto.writeUintLE = proto.writeUIntLE; proto.writeUintBE = proto.writeUIntBE;
for (const enc of ['utf8', 'latin1', 'ascii', 'hex', 'base64', 'base64url', 'utf16le', 'ucs2']) {
	proto[enc + 'Slice'] = function (s, e) { return this.toString(enc, s, e); };
	proto[enc + 'Write'] = function (str, o, l) { return this.write(str, o, l, enc); };
}

function SlowBuffer(size) { return Buffer.allocUnsafeSlow(size); }
SlowBuffer.prototype = Buffer.prototype;

const notSupported = function (name) {
	return function () { throw new Error('jsworker: buffer.' + name + ' is not supported'); };
};
const g = require('internal/globals');
const module = {
	Buffer: Buffer,
	SlowBuffer: SlowBuffer,
	kMaxLength: kMaxLength,
	kStringMaxLength: kStringMaxLength,
	constants: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength },
	INSPECT_MAX_BYTES: 50,
	atob: g.atob,
	btoa: g.btoa,
	isUtf8(input) { return N.isUtf8(input instanceof Uint8Array ? input : new Uint8Array(input.buffer || input)); },
	isAscii(input) { const b = input instanceof Uint8Array ? input : new Uint8Array(input.buffer || input); for (let i = 0; i < b.length; i++) if (b[i] > 127) return false; return true; },
	transcode: notSupported('transcode'),
	resolveObjectURL: notSupported('resolveObjectURL'),
};
const blob = require('internal/blob');
module.Blob = blob.Blob;
module.File = blob.File;
return module;
})
