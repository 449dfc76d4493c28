// crypto (node/crypto.go): randomBytes, randomFillSync, randomInt, randomUUID, getRandomValues, createHash and
// createHmac (md5, sha1, sha224, sha256, sha384, sha512), timingSafeEqual, and webcrypto (the crypto global).
// Ciphers, keys, signatures and crypto.subtle are not provided: they throw an error naming them.
(function (N, require, core) {
'use strict';
const { Buffer } = require('buffer');
const { DOMException } = require('internal/globals');

function typeError(code, msg) { const e = new TypeError(msg); e.code = code; return e; }

function getRandomValues(a) {
	if (!ArrayBuffer.isView(a) || a instanceof Float32Array || a instanceof Float64Array || a instanceof DataView) {
		throw new DOMException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
	}
	if (a.byteLength > 65536) {
		throw new DOMException('The ArrayBufferView\'s byte length (' + a.byteLength + ') exceeds the number of bytes of entropy available via this API (65536)', 'QuotaExceededError');
	}
	N.randomFill(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
	return a;
}

function randomUUID() {
	const b = new Uint8Array(16);
	N.randomFill(b);
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	const h = Array.from(b, function (x) { return x.toString(16).padStart(2, '0'); }).join('');
	return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
}

function checkSize(size) {
	if (typeof size !== 'number') throw typeError('ERR_INVALID_ARG_TYPE', 'The "size" argument must be of type number. Received type ' + typeof size);
	if (!(size >= 0 && size <= 2147483647)) {
		const e = new RangeError('The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ' + size);
		e.code = 'ERR_OUT_OF_RANGE';
		throw e;
	}
}

function randomBytes(size, callback) {
	checkSize(size);
	const b = Buffer.alloc(size);
	N.randomFill(b);
	if (typeof callback === 'function') { globalThis.process.nextTick(callback, null, b); return undefined; }
	return b;
}

function randomFillSync(buf, offset, size) {
	const u8 = new Uint8Array(buf.buffer || buf, buf.byteOffset || 0, buf.byteLength);
	const start = offset === undefined ? 0 : offset;
	const end = size === undefined ? u8.length : start + size;
	N.randomFill(u8.subarray(start, end));
	return buf;
}

function randomInt(min, max, callback) {
	if (max === undefined || typeof max === 'function') { callback = max; max = min; min = 0; }
	if (!Number.isSafeInteger(min)) throw typeError('ERR_INVALID_ARG_TYPE', 'The "min" argument must be a safe integer.');
	if (!Number.isSafeInteger(max)) throw typeError('ERR_INVALID_ARG_TYPE', 'The "max" argument must be a safe integer.');
	if (max <= min) {
		const e = new RangeError('The value of "max" is out of range. It must be greater than the value of "min" (' + min + '). Received ' + max);
		e.code = 'ERR_OUT_OF_RANGE';
		throw e;
	}
	const range = max - min;
	const b = new Uint8Array(6);
	const limit = 2 ** 48 - (2 ** 48 % range);
	let x;
	do { N.randomFill(b); x = b.reduce(function (a, v) { return a * 256 + v; }, 0); } while (x >= limit);
	const r = min + (x % range);
	if (typeof callback === 'function') { globalThis.process.nextTick(callback, null, r); return undefined; }
	return r;
}

function toBytes(data, enc) {
	if (typeof data === 'string') return Buffer.from(data, enc === undefined ? 'utf8' : enc);
	if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
	if (data instanceof ArrayBuffer) return new Uint8Array(data);
	throw typeError('ERR_INVALID_ARG_TYPE', 'The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView.');
}

const kState = Symbol('kState');
class Hash {
	constructor(alg, key, kind) {
		const st = N.newHash(String(alg), key);
		if (st === null) {
			const e = new Error(kind === 'Hmac' ? 'Invalid digest: ' + alg : 'Digest method not supported');
			if (kind === 'Hmac') e.code = 'ERR_CRYPTO_INVALID_DIGEST';
			throw e;
		}
		Object.defineProperty(this, kState, { value: { update: st[0], digest: st[1], done: false, alg: alg, kind: kind } });
	}
	update(data, enc) {
		const st = this[kState];
		if (st.done) { const e = new Error('Digest already called'); e.code = 'ERR_CRYPTO_HASH_FINALIZED'; throw e; }
		st.update(toBytes(data, enc));
		return this;
	}
	digest(enc) {
		const st = this[kState];
		if (st.done) { const e = new Error('Digest already called'); e.code = 'ERR_CRYPTO_HASH_FINALIZED'; throw e; }
		st.done = true;
		const b = Buffer.from(st.digest());
		return enc === undefined || enc === 'buffer' ? b : b.toString(enc);
	}
	copy() { throw new Error('jsworker: crypto Hash.copy is not supported'); }
}
class Hmac extends Hash {}

function createHash(alg) { return new Hash(alg, undefined, 'Hash'); }
function createHmac(alg, key) {
	if (typeof key === 'string') key = Buffer.from(key);
	else if (!ArrayBuffer.isView(key)) throw typeError('ERR_INVALID_ARG_TYPE', 'The "key" argument must be of type string or an instance of ArrayBuffer, Buffer, TypedArray, DataView, KeyObject, or CryptoKey.');
	const h = new Hash(alg, new Uint8Array(key.buffer, key.byteOffset, key.byteLength), 'Hmac');
	Object.setPrototypeOf(h, Hmac.prototype);
	return h;
}

function hash(alg, data, enc) { return createHash(alg).update(data).digest(enc === undefined ? 'hex' : enc); }

function timingSafeEqual(a, b) {
	return N.timingSafeEqual(toBytes(a), toBytes(b));
}

const webcrypto = {
	getRandomValues: getRandomValues,
	randomUUID: randomUUID,
};
// crypto.subtle: any use of it throws an error naming what was used
const subtle = new Proxy({}, {
	get(_, k) {
		if (typeof k === 'symbol' || k === 'then') return undefined;
		throw new Error('jsworker: crypto.subtle is not supported (crypto.subtle.' + String(k) + ')');
	},
});
webcrypto.subtle = subtle;
Object.defineProperty(webcrypto, Symbol.toStringTag, { value: 'Crypto', configurable: true });

const notSupported = function (name) {
	return function () { throw new Error('jsworker: crypto.' + name + ' is not supported'); };
};
const m = {
	webcrypto: webcrypto,
	getRandomValues: getRandomValues,
	randomUUID: randomUUID,
	randomBytes: randomBytes,
	pseudoRandomBytes: randomBytes,
	randomFillSync: randomFillSync,
	randomFill(buf, offset, size, cb) {
		if (typeof offset === 'function') { cb = offset; offset = undefined; }
		if (typeof size === 'function') { cb = size; size = undefined; }
		randomFillSync(buf, offset, size);
		globalThis.process.nextTick(cb, null, buf);
	},
	randomInt: randomInt,
	createHash: createHash,
	createHmac: createHmac,
	hash: hash,
	Hash: Hash,
	Hmac: Hmac,
	getHashes() { return N.hashes(); },
	getCiphers() { return []; },
	getCurves() { return []; },
	timingSafeEqual: timingSafeEqual,
	constants: {},
};
for (const name of ['createCipheriv', 'createDecipheriv', 'createSign', 'createVerify', 'generateKeyPair',
	'generateKeyPairSync', 'createPublicKey', 'createPrivateKey', 'createSecretKey', 'pbkdf2', 'pbkdf2Sync', 'scrypt',
	'scryptSync', 'hkdf', 'hkdfSync', 'sign', 'verify', 'publicEncrypt', 'privateDecrypt', 'createECDH',
	'createDiffieHellman', 'getDiffieHellman', 'generateKey', 'generateKeySync', 'generatePrime', 'generatePrimeSync',
	'checkPrime', 'checkPrimeSync', 'X509Certificate', 'KeyObject', 'Certificate', 'Cipher', 'Decipher', 'Sign', 'Verify',
	'DiffieHellman', 'ECDH']) {
	m[name] = notSupported(name);
}
m.subtle = subtle;
return m;
})
