const EventEmitter = require('events');
const { once, on, getEventListeners, errorMonitor } = require('node:events');
const out = [];
const log = (...a) => out.push(a.map((x) => typeof x === 'string' ? x : JSON.stringify(x)).join(' '));
const e = new EventEmitter();
e.on('newListener', (n) => log('newListener', String(n)));
e.on('x', (a, b) => log('x1', a, b));
e.prependListener('x', () => log('x0'));
e.once('x', () => log('once'));
log(e.emit('x', 1, 2), e.emit('x', 3), e.emit('nothing'), e.listenerCount('x'), e.eventNames().map(String));
log(EventEmitter.defaultMaxListeners, e.getMaxListeners(), e.setMaxListeners(3) === e, e.getMaxListeners());
try { e.emit('error', new Error('boom')); } catch (err) { log('thrown', err.message); }
try { e.emit('error', 'str'); } catch (err) { log('thrown', err.message, err.code); }
e.on(errorMonitor, (err) => log('monitor', err.message));
e.on('error', (err) => log('error', err.message));
e.emit('error', new Error('seen'));
const f = () => {};
e.on('y', f); e.on('y', f);
log(e.listeners('y').length, getEventListeners(e, 'y').length);
e.off('y', f);
log(e.listenerCount('y'));
e.removeAllListeners('y');
log(e.listenerCount('y'), e instanceof EventEmitter, EventEmitter.EventEmitter === EventEmitter);
class Sub extends EventEmitter { constructor() { super({ captureRejections: true }); } }
const s = new Sub();
s.on('z', async () => { throw new Error('async fail'); });
s.on('error', (err) => log('captured', err.message));
s.emit('z');
function Old() { EventEmitter.call(this); }
require('util').inherits(Old, EventEmitter);
const o = new Old(); o.on('q', (v) => log('old', v)); o.emit('q', 7);
log(o instanceof EventEmitter);
const et = new EventTarget();
et.addEventListener('ping', () => {});
log(getEventListeners(et, 'ping').length);
(async () => {
  const em = new EventEmitter();
  setTimeout(() => em.emit('ready', 42, 'x'), 1);
  log('once', await once(em, 'ready'));
  setTimeout(() => em.emit('error', new Error('bad')), 1);
  try { await once(em, 'never'); } catch (err) { log('once rejected', err.message); }
  const ac = new AbortController();
  const p = once(em, 'never', { signal: ac.signal });
  ac.abort();
  try { await p; } catch (err) { log('aborted', err.name, err.code); }
  setTimeout(() => { em.emit('data', 1); em.emit('data', 2); em.emit('data', 3); }, 1);
  const got = [];
  const it = on(em, 'data'); for (;;) { const { value: [v] } = await it.next(); got.push(v); if (got.length === 3) { await it.return(); break; } }
  log('on', got, em.listenerCount('data'));
  const t = new EventTarget();
  setTimeout(() => t.dispatchEvent(new Event('go')), 1);
  const [ev] = await once(t, 'go');
  log('target once', ev.type, ev instanceof Event);
  console.log(out.join('\n'));
})();
