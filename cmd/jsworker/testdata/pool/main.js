'use strict';
const { Worker } = require('node:worker_threads');
const { once, EventEmitter } = require('node:events');
const os = require('node:os');
const path = require('node:path');
const assert = require('node:assert');

class Pool extends EventEmitter {
  constructor(file, size) {
    super();
    this.workers = Array.from({ length: size }, () => new Worker(file));
    this.next = 0;
  }
  async run(task) {
    const w = this.workers[this.next++ % this.workers.length];
    w.postMessage(task);
    const [result] = await once(w, 'message');
    this.emit('done', task.id);
    return result;
  }
  close() { return Promise.all(this.workers.map((w) => w.terminate())); }
}

async function main() {
  const size = Math.min(2, os.availableParallelism());
  assert.ok(size >= 1);
  const pool = new Pool(path.join(__dirname, 'worker.js'), size);
  let done = 0;
  pool.on('done', () => done++);
  const results = [];
  for (let i = 0; i < 4; i++) {
    results.push(await pool.run({ id: i, data: Buffer.from('task' + i) }));
  }
  assert.deepStrictEqual(results.map((r) => r.id), [0, 1, 2, 3]);
  assert.strictEqual(done, 4);
  for (const r of results) console.log(r.id, r.hash, r.text, r.isBuffer, r.len);
  try {
    assert.strictEqual(results[0].id, 99);
  } catch (e) {
    console.log(e.code, e.message.split('\n')[0]);
  }
  await pool.close();
  console.log('pool size', size > 0, 'done');
}
main();
