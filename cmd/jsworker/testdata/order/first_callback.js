// A tick queued after a promise job in the same callback runs first, as in Node. jsworker runs callbacks after the
// script unwrapped until the realm first calls process.nextTick (node/ticks.go), so in the timer that first calls
// it the tick runs after the job; this program shows the order of every later callback.
process.nextTick(() => console.log('activate'));
setTimeout(() => {
	Promise.resolve().then(() => console.log('then'));
	process.nextTick(() => console.log('tick'));
}, 1);
setTimeout(() => {
	Promise.resolve().then(() => console.log('then 2'));
	process.nextTick(() => console.log('tick 2'));
}, 5);
