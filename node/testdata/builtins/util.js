const util = require('util');
const out = [];
const log = (...a) => out.push(a.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(' '));
class Foo { constructor() { this.a = 1; } }
const circ = { name: 'c' }; circ.self = circ;
const samples = [1, -0, 'str', "it's", null, undefined, true, 10n, Symbol('s'), [1, 2, 3], [], {}, { a: 1, b: 'x' },
  { 'a-b': 1, [Symbol('k')]: 2 }, [1, [2, [3, [4, [5]]]]], { a: { b: { c: { d: 1 } } } }, new Map([[1, 'a'], ['b', { c: 2 }]]),
  new Set([1, 'two']), new Foo(), Object.create(null), function named() {}, () => {}, class K {}, class L extends Foo {},
  /re/gi, new Date(0), [1, , 3], new Array(5), circ, new Uint8Array([1, 2]), Buffer.from('hi'), new ArrayBuffer(3),
  Promise.resolve(4), new Promise(() => {}), new Number(3), new String('s'), { get g() { return 1; }, set s(v) {} },
  Array.from({ length: 120 }, (_, i) => i), 'a'.repeat(20), { x: 'y'.repeat(80) }, [new Error('in array').message],
  { arr: [{ a: 1 }, { b: 2 }] }, new WeakMap(), async function af() {}, function* gen() {}];
for (const s of samples) log(util.inspect(s));
log(util.inspect({ a: { b: { c: { d: { e: 1 } } } } }, { depth: 0 }), util.inspect({ a: { b: { c: {} } } }, { depth: Infinity }));
log(util.inspect('x', { colors: false }), util.inspect({ a: [1, 2] }, { compact: false }));
log(util.format('%s=%d %i %f %j %o %O %%', 'a', 42.5, 42.5, '1.5', { j: 1 }, [1], { O: 1 }), util.format('no args'), util.format('%s', 'a', 'extra', 3));
log(util.format(1, 2, 'x'), util.format('%d', '0x10'), util.format('%s', { a: { b: { c: 1 } } }), util.format('%s %s', 'only'));
log(util.types.isPromise(Promise.resolve()), util.types.isDate(new Date()), util.types.isRegExp(/x/), util.types.isUint8Array(Buffer.alloc(1)),
  util.types.isAsyncFunction(async () => {}), util.types.isGeneratorFunction(function* () {}), util.types.isMap(new Map()), util.types.isTypedArray(new Float32Array(1)),
  util.types.isArrayBuffer(new ArrayBuffer(1)), util.types.isBoxedPrimitive(new String('')), util.types.isNativeError(new TypeError()), util.types.isProxy(new Proxy({}, {})));
log(util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.isDeepStrictEqual([1], ['1']), util.isDeepStrictEqual(new Set([1, 2]), new Set([2, 1])),
  util.isDeepStrictEqual(new Map([[{ a: 1 }, 1]]), new Map([[{ a: 1 }, 1]])), util.isDeepStrictEqual(NaN, NaN), util.isDeepStrictEqual(0, -0));
const { values, positionals } = util.parseArgs({ args: ['-f', '--bar', 'b', 'pos', '-abc', '--list=1', '--list', '2'], allowPositionals: true,
  options: { foo: { type: 'boolean', short: 'f' }, bar: { type: 'string' }, a: { type: 'boolean' }, b: { type: 'boolean' }, c: { type: 'boolean' }, list: { type: 'string', multiple: true }, def: { type: 'string', default: 'D' } } });
log({ ...values }, positionals);
try { util.parseArgs({ args: ['--nope'], options: {} }); } catch (e) { log(e.code, e.message); }
try { util.parseArgs({ args: ['x'], options: {} }); } catch (e) { log(e.code, e.message); }
try { util.parseArgs({ args: ['--s'], options: { s: { type: 'string' } } }); } catch (e) { log(e.code, e.message); }
log(util.parseArgs({ args: ['--no-color'], options: { color: { type: 'boolean' } }, allowNegative: true }).values.color);
const te = new util.TextEncoder(); log(Array.from(te.encode('hé')), new util.TextDecoder().decode(te.encode('hé')));
function Base() {} Base.prototype.hi = function () { return 'hi'; };
function Child() { Base.call(this); } util.inherits(Child, Base);
log(new Child().hi(), Child.super_ === Base);
const fnCb = (a, cb) => setTimeout(() => (a < 0 ? cb(new Error('neg')) : cb(null, a * 2)), 1);
const fnP = util.promisify(fnCb);
const asyncFn = async (x) => { if (x) throw new Error('cb err'); return 'cb ok'; };
const cbFn = util.callbackify(asyncFn);
const dep = util.deprecate(() => 'dep', 'this is deprecated', 'DEP0999');
process.on('warning', (w) => log('warning', w.name, w.message, w.code));
(async () => {
  log(await fnP(21));
  try { await fnP(-1); } catch (e) { log('rejected', e.message); }
  await new Promise((res) => cbFn(false, (err, v) => { log('callbackify', err, v); res(); }));
  await new Promise((res) => cbFn(true, (err) => { log('callbackify err', err.message); res(); }));
  log(dep(), dep());
  await new Promise((r) => setTimeout(r, 5));
  console.log(out.join('\n'));
})();
