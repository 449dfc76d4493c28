// idle.js (bench/idlesplit): N idle Node-style workers, each answering one message, as TestIdleWorkers_Budget and
// bench/node/idle_many.js hold them; the Worker objects are made inside __parent (the parent's side, marked in the
// heap profile), the profile is written while they are idle (__heap).
const { Worker } = require('worker_threads');
const N = Number(process.argv[2]) || 500;
const CODE = "const { parentPort } = require('worker_threads');\n" +
	"parentPort.on('message', (m) => parentPort.postMessage(m + 1));";
function answered(w, i) {
	return new Promise((res, rej) => {
		w.once('message', (m) => (m === i + 1 ? res(w) : rej(new Error('worker ' + i + ' answered ' + m))));
		w.once('error', rej);
		w.postMessage(i);
	});
}
(async () => {
	const base = __live();
	const ps = [];
	__parent(() => { for (let i = 0; i < N; i++) ps.push(answered(new Worker(CODE, { eval: true }), i)); });
	const ws = await Promise.all(ps);
	const held = __heap();
	await Promise.all(ws.map((w) => w.terminate()));
	console.log(JSON.stringify({ workers: ws.length, perWorkerKiB: Math.round((held - base) / N / 1024 * 10) / 10 }));
})();
