// The program of the real-browser test's worker session (devtools_browser.js): it starts worker_kid.js, which
// pauses at `debugger;` in sum().
'use strict';
const path = require('node:path');
const { Worker } = require('node:worker_threads');

const w = new Worker(path.join(__dirname, 'worker_kid.js'), { workerData: [1, 2, 3], name: 'summer' });
w.on('message', (m) => console.log('sum', m));
