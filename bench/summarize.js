'use strict';
// summarize.js DIR - prints the Markdown table of bench/compare.sh from DIR/core.txt (go test -bench output),
// DIR/idlemem.jsonl and DIR/node.jsonl. Medians over the repeats; ratio = Node / jsworker for times and memory
// (how many times better jsworker is), jsworker / Node for rates.
const fs = require('fs');
const path = require('path');
const dir = process.argv[2] || 'build/bench';

function median(xs) {
  const s = xs.filter((x) => typeof x === 'number' && isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
function lines(file) {
  try { return fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean); } catch (e) { return []; }
}
function jsonl(file) { return lines(file).filter((l) => l[0] === '{').map((l) => JSON.parse(l)); }

// go bench: name -> {nsop: [...], metrics: {unit: [...]}}
const go = {};
for (const l of lines('core.txt')) {
  const m = /^Benchmark(\S+?)(-\d+)?\s+\d+\s+(.*)$/.exec(l);
  if (!m) continue;
  const e = go[m[1]] || (go[m[1]] = { metrics: {} });
  const parts = m[3].trim().split(/\s+/);
  for (let i = 0; i + 1 < parts.length; i += 2) (e.metrics[parts[i + 1]] = e.metrics[parts[i + 1]] || []).push(+parts[i]);
}
const g = (name, unit) => (go[name] ? median(go[name].metrics[unit] || []) : null);
const mem = jsonl('idlemem.jsonl');
const memOf = (mode, f) => median(mem.filter((r) => r.runtime.includes(mode)).map((r) => r[f]));
const node = jsonl('node.jsonl');
const nodeOf = (bench, f) => median(node.filter((r) => r.bench === bench).map((r) => r[f]));

const rows = [
  // [what, unit, jsworker goroutine, jsworker dedicated, node, lower-is-better]
  ['spawn → first message', 'ms', g('SpawnFirstMessage/goroutine', 'ns/op') / 1e6, g('SpawnFirstMessage/dedicated', 'ns/op') / 1e6, nodeOf('spawn', 'seq_ms_median'), true],
  ['idle worker, RSS', 'MiB', memOf('goroutine', 'per_worker_MB'), memOf('dedicated', 'per_worker_MB'), nodeOf('memory', 'per_worker_MB'), true],
  ['round trip main ↔ worker', 'µs', g('RoundTrip/goroutine', 'ns/op') / 1e3, g('RoundTrip/dedicated', 'ns/op') / 1e3, nodeOf('rtt', 'parent_us_median'), true],
  ['round trip worker ↔ worker', 'µs', g('RoundTripWorkerToWorker/goroutine', 'ns/op') / 1e3, g('RoundTripWorkerToWorker/dedicated', 'ns/op') / 1e3, nodeOf('rtt', 'channel_us_median'), true],
  ['one-way main → worker', 'msgs/s', g('Throughput/main-to-worker/goroutine', 'msgs/s'), g('Throughput/main-to-worker/dedicated', 'msgs/s'), nodeOf('throughput', 'to_worker_msgs_per_s'), false],
  ['one-way worker → main', 'msgs/s', g('Throughput/worker-to-main/goroutine', 'msgs/s'), g('Throughput/worker-to-main/dedicated', 'msgs/s'), nodeOf('throughput', 'from_worker_msgs_per_s'), false],
];
const fmt = (x) => (x == null || !isFinite(x) ? '—' : x >= 1000 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toPrecision(3));
const ratio = (ours, theirs, lower) => (ours && theirs ? (lower ? theirs / ours : ours / theirs).toFixed(1) + '×' : '—');
console.log('| measure | unit | jsworker (goroutine) | jsworker (dedicated thread) | Node worker_threads | goroutine vs Node | dedicated vs Node |');
console.log('|---|---|---|---|---|---|---|');
for (const [what, unit, a, b, n, lower] of rows) {
  console.log(`| ${what} | ${unit} | ${fmt(a)} | ${fmt(b)} | ${fmt(n)} | ${ratio(a, n, lower)} | ${ratio(b, n, lower)} |`);
}
console.log('\nRatios: how many times better jsworker is (Node ÷ jsworker for times and memory, jsworker ÷ Node for rates).');
