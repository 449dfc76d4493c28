const { Worker, MessageChannel } = require('worker_threads');
const log = (...a) => console.log(...a);
const ECHO = "const { parentPort } = require('worker_threads');" +
  "parentPort.on('message', (m) => { if (m === 'throw') throw new Error('boom'); parentPort.postMessage(m + 1); });";
async function main() {
  // a lone once: removed before it is called, called once
  const w = new Worker(ECHO, { eval: true });
  await new Promise((res) => {
    w.once('message', function (m) {
      log('once', m, this === w, w.listenerCount('message'), w.rawListeners('message').length);
      w.once('message', (m2) => { log('second once', m2, w.listenerCount('message')); res(); });
      w.postMessage(10);
    });
    w.postMessage(1);
  });
  // once then on: both, once first, then only on
  await new Promise((res) => {
    let n = 0;
    w.once('message', (m) => log('once before on', m));
    w.on('message', function on(m) { log('on', m, w.listenerCount('message')); if (++n === 2) { w.off('message', on); res(); } else w.postMessage(30); });
    w.postMessage(20);
  });
  // prependOnceListener before on
  await new Promise((res) => {
    w.on('message', function on(m) { log('on2', m); w.off('message', on); res(); });
    w.prependOnceListener('message', (m) => log('prepended once', m, w.listenerCount('message')));
    w.postMessage(40);
  });
  // once removed with off / removeAllListeners is never called
  await new Promise((res) => {
    const f = (m) => log('removed once called', m);
    w.once('message', f);
    w.off('message', f);
    w.once('message', f);
    w.removeAllListeners('message');
    log('after removal', w.listenerCount('message'));
    w.once('message', (m) => { log('after removal got', m); res(); });
    w.postMessage(50);
  });
  // once('error') and exit order
  await new Promise((res) => {
    w.once('error', (e) => log('error', e.message, w.listenerCount('error')));
    w.once('exit', (c) => { log('exit', c, w.listenerCount('exit')); res(); });
    w.postMessage('throw');
  });
  // a port's lone once
  const { port1, port2 } = new MessageChannel();
  await new Promise((res) => {
    port1.once('message', (m) => { log('port once', m, port1.listenerCount('message')); res(); });
    port2.postMessage('p');
  });
  port1.close();
  // once on a plain EventEmitter-like target: emit in JS
  const { EventEmitter } = require('events');
  const e = new EventEmitter();
  e.once('x', (a, b) => log('ee once', a, b, e.listenerCount('x')));
  log('emit', e.emit('x', 1, 2), e.emit('x', 3));
}
main().then(() => log('done'));
