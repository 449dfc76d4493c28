// Ticks queued by ticks run before any promise job; promise jobs queued by ticks before later ticks' promise jobs.
let n = 0;
function tick(i) { console.log('tick', i); if (i < 3) process.nextTick(tick, i + 1); Promise.resolve(i).then((v) => console.log('then', v)); }
process.nextTick(tick, 0);
(async () => { console.log('async start'); await null; console.log('after await'); process.nextTick(() => console.log('tick after await')); await null; console.log('second await'); })();
setImmediate(() => { process.nextTick(() => console.log('imm tick')); Promise.resolve().then(() => console.log('imm then')); console.log('imm'); });
