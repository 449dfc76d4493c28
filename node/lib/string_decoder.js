// string_decoder (node/builtins.go): StringDecoder, which keeps the bytes of a character split across writes
// (utf8, utf16le, base64, base64url) until the rest arrives.
(function (N, require, core) {
'use strict';
const { Buffer } = require('buffer');
const kBuf = Symbol('kBuf');

function normalize(enc) {
	const e = enc === undefined || enc === null ? 'utf8' : String(enc).toLowerCase();
	switch (e) {
	case 'utf8': case 'utf-8': return 'utf8';
	case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
	case 'latin1': case 'binary': return 'latin1';
	case 'ascii': case 'hex': case 'base64': case 'base64url': return e;
	}
	const err = new TypeError('Unknown encoding: ' + enc);
	err.code = 'ERR_UNKNOWN_ENCODING';
	throw err;
}

// utf8Complete returns how many bytes at the start of b form whole UTF-8 sequences (a trailing partial one is
// held back; invalid bytes are not).
function utf8Complete(b) {
	const n = b.length;
	for (let back = 1; back <= Math.min(3, n); back++) {
		const c = b[n - back];
		if ((c & 0xC0) === 0x80) continue; // continuation byte
		let need = 0;
		if ((c & 0xE0) === 0xC0) need = 2; else if ((c & 0xF0) === 0xE0) need = 3; else if ((c & 0xF8) === 0xF0) need = 4;
		return need > back ? n - back : n;
	}
	return n;
}

class StringDecoder {
	constructor(encoding) {
		this.encoding = normalize(encoding);
		Object.defineProperty(this, kBuf, { value: Buffer.alloc(0), writable: true });
	}
	write(buf) {
		if (typeof buf === 'string') return buf;
		if (!ArrayBuffer.isView(buf)) throw new TypeError('The "buf" argument must be an instance of Buffer, TypedArray, or DataView.');
		let b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
		if (this[kBuf].length > 0) b = Buffer.concat([this[kBuf], b]);
		let keep;
		switch (this.encoding) {
		case 'utf8': keep = utf8Complete(b); break;
		case 'utf16le': {
			keep = b.length - (b.length % 2);
			if (keep >= 2) { const hi = b[keep - 1]; if (hi >= 0xD8 && hi <= 0xDB) keep -= 2; }
			break;
		}
		case 'base64': case 'base64url': keep = b.length - (b.length % 3); break;
		default: keep = b.length;
		}
		this[kBuf] = Buffer.from(b.subarray(keep));
		return b.toString(this.encoding, 0, keep);
	}
	end(buf) {
		let s = buf === undefined ? '' : this.write(buf);
		if (this[kBuf].length > 0) {
			s += this.encoding === 'utf8' ? '\ufffd' : this[kBuf].toString(this.encoding);
			this[kBuf] = Buffer.alloc(0);
		}
		return s;
	}
	text(buf, offset) { return this.write(buf.subarray(offset)); }
	get lastNeed() { return 0; }
	get lastTotal() { return this[kBuf].length; }
}

return { StringDecoder: StringDecoder };
})
