'use strict';
// idle_many.js - many idle Node-style workers in one program, each answering a message.
// Usage: idle_many.js [N] [HOLD_MS]  (N default 10000; `make bench-idle N=100000` for the figure; HOLD_MS
// keeps the idle workers alive that long after the measurement, for a heap profile: bench/idleprof)
// RSS is read after a settle, then N workers are started; each installs a parentPort listener that echoes what it
// gets. The main thread posts each worker one message as soon as it is online and counts the answers:
// all_ready_ms is the time until every worker has answered. After a settle RSS is read again:
// per_worker_KiB = (rss_workers - rss_base) / N. Prints ONE JSON line. KiB = 2^10 bytes.
const { Worker } = require('worker_threads');

const N = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 10000;
const SETTLE_MS = 500;
const HOLD_MS = Number(process.argv[3]) > 0 ? Number(process.argv[3]) : 0;
const rss = () => process.memoryUsage().rss;
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));
const r1 = (x) => Math.round(x * 10) / 10;

const CODE = "const { parentPort } = require('worker_threads');\n" +
  "parentPort.on('message', (m) => parentPort.postMessage(m + 1));";

function answered(w, i) {
  return new Promise((res, rej) => {
    w.once('message', (m) => (m === i + 1 ? res(w) : rej(new Error('worker ' + i + ' answered ' + m))));
    w.once('error', rej);
    w.postMessage(i);
  });
}

async function main() {
  await sleep(SETTLE_MS);
  const base = rss();
  const t0 = performance.now();
  const ps = [];
  for (let i = 0; i < N; i++) ps.push(answered(new Worker(CODE, { eval: true }), i));
  const ws = await Promise.all(ps);
  const readyMs = performance.now() - t0;
  await sleep(SETTLE_MS);
  const withW = rss();
  if (HOLD_MS > 0) await sleep(HOLD_MS);
  await Promise.all(ws.map((w) => w.terminate()));
  console.log(JSON.stringify({
    bench: 'idle_many', runtime: process.version, workers: N,
    rss_base_MiB: r1(base / 1048576), rss_with_workers_MiB: r1(withW / 1048576),
    per_worker_KiB: r1((withW - base) / N / 1024), all_ready_ms: Math.round(readyMs),
  }));
}

main().catch((e) => {
  console.log(JSON.stringify({ bench: 'idle_many', runtime: process.version, error: String(e && e.stack || e) }));
  process.exitCode = 1;
});
