const log = [];
const sleep = (v) => new Promise((res) => res(v));
async function a() { log.push("a1"); await null; log.push("a2"); return 1; }
async function b() { try { await Promise.reject(new Error("nope")); } catch (e) { log.push("b " + e.message); } return 2; }
function* agen() { yield 1; yield sleep(2); }
(async () => {
  const [x, y] = await Promise.all([a(), b()]);
  for (const p of agen()) log.push("gen " + (await p));
  const settled = await Promise.allSettled([Promise.reject(3), sleep(4)]);
  log.push(settled.map(s => s.status).join("/"), x + y);
  console.log(log.join(", "));
})();
Promise.resolve().then(() => log.push("micro"));
log.push("sync");
