// The first process.nextTick of a realm, in a callback after the script (a timer here, a message handler in the
// worker) that queued promise jobs before it: the ticks still run before those jobs, as in Node. (jsworker runs such
// callbacks unwrapped until the realm's first tick, node/ticks.go, and moves that tick's microtask to the front.)
const { Worker, isMainThread, parentPort } = require('worker_threads');
function burst(tag) {
	Promise.resolve().then(() => {
		console.log(tag, 'then 1');
		process.nextTick(() => console.log(tag, 'tick from then'));
		Promise.resolve().then(() => console.log(tag, 'then 1b'));
	});
	queueMicrotask(() => console.log(tag, 'microtask'));
	process.nextTick(() => {
		console.log(tag, 'tick 1');
		Promise.resolve().then(() => console.log(tag, 'then from tick'));
		process.nextTick(() => console.log(tag, 'tick from tick'));
	});
	Promise.resolve().then(() => console.log(tag, 'then 2'));
	process.nextTick(() => console.log(tag, 'tick 2'));
	console.log(tag, 'sync');
}
if (isMainThread) {
	setTimeout(() => {
		burst('main');
		const w = new Worker(__filename);
		w.on('message', (m) => {
			console.log('main got', m);
			if (m === 'hello') w.postMessage('go');
			else w.terminate();
		});
	}, 1);
} else {
	parentPort.once('message', () => {
		burst('worker');
		setTimeout(() => parentPort.postMessage('done'), 5);
	});
	parentPort.postMessage('hello');
}
