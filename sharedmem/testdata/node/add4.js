// Node reference for BenchmarkAtomicsAdd4x1e6: 4 workers each do 1,000,000
// Atomics.add on one SharedArrayBuffer counter. Prints the wall time from
// "go" to the last "done", median of 5 runs after one warm-up run.
//   node sharedmem/testdata/node/add4.js
'use strict';
const { Worker } = require('worker_threads');
const WORKERS = 4, N = 1_000_000, REPS = 5;
const src = `
const { parentPort } = require('worker_threads');
function work(ia, n) { for (let i = 0; i < n; i++) Atomics.add(ia, 0, 1); }
let ia;
parentPort.on('message', (m) => {
  if (m.sab) { ia = new Int32Array(m.sab); parentPort.postMessage('ready'); return; }
  work(ia, m.n);
  parentPort.postMessage('done');
});`;

function once(w) { return new Promise((resolve) => w.once('message', resolve)); }

(async () => {
  const sab = new SharedArrayBuffer(8);
  const ia = new Int32Array(sab);
  const ws = Array.from({ length: WORKERS }, () => new Worker(src, { eval: true }));
  await Promise.all(ws.map((w) => { const p = once(w); w.postMessage({ sab }); return p; }));
  const runs = [];
  for (let r = 0; r <= REPS; r++) {
    const t0 = process.hrtime.bigint();
    await Promise.all(ws.map((w) => { const p = once(w); w.postMessage({ n: N }); return p; }));
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r > 0) runs.push(ms);
  }
  if (Atomics.load(ia, 0) !== WORKERS * N * (REPS + 1)) throw new Error('lost updates');
  runs.sort((a, b) => a - b);
  console.log(JSON.stringify({ bench: 'add4x1e6', median_ms: +runs[REPS >> 1].toFixed(1), runs_ms: runs.map((x) => +x.toFixed(1)) }));
  ws.forEach((w) => w.terminate());
})();
