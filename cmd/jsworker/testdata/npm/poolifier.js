const path = require('path');
const { FixedThreadPool } = require('poolifier');
const pool = new FixedThreadPool(2, path.resolve(__dirname, 'poolifier_worker.js'), { errorHandler: (e) => console.error(e) });
(async () => {
  const r = await Promise.all([pool.execute({ a: 4, b: 6 }), pool.execute({ a: 1, b: 2 })]);
  console.log(JSON.stringify(r));
  await pool.destroy();
})();
