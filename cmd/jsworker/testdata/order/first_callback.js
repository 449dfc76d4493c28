// A tick queued after a promise job in the same callback runs first, as in Node, in every callback after the realm's
// first tick (first_tick.js has the callback that makes the first one).
process.nextTick(() => console.log('activate'));
setTimeout(() => {
	Promise.resolve().then(() => console.log('then'));
	process.nextTick(() => console.log('tick'));
}, 1);
setTimeout(() => {
	Promise.resolve().then(() => console.log('then 2'));
	process.nextTick(() => console.log('tick 2'));
}, 5);
