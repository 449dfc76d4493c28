// JSON.parse and JSON.stringify of the graph internal/jsonbuiltin's benchmarks use (bench_test.go, benchGraph):
// n records shaped like a typical message payload; 10,000 make about 1 MB of text, 60,000 about 4.8 MB.
// Prints, per case, the median of 5 runs of wall and CPU time per call (ms). Runs with node and with jsworker run.
function graph(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push({id: i, name: "user" + i, tags: ["a", "bb", "ccc"], nested: {x: i * 0.5, y: -i}});
  return out;
}
const cpu = typeof process !== "undefined" && process.cpuUsage ? () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 } : () => NaN;
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
for (const n of [10000, 60000]) {
  const g = graph(n), text = JSON.stringify(g);
  for (const [name, f] of [["parse", () => JSON.parse(text)], ["stringify", () => JSON.stringify(g)]]) {
    const iters = n === 10000 ? 20 : 4, wall = [], cpus = [];
    f();
    for (let run = 0; run < 5; run++) {
      const t0 = Date.now(), c0 = cpu();
      for (let i = 0; i < iters; i++) f();
      wall.push((Date.now() - t0) / iters);
      cpus.push((cpu() - c0) / iters);
    }
    console.log(`${name} ${n} records (${(text.length / 1e6).toFixed(2)} MB): wall ${median(wall).toFixed(2)} ms, cpu ${median(cpus).toFixed(2)} ms`);
  }
}
