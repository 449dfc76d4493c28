const workerpool = require('workerpool');
const pool = workerpool.pool({ maxWorkers: 2, workerType: 'thread' });
function add(a, b) { return a + b; }
Promise.all([pool.exec(add, [3, 4]), pool.exec(add, [10, 20])]).then((r) => { console.log(JSON.stringify(r)); return pool.terminate(); });
