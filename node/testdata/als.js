const { AsyncLocalStorage } = require('async_hooks');
const { Worker, MessageChannel } = require('worker_threads');
const als = new AsyncLocalStorage();
als.run('A', () => {
  const w = new Worker('require("worker_threads").parentPort.postMessage(1)', { eval: true });
  w.on('message', () => console.log('worker msg', als.getStore()));
});
const { port1, port2 } = new MessageChannel();
als.run('B', () => { port1.on('message', () => { console.log('port msg', als.getStore()); port1.close(); }); });
als.run('C', () => port2.postMessage(1));
als.run('D', () => { setTimeout(() => console.log('timeout', als.getStore()), 1); setImmediate(() => console.log('immediate', als.getStore())); process.nextTick(() => console.log('tick', als.getStore())); queueMicrotask(() => console.log('micro', als.getStore())); });
als.run('E', async () => { await null; console.log('await', als.getStore()); });
const { EventEmitter } = require('events');
const e = new EventEmitter();
als.run('F', () => e.on('x', () => console.log('emitter', als.getStore())));
als.run('G', () => e.emit('x'));
