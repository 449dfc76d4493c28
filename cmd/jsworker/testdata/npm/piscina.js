const path = require('path');
const Piscina = require('piscina');
const piscina = new Piscina({ filename: path.resolve(__dirname, 'add.js'), maxThreads: 2 });
(async () => {
  const r = await Promise.all([piscina.run({ a: 4, b: 6 }), piscina.run({ a: 1, b: 2 })]);
  console.log(JSON.stringify(r));
  await piscina.destroy();
})();
