const assert = require('assert');
const t = (f) => { try { f(); console.log('passed'); } catch (e) { console.log(JSON.stringify(e.message), e.code, e.generatedMessage, e.operator); } };
t(() => assert.throws(() => { throw new TypeError('x'); }, TypeError));
t(() => assert.throws(() => { throw new TypeError('x'); }, RangeError));
t(() => assert.throws(() => { const e = new Error('m'); e.code = 'C'; throw e; }, { code: 'C', message: /m/ }));
t(() => assert.throws(() => { throw new Error('m'); }, (e) => e.message === 'm'));
t(() => assert.throws(() => {}, 'custom message'));
t(() => assert.deepStrictEqual(new Set([1, 2]), new Set([1, 3])));
t(() => assert.deepEqual({ a: 1 }, { a: '1' }));
t(() => assert.deepStrictEqual({ a: 1 }, { a: '1' }));
t(() => assert.strict.equal(1, '1'));
t(() => assert.notDeepStrictEqual([1], [2]));
t(() => assert.doesNotMatch('abc', /b/));
t(() => assert.ifError(null));
t(() => assert.strictEqual(NaN, NaN));
t(() => assert.deepStrictEqual([1, [2, 3]], [1, [2, 3]]));
(async () => {
  for (const f of [() => assert.rejects(Promise.reject(new Error('r')), /r/), () => assert.rejects(async () => { throw new Error('r'); }, Error), () => assert.doesNotReject(Promise.reject(new Error('dn'))), () => assert.rejects(() => 5)]) {
    try { await f(); console.log('passed'); } catch (e) { console.log(JSON.stringify(e.message), e.code); }
  }
})();
