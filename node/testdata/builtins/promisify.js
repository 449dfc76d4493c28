const util = require('util'); const fs = require('fs');
(async () => {
  console.log(await util.promisify(setTimeout)(2, 'v'), await util.promisify(setImmediate)('i'), await util.promisify(fs.exists)(__filename), await util.promisify(fs.readFile)(__filename, 'utf8').then((s) => s.length > 0));
})();
