import fs, { readFileSync } from 'node:fs';
import * as path from 'path';
import EventEmitter, { once } from 'events';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'timers/promises';
import os from 'os';
import { Buffer } from 'buffer';
console.log(typeof fs.readFileSync, readFileSync === fs.readFileSync, path.join('a', 'b'), typeof EventEmitter, typeof once, typeof assert.equal, typeof sleep, typeof os.cpus, Buffer.from('x').length);
