// In a 'message' listener (poll phase) an immediate (check) runs before a zero timeout (next turn's timers), in the
// worker and in the main thread; ticks and promise jobs run first.
const { Worker, isMainThread, parentPort } = require('worker_threads');
if (isMainThread) {
	const w = new Worker(__filename);
	w.on('message', (log) => {
		console.log('worker:', log.join(', '));
		setTimeout(() => console.log('main timeout'), 0);
		setImmediate(() => console.log('main immediate'));
		process.nextTick(() => console.log('main tick'));
		Promise.resolve().then(() => console.log('main promise'));
	});
	w.postMessage('hi');
} else {
	const log = [];
	parentPort.on('message', (m) => {
		setTimeout(() => { log.push('timeout'); parentPort.postMessage(log); parentPort.close(); }, 0);
		setImmediate(() => log.push('immediate'));
		process.nextTick(() => log.push('tick'));
		Promise.resolve().then(() => log.push('promise'));
		log.push('got ' + m);
	});
}
