package node_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/testsupport"
	"github.com/jsworker/jsworker/node"
)

// The Node realm's install makes each part on first use (g19): the CommonJS globals and require's module map, the
// tick queue, timers.js, the process accessor, the Node globals' accessors. These tests check that a program
// cannot tell, in the main program and in a worker.

// globalsProbe prints what a program can see of the lazily installed globals: the global names before and after
// touching them, identities across reads, descriptors, and the names of process, module and require.
const globalsProbe = `
const names0 = Object.getOwnPropertyNames(globalThis).join();
const d = (o, k) => { const x = Object.getOwnPropertyDescriptor(o, k); return k + ':' + [typeof x.get, typeof x.set, 'value' in x ? typeof x.value : '-', x.writable, x.enumerable, x.configurable].join(' '); };
const first = ['require', 'module', 'exports', '__filename', '__dirname', 'process', 'Buffer', 'atob'].map((k) => d(globalThis, k));
const pg = Object.getOwnPropertyDescriptor(globalThis, 'process').get;
const same = [pg === Object.getOwnPropertyDescriptor(globalThis, 'process').get, require === require, module.require === require,
	exports === module.exports, process === process, process.nextTick === process.nextTick, Buffer === Buffer,
	require('process') === process, require('buffer').Buffer === Buffer, require.main === module].every(Boolean);
const names1 = Object.getOwnPropertyNames(globalThis);
const tail = names1.slice(names1.indexOf('global')).join();
const then = ['Buffer', 'atob', 'module'].map((k) => d(globalThis, k));
const out = [names0 === names1.join(), same, tail, Object.keys(globalThis).join(), first.join('; '), then.join('; '),
	Object.getOwnPropertyNames(process).join(), Object.keys(module).join(), Object.getOwnPropertyNames(require).join()].join('\n');
`

// globalsSeen is what globalsProbe prints, in the main program and in an eval worker alike (it was the same before
// the install was made lazy: measured with the base build).
var globalsSeen = strings.Join([]string{
	"true",
	"true",
	"global,process,Buffer,EventTarget,Event,CustomEvent,AbortController,AbortSignal,DOMException,Blob,File,atob,btoa,crypto,require,module,exports,__filename,__dirname",
	"setTimeout,setInterval,setImmediate,clearTimeout,clearInterval,clearImmediate,performance,queueMicrotask,global,require,module,exports,__filename,__dirname",
	"require:undefined undefined function true true true; module:undefined undefined object true true true; " +
		"exports:undefined undefined object true true true; __filename:undefined undefined string true true true; " +
		"__dirname:undefined undefined string true true true; process:function function -  false true; " +
		"Buffer:function function -  false true; atob:function function -  false true",
	"Buffer:undefined undefined function true false true; atob:function function -  false true; module:undefined undefined object true true true",
	"title,version,versions,platform,arch,pid,ppid,argv,argv0,execArgv,execPath,env,release,config," +
		"features,exit,exitCode,memoryUsage,hrtime,nextTick,cwd,uptime,stdout,stderr,emitWarning,noDeprecation,throwDeprecation,cpuUsage,resourceUsage,chdir,setUncaughtExceptionCaptureCallback,hasUncaughtExceptionCaptureCallback,binding",
	"exports,id,filename,loaded,children,paths,require",
	"length,name,resolve,cache,main",
}, "\n") + "\n"

// TestLazyInstall_GlobalsUnchanged: the globals the Node realm defines lazily keep their names, order,
// attributes and identities, first touched from the main program or from a worker.
func TestLazyInstall_GlobalsUnchanged(t *testing.T) {
	code, out, errOut := runProgram(t, globalsProbe+"console.log(out);")
	if code != 0 || out != globalsSeen || errOut != "" {
		t.Fatalf("main program: exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, out, globalsSeen)
	}
	src, _ := json.Marshal("const { parentPort } = require('worker_threads');" + globalsProbe + "parentPort.postMessage(out);")
	code, out, errOut = runProgram(t, `
const { Worker } = require('worker_threads');
const w = new Worker(`+string(src)+`, { eval: true });
w.on('message', (m) => { console.log(m); w.terminate(); });
`)
	if code != 0 || out != globalsSeen || errOut != "" {
		t.Fatalf("worker: exit %d, stderr %q, stdout\n%s\nwant\n%s", code, errOut, out, globalsSeen)
	}
}

// runProgramIn runs the main program file main.js of dir with files (name → source) beside it; Setup defines
// pendingGlobal(name): whether goja has not made the global name yet.
func runProgramIn(t *testing.T, files map[string]string, main string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut testsupport.SyncBuffer
	p, err := node.StartProgram(node.ProgramOptions{Filename: filepath.Join(dir, "main.js"), Source: main,
		Options: core.Options{Stdout: &out, Stderr: &errOut, Setup: func(w *core.Worker, rt *goja.Runtime) error {
			return rt.Set("pendingGlobal", func(name string) bool { return gojainternal.Pending(rt.GlobalObject(), name) })
		}}})
	if err != nil {
		t.Fatal(err)
	}
	return waitProgram(t, p, "program", &out, &errOut)
}

// TestLazyInstall_RequireBuiltinsWithoutModuleMap: require answers built-in modules without making the module map
// (which takes the realm's SyntaxError and Promise, goja's lazy globals); the first require of a file makes it,
// with the entry as its main module, as when the first require of all made it.
func TestLazyInstall_RequireBuiltinsWithoutModuleMap(t *testing.T) {
	files := map[string]string{"dep.js": "module.exports = { v: 42, main: require.main };"}
	code, out, errOut := runProgramIn(t, files, `
const before = pendingGlobal('SyntaxError') && pendingGlobal('Promise');
const fs = require('fs'), fs2 = require('node:fs'), wt = require('worker_threads');
const builtinOnly = pendingGlobal('SyntaxError') && pendingGlobal('Promise');
let bad; try { require(5); } catch (e) { bad = e.code; }
const dep = require('./dep.js');
console.log(before, builtinOnly, pendingGlobal('SyntaxError'), bad, fs === fs2, typeof wt.Worker, dep.v, dep.main === module,
	require.main === module, require.cache[__filename] === module, require.resolve('fs'), Object.keys(require.cache).length);
`)
	want := "true true false ERR_INVALID_ARG_TYPE true function 42 true true true fs 2\n"
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
	// module.createRequire makes the map after a require of built-ins only: the entry is its main, as before.
	code, out, errOut = runProgramIn(t, files, `
const r = require('module').createRequire(__filename);
const dep = r('./dep.js');
console.log(dep.main === module, r.main === module, require.cache[__filename] === module, r.cache === require.cache,
	Object.keys(require.cache).map((k) => k.slice(-7)).join());
`)
	want = "true true true true main.js,/dep.js\n"
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("createRequire: exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// TestLazyInstall_RequireInWorker: a worker's require answers built-ins first and makes its own module map for
// its first file, with the worker's file as the main module, as before and as in Node.
func TestLazyInstall_RequireInWorker(t *testing.T) {
	files := map[string]string{
		"dep.js": "module.exports = { v: 42, main: require.main };",
		"w.js": `const { parentPort } = require('worker_threads');
const fs = require('fs');
const dep = require('./dep.js');
parentPort.postMessage([dep.v, dep.main === module, require.main === module, require.cache[__filename] === module,
	require.resolve('node:fs'), typeof fs.readFileSync, Object.keys(require.cache).map((k) => k.split('/').pop()).join()].join(' '));`,
	}
	code, out, errOut := runProgramIn(t, files, `
const { Worker } = require('worker_threads');
const w = new Worker(require('path').join(__dirname, 'w.js'));
w.on('message', (m) => { console.log(m); w.terminate(); });
`)
	want := "42 true true true node:fs function w.js,dep.js\n"
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// TestLazyInstall_TickQueueMadeLate: the tick queue is made with process; a realm that first touches process in
// a later callback (a timer of the main program, a worker's first message) still runs its ticks before the
// promise jobs that callback queued, as Node does.
func TestLazyInstall_TickQueueMadeLate(t *testing.T) {
	compareWithNode(t, `
setTimeout(() => {
	Promise.resolve().then(() => console.log('promise'));
	process.nextTick(() => console.log('tick'));
	const { Worker } = require('worker_threads');
	const w = new Worker("const { parentPort } = require('worker_threads');" +
		"parentPort.once('message', () => { Promise.resolve().then(() => parentPort.postMessage('promise'));" +
		"process.nextTick(() => parentPort.postMessage('tick')); });", { eval: true });
	const got = [];
	w.on('message', (m) => { got.push(m); if (got.length === 2) { console.log('worker', got.join(' ')); w.terminate(); } });
	w.postMessage('go');
}, 0);
`, "tick\npromise\nworker tick promise\n")
}

// TestTickStacks: stacks through the loop's wrapped callback read as they did when it was part of lib/ticks.js
// (lib/tickrun.js keeps its call sites in place).
func TestTickStacks(t *testing.T) {
	code, out, errOut := runProgram(t, `
const tail = (e, n) => e.stack.split('\n').filter(Boolean).slice(-n).map((l) => l.trim()).join(' | ');
console.log(tail(new Error('script'), 2));
process.nextTick(() => console.log(tail(new Error('tick'), 2)));
`)
	want := "at runLoopCallback (native) | at runCallback (node:internal/ticks:20:73(7))\n" +
		"at runTicks (node:internal/ticks:17:13(41)) | at runCallback (node:internal/ticks:20:85(11))\n"
	if code != 0 || out != want || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// TestLazyInstall_TimersLibLate: timers.js runs with the first timer, after the program may have replaced what
// it would once have taken at install: the timers are still Node's, with their names.
func TestLazyInstall_TimersLibLate(t *testing.T) {
	compareWithNode(t, `
const odp = Object.defineProperty, apply = Function.prototype.apply;
Object.defineProperty = () => { throw new Error('the program defineProperty was used'); };
const t = setTimeout(() => console.log('fired', setTimeout.name, setImmediate.name, queueMicrotask.name), 1);
Object.defineProperty = odp;
console.log(typeof t.ref, typeof t.hasRef, t.hasRef());
`, "function function true\nfired setTimeout setImmediate queueMicrotask\n")
}
