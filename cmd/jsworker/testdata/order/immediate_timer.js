// Inside an immediate and inside a timer: Node's phase order decides which runs next.
setTimeout(() => {
	console.log('timeout 1');
	setImmediate(() => console.log('immediate from timeout'));
	setTimeout(() => console.log('timeout from timeout'), 0);
}, 1);
setTimeout(() => {
	setTimeout(() => console.log('t-a'), 0);
	setImmediate(() => {
		console.log('i-a');
		process.nextTick(() => console.log('tick in immediate'));
	});
}, 20);
