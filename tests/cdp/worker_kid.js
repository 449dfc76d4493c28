'use strict';
const { parentPort, workerData } = require('node:worker_threads');

function sum(list) {
  let total = 0;
  for (const x of list) total += x;
  debugger;
  return total;
}

parentPort.postMessage(sum(workerData));
