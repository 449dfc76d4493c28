const out = [];
const log = (...a) => out.push(a.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(' '));
const os = require('os');
log(typeof os.availableParallelism(), os.availableParallelism() === os.cpus().length, os.EOL === '\n', os.platform(), os.arch(), os.type(), os.endianness(),
  typeof os.tmpdir(), os.homedir() === require('os').userInfo().homedir, typeof os.hostname(), os.totalmem() > os.freemem(), os.loadavg().length, os.uptime() > 0,
  Object.keys(os.cpus()[0]).sort(), Object.keys(os.cpus()[0].times).sort(), os.constants.signals.SIGTERM, os.devNull, typeof os.release());
const crypto = require('crypto');
log(crypto.createHash('md5').update('abc').digest('hex'), crypto.createHash('sha1').update('a').update('bc').digest('base64'),
  crypto.createHash('sha256').update(Buffer.from('abc')).digest('hex'), crypto.createHash('SHA512').update('').digest('hex').slice(0, 16),
  crypto.createHmac('sha256', 'key').update('data').digest('hex'), crypto.randomBytes(8).length, /^[0-9a-f-]{36}$/.test(crypto.randomUUID()),
  crypto.randomUUID()[14], typeof globalThis.crypto.getRandomValues, globalThis.crypto.getRandomValues(new Uint32Array(4)).length,
  crypto.timingSafeEqual(Buffer.from('ab'), Buffer.from('ab')), crypto.getHashes().includes('sha256'), crypto.createHash('sha256').digest().length);
const r = crypto.randomInt(10); log(r >= 0 && r < 10, crypto.webcrypto === globalThis.crypto);
try { crypto.createHash('nope'); } catch (e) { log(e.message); }
try { globalThis.crypto.getRandomValues(new Float64Array(1)); } catch (e) { log(e.name, e.constructor.name); }
const h = crypto.createHash('md5'); h.digest(); try { h.digest(); } catch (e) { log(e.code); }
// globals
const ac = new AbortController();
ac.signal.addEventListener('abort', (ev) => log('abort event', ev.type, ac.signal.aborted, ac.signal.reason.name));
ac.signal.onabort = () => log('onabort');
ac.abort();
log(AbortSignal.abort().aborted, AbortSignal.abort('why').reason, typeof AbortSignal.timeout, typeof AbortSignal.any);
try { ac.signal.throwIfAborted(); } catch (e) { log('thrown', e.name, e.message, e.code, e instanceof DOMException, e instanceof Error); }
const d = new DOMException('msg', 'NotFoundError'); log(d.name, d.message, d.code, DOMException.NOT_FOUND_ERR, String(d), Object.prototype.toString.call(d));
const et = new EventTarget(); let calls = 0;
const fn = (e) => { calls++; log('event', e.type, e.target === et, e.eventPhase, e instanceof Event); };
et.addEventListener('x', fn); et.addEventListener('x', fn); et.addEventListener('x', { handleEvent(e) { log('handleEvent', e.type); } }, { once: true });
log(et.dispatchEvent(new Event('x')), et.dispatchEvent(new Event('x')), calls);
const ce = new CustomEvent('c', { detail: { k: 1 } }); log(ce.detail, ce.type, ce instanceof Event);
const cancel = new Event('y', { cancelable: true }); et.addEventListener('y', (e) => e.preventDefault()); log(et.dispatchEvent(cancel), cancel.defaultPrevented);
log(btoa('ab'), atob(' YW I= '), (() => { try { atob('*'); } catch (e) { return e.name; } })());
// perf_hooks
const { performance, PerformanceObserver } = require('perf_hooks');
performance.mark('a'); performance.mark('b'); const m = performance.measure('a-b', 'a', 'b');
log(performance === globalThis.performance, m.name, m.entryType, typeof m.duration, performance.getEntriesByType('mark').length, performance.getEntriesByName('a-b').length, typeof performance.now(), typeof performance.timeOrigin);
performance.clearMarks(); log(performance.getEntriesByType('mark').length);
// timers
const timers = require('timers');
const tp = require('timers/promises');
log(timers.setTimeout === setTimeout, typeof tp.setTimeout, typeof tp.setImmediate, typeof tp.setInterval, typeof tp.scheduler.wait);
// async_hooks
const { AsyncLocalStorage, AsyncResource } = require('async_hooks');
const als = new AsyncLocalStorage();
(async () => {
  log('tp', await tp.setTimeout(2, 'value'), await tp.setImmediate('imm'));
  const ac2 = new AbortController();
  const p = tp.setTimeout(1000, 'x', { signal: ac2.signal });
  ac2.abort();
  try { await p; } catch (e) { log('tp abort', e.name, e.code); }
  const iv = tp.setInterval(1, 'tick'); const ticks = [];
  for (let i = 0; i < 3; i++) ticks.push((await iv.next()).value);
  await iv.return();
  log('interval', ticks);
  // AbortSignal.timeout's timer is unref'd (in Node too): a ref'd timer keeps the program alive until it fires.
  const keep = setTimeout(() => {}, 10000);
  try { await new Promise((res, rej) => { const s = AbortSignal.timeout(5); s.addEventListener('abort', () => rej(s.reason)); }); } catch (e) { log('timeout', e.name); }
  clearTimeout(keep);
  const anyS = AbortSignal.any([new AbortController().signal, AbortSignal.abort('r')]); log('any', anyS.aborted, anyS.reason);
  await als.run({ id: 1 }, async () => {
    log('als sync', als.getStore());
    await null;
    log('als await', als.getStore());
    await new Promise((res) => setTimeout(() => { log('als timeout', als.getStore()); res(); }, 1));
    await new Promise((res) => setImmediate(() => { log('als immediate', als.getStore()); res(); }));
    await new Promise((res) => process.nextTick(() => { log('als tick', als.getStore()); res(); }));
    await new Promise((res) => queueMicrotask(() => { log('als micro', als.getStore()); res(); }));
    als.exit(() => log('als exit', als.getStore()));
    const res = new AsyncResource('X');
    als.run({ id: 2 }, () => res.runInAsyncScope(() => log('resource', als.getStore())));
    const bound = AsyncLocalStorage.bind(() => als.getStore());
    als.run({ id: 3 }, () => log('bound', bound()));
  });
  log('als outside', als.getStore());
  als.enterWith('entered'); log('enterWith', als.getStore());
  console.log(out.join('\n'));
})();
