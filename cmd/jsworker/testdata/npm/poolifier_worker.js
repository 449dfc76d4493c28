const { ThreadWorker } = require('poolifier');
module.exports = new ThreadWorker(({ a, b }) => a + b);
