// Node reference for BenchmarkWaitNotifyPingPong: two workers hand a turn
// back and forth with Atomics.wait/notify on a SharedArrayBuffer. Prints the
// time per round trip, median of 5 runs of 20,000 round trips after a warm-up.
//   node sharedmem/testdata/node/pingpong.js
'use strict';
const { Worker } = require('worker_threads');
const ROUNDS = 20_000, REPS = 5;
const src = `
const { parentPort, workerData } = require('worker_threads');
function ping(ia, n) {
  for (let i = 0; i < n; i++) {
    Atomics.store(ia, 0, 1);
    Atomics.notify(ia, 0);
    while (Atomics.load(ia, 0) === 1) Atomics.wait(ia, 0, 1);
  }
}
function pong(ia, n) {
  for (let i = 0; i < n; i++) {
    while (Atomics.load(ia, 0) === 0) Atomics.wait(ia, 0, 0);
    Atomics.store(ia, 0, 0);
    Atomics.notify(ia, 0);
  }
}
const ia = new Int32Array(workerData.sab);
parentPort.on('message', (n) => {
  (workerData.role === 'ping' ? ping : pong)(ia, n);
  parentPort.postMessage('done');
});
parentPort.postMessage('ready');`;

function once(w) { return new Promise((resolve) => w.once('message', resolve)); }

(async () => {
  const sab = new SharedArrayBuffer(8);
  const ws = ['ping', 'pong'].map((role) => new Worker(src, { eval: true, workerData: { sab, role } }));
  await Promise.all(ws.map(once));
  const runs = [];
  for (let r = 0; r <= REPS; r++) {
    const t0 = process.hrtime.bigint();
    const done = ws.map(once);
    ws[1].postMessage(ROUNDS);
    ws[0].postMessage(ROUNDS);
    await Promise.all(done);
    const us = Number(process.hrtime.bigint() - t0) / 1e3 / ROUNDS;
    if (r > 0) runs.push(us);
  }
  runs.sort((a, b) => a - b);
  console.log(JSON.stringify({ bench: 'pingpong', median_us_per_round_trip: +runs[REPS >> 1].toFixed(2), runs_us: runs.map((x) => +x.toFixed(2)) }));
  ws.forEach((w) => w.terminate());
})();
