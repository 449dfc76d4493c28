process.nextTick(() => console.log('tick1'));
Promise.resolve().then(() => { console.log('p1'); process.nextTick(() => console.log('tick-from-p1')); }).then(() => console.log('p2'));
queueMicrotask(() => console.log('qm'));
process.nextTick(() => { console.log('tick2'); Promise.resolve().then(() => console.log('p-from-tick2')); process.nextTick(() => console.log('tick3')); });
setTimeout(() => { console.log('timeout'); process.nextTick(() => console.log('t-tick')); Promise.resolve().then(()=>console.log('t-p')); }, 0);
setImmediate(() => console.log('immediate'));
console.log('sync');
