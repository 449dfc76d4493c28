// threads 1: its README's basic example. new Worker('./threads_worker') is resolved from this file, which threads
// finds through V8's stack trace API (the callsites package: Error.prepareStackTrace with CallSite objects).
const { spawn, Thread, Worker } = require('threads');
async function main() {
	const add = await spawn(new Worker('./threads_worker'));
	const sum = await add(2, 3);
	console.log(`2 + 3 = ${sum}`);
	await Thread.terminate(add);
}
main().catch(console.error);
