const out = [];
const log = (...a) => out.push(a.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(' '));
const { Buffer: B2, constants, kMaxLength } = require('buffer');
log(B2 === Buffer, typeof constants.MAX_LENGTH, kMaxLength > 0);
const s = 'héllo wörld €𝄞';
for (const enc of ['utf8', 'utf-8', 'utf16le', 'ucs2', 'latin1', 'binary', 'ascii', 'base64', 'base64url', 'hex']) {
  const b = Buffer.from(s, enc === 'base64' || enc === 'base64url' || enc === 'hex' ? 'utf8' : enc);
  log(enc, b.length, b.toString(enc), Buffer.byteLength(s, enc), Buffer.from(b.toString(enc), enc).equals(b));
}
log(Buffer.from('aGVsbG8gd29ybGQ', 'base64').toString(), Buffer.from('aGVs bG8=\n', 'base64').toString(), Buffer.from('_-8', 'base64').toString('hex'), Buffer.from('a1b2zz', 'hex').toString('hex'), Buffer.from('abc', 'hex').length);
log(Buffer.from([0xe2, 0x82]).toString(), Buffer.from([0xff, 0x41, 0xc3]).toString(), Buffer.from([0xed, 0xa0, 0x80]).toString().length);
const b = Buffer.alloc(10, 'ab');
log(b.toString(), Buffer.alloc(4, 1).toJSON(), Buffer.alloc(3).toString('hex'), Buffer.allocUnsafe(5).length);
log(Buffer.concat([Buffer.from('a'), Buffer.from('bc')]).toString(), Buffer.concat([Buffer.from('abc')], 2).toString(), Buffer.compare(Buffer.from('a'), Buffer.from('b')));
const w = Buffer.alloc(8);
log(w.write('hé', 1), w.toString('hex'), w.write('xyz', 6, 'latin1'), w.toString('latin1', 6), w.write('€', 7), w.toString('hex'));
const n = Buffer.alloc(16);
n.writeUInt32BE(0xdeadbeef, 0); n.writeInt16LE(-2, 4); n.writeDoubleLE(1.5, 8);
log(n.readUInt32BE(0).toString(16), n.readInt16LE(4), n.readDoubleLE(8), n.readUInt8(0), n.readUintBE(0, 3), n.readIntLE(4, 2), n.readBigUInt64LE(8).toString());
n.writeUIntBE(0x123456, 0, 3); log(n.toString('hex', 0, 3)); n.writeIntLE(-5, 0, 3); log(n.readIntLE(0, 3));
try { n.readUInt32LE(14); } catch (e) { log(e.code, e.name, e.message); }
try { n.writeUInt8(300, 0); } catch (e) { log(e.code, e.message); }
const h = Buffer.from('hello world hello');
log(h.indexOf('o'), h.indexOf('hello', 1), h.lastIndexOf('hello'), h.indexOf(Buffer.from('wor')), h.includes('xyz'), h.indexOf(111, 5), h.lastIndexOf('l', 5), h.indexOf(''));
const sl = h.slice(0, 5); sl[0] = 72; log(h.toString(), sl instanceof Buffer, h.subarray(-5).toString(), Buffer.isBuffer(sl), Buffer.isBuffer(new Uint8Array(1)));
const c = Buffer.alloc(5); log(h.copy(c, 1, 6, 10), c.toString('latin1'));
log(Buffer.from([1, 2, 3, 4]).swap16().toJSON().data, Buffer.from([1, 2, 3, 4]).swap32().toJSON().data);
log(Buffer.isEncoding('utf8'), Buffer.isEncoding('UCS-2'), Buffer.isEncoding('nope'), Buffer.from(new Uint16Array([1, 256]).buffer).toJSON().data, Buffer.from(Buffer.from('x')).toString());
try { Buffer.from('x', 'nope'); } catch (e) { log(e.code, e.message); }
try { Buffer.alloc(-1); } catch (e) { log(e.code, e.message); }
try { Buffer.from(5); } catch (e) { log(e.code); }
const ab = new ArrayBuffer(8); const v = Buffer.from(ab, 2, 4); v[0] = 9; log(new Uint8Array(ab)[2], v.length, v.byteOffset);
log(Buffer.from('abc').equals(Buffer.from('abc')), Buffer.from('abc').compare(Buffer.from('abd')), Buffer.from('b').compare(Buffer.from('a')));
log(require('util').inspect(Buffer.from('hi there')), String(Buffer.from('x')), Buffer.from('xyz').fill(0).toJSON().data, Buffer.alloc(5).fill('abc', 1).toString('latin1'));
log(btoa('hello'), atob('aGVsbG8='), require('buffer').isUtf8(Buffer.from([0xff])), require('buffer').isAscii(Buffer.from('abc')));
const { StringDecoder } = require('string_decoder');
const d = new StringDecoder('utf8'); const euro = Buffer.from('€');
log(d.write(euro.subarray(0, 1)), d.write(euro.subarray(1)), d.end(), new StringDecoder('utf8').end(euro.subarray(0, 2)));
const d16 = new StringDecoder('utf16le'); const u = Buffer.from('a𝄞', 'utf16le');
log(d16.write(u.subarray(0, 3)), d16.write(u.subarray(3)), d16.end());
const d64 = new StringDecoder('base64'); log(d64.write(Buffer.from('ab')), d64.write(Buffer.from('c')), d64.end(Buffer.from('d')));
const qs = require('querystring');
log(qs.parse('a=1&b=2&a=3&c=%20x+y&d'), qs.stringify({ a: [1, 2], b: 'x y', c: '', d: true, e: null }), qs.escape('a b&c/é'), qs.unescape('%E2%82%AC%'), qs.parse('a:1;b:2', ';', ':'));
console.log(out.join('\n'));
