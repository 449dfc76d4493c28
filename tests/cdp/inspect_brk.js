// The real-client test of the DevTools endpoint: chrome-remote-interface, as a debugger would, attaches to
// `jsworker run --inspect-brk`, lists the targets, sets a breakpoint by URL, gets the pause, evaluates on the call
// frame, resumes, and the program finishes with its own output and exit code 0.
//
//   node inspect_brk.js /path/to/jsworker
//
// Run by cdp_test.go (`go test ./tests/cdp`), which installs chrome-remote-interface with `npm ci` first.
'use strict';

const assert = require('node:assert/strict');
const { spawn } = require('node:child_process');
const path = require('node:path');
const CDP = require('chrome-remote-interface');

const bin = process.argv[2];
const fixture = path.join(__dirname, 'fixture.js');
const BREAK_LINE = 3; // 0-based: `const doubled = n * 2;` in fixture.js

// Every wait is bounded, generously.
const timer = setTimeout(() => {
  console.error('inspect_brk.js: timed out');
  process.exit(2);
}, 60_000);

function step(what) {
  console.log('ok   ' + what);
}

async function main() {
  const child = spawn(bin, ['run', '--inspect-brk=127.0.0.1:0', fixture, 'arg1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));

  // "Debugger listening on ws://127.0.0.1:PORT/<id>" on standard error, as Node prints it.
  const listening = await new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /Debugger listening on (ws:\/\/127\.0\.0\.1:(\d+)\/([0-9a-f-]+))/.exec(stderr);
      if (m) resolve({ url: m[1], port: Number(m[2]), id: m[3] });
    });
    child.on('exit', () => reject(new Error('jsworker exited before listening: ' + stderr)));
  });
  step('jsworker prints ' + listening.url);

  const targets = await CDP.List({ host: '127.0.0.1', port: listening.port });
  assert.ok(targets.length >= 1, 'at least one target');
  const main = targets[0];
  assert.equal(main.id, listening.id);
  assert.equal(main.type, 'node');
  assert.equal(main.title, 'fixture.js');
  assert.equal(main.url, 'file://' + fixture);
  assert.equal(main.webSocketDebuggerUrl, listening.url);
  step('CDP.List lists the program first: ' + main.title);

  const version = await CDP.Version({ host: '127.0.0.1', port: listening.port });
  assert.match(version.Browser, /^jsworker\//);
  step('CDP.Version: ' + version.Browser);

  // The client builds its API from /json/protocol (local: false).
  const client = await CDP({ host: '127.0.0.1', port: listening.port, target: main });
  const { Debugger, Runtime } = client;
  step('connected over WebSocket');

  const scripts = [];
  Debugger.scriptParsed((p) => scripts.push(p));
  await Runtime.enable();
  await Debugger.enable();
  const bp = await Debugger.setBreakpointByUrl({ urlRegex: 'fixture\\.js$', lineNumber: BREAK_LINE });
  assert.ok(bp.breakpointId, 'a breakpoint id');
  step('breakpoint set by URL: ' + bp.breakpointId);

  // Release the program. With Debugger enabled it pauses at its first statement (Node's --inspect-brk).
  let paused = Debugger.paused();
  await Runtime.runIfWaitingForDebugger();
  let p = await paused;
  assert.equal(p.reason, 'Break on start');
  step('paused on start at line ' + p.callFrames[0].location.lineNumber);
  assert.ok(scripts.some((s) => s.url === 'file://' + fixture), 'scriptParsed for fixture.js, as a file:// URL');

  paused = Debugger.paused();
  await Debugger.resume();
  p = await paused;
  assert.deepEqual(p.hitBreakpoints, [bp.breakpointId]);
  assert.equal(p.callFrames[0].location.lineNumber, BREAK_LINE);
  assert.equal(p.callFrames[0].functionName, 'double');
  step('paused at the breakpoint in ' + p.callFrames[0].functionName + '()');

  const r = await Debugger.evaluateOnCallFrame({ callFrameId: p.callFrames[0].callFrameId, expression: 'n + 100' });
  assert.equal(r.result.type, 'number');
  assert.equal(r.result.value, 121);
  const argv = await Debugger.evaluateOnCallFrame({
    callFrameId: p.callFrames[0].callFrameId, expression: 'process.argv.slice(2)', returnByValue: true,
  });
  assert.deepEqual(argv.result.value, ['arg1']);
  step('evaluateOnCallFrame: n + 100 = ' + r.result.value);

  // The program ends with the client attached: as Node, jsworker says so and keeps serving until it disconnects.
  const waiting = new Promise((resolve) => {
    const check = () => { if (stderr.includes('Waiting for the debugger to disconnect...\n')) resolve(); };
    child.stderr.on('data', check);
    check();
  });
  await Debugger.resume();
  step('resumed');
  await waiting;
  const late = await Runtime.evaluate({ expression: 'typeof double' });
  assert.equal(late.result.value, 'function');
  step('"Waiting for the debugger to disconnect...": the realm still answers');
  await client.close(); // jsworker stops waiting and exits

  const { code, signal } = await exited;
  assert.equal(signal, null);
  assert.equal(code, 0, 'exit code; stderr:\n' + stderr);
  assert.equal(stdout, 'doubled 42\n');
  step('the program finished: exit code 0, output ' + JSON.stringify(stdout));
}

main().then(() => {
  clearTimeout(timer);
  console.log('PASS');
}, (err) => {
  clearTimeout(timer);
  console.error('FAIL:', err && err.stack || err);
  process.exit(1);
});
