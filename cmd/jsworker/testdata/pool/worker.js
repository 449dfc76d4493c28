'use strict';
const { parentPort } = require('node:worker_threads');
const crypto = require('node:crypto');
const util = require('node:util');
const { StringDecoder } = require('node:string_decoder');
parentPort.on('message', (task) => {
  const buf = Buffer.from(task.data);
  const text = new StringDecoder('utf8').write(buf);
  parentPort.postMessage({
    id: task.id,
    hash: crypto.createHash('sha256').update(buf).digest('hex').slice(0, 12),
    text: util.format('%s:%d', text, buf.length),
    isBuffer: Buffer.isBuffer(buf),
    len: Buffer.byteLength(text),
  });
});
