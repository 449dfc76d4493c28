// An 'uncaughtException' listener keeps the program going; the ticks left after the one that threw run after the
// next callback of the loop, as in Node.
process.on('uncaughtException', (e) => console.log('caught', e.message));
process.nextTick(() => console.log('first tick'));
setTimeout(() => {
	process.nextTick(() => { console.log('t1'); throw new Error('boom'); });
	process.nextTick(() => console.log('t2'));
	setTimeout(() => console.log('still alive'), 5);
}, 1);
