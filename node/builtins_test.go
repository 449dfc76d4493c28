package node_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
	"github.com/jsworker/jsworker/node"
)

// The built-in modules are checked against Node itself: each program under testdata/builtins prints what it
// finds (as JSON or plain strings, so that console formatting plays no part) and must print exactly what `node`
// prints for it — run as the main program and again inside a worker_threads Worker.

// runFile runs the program file as a main program (a module for .mjs) and returns its exit code and output.
func runFile(t *testing.T, file string, argv ...string) (int, string, string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut testsupport.SyncBuffer
	p, err := node.StartProgram(node.ProgramOptions{
		Filename: file, Source: string(src), Module: node.IsModuleFile(file, string(src)),
		Argv:    append([]string{"jsworker", file}, argv...),
		Env:     os.Environ(),
		Options: core.Options{Stdout: &out, Stderr: &errOut},
	})
	if err != nil {
		t.Fatal(err)
	}
	return waitProgram(t, p, file, &out, &errOut)
}

// nodeOutput runs file under node and returns its standard output; it skips the test when node is absent.
func nodeOutput(t *testing.T, file string) string {
	t.Helper()
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: cannot compare with Node's output")
	}
	cmd := exec.Command(nodeBin, file)
	cmd.Dir = filepath.Dir(file)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", file, err, out)
	}
	return string(out)
}

func TestBuiltins_MatchNode(t *testing.T) {
	files, err := filepath.Glob("testdata/builtins/*.*js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test programs: %v", err)
	}
	for _, f := range files {
		f, _ := filepath.Abs(f)
		t.Run(filepath.Base(f), func(t *testing.T) {
			want := nodeOutput(t, f)
			code, out, errOut := runFile(t, f)
			if code != 0 || out != want {
				t.Fatalf("exit %d\n--- jsworker\n%s\n--- node\n%s\n--- stderr\n%s", code, out, want, errOut)
			}
			if strings.HasSuffix(f, ".mjs") {
				return
			}
			// the same program in a worker_threads Worker prints the same
			wrapper := filepath.Join(t.TempDir(), "wrapper.js")
			src := "const { Worker } = require('worker_threads');\n" +
				"new Worker(" + jsString(f) + ").on('error', (e) => { console.log('worker error', e); process.exitCode = 1; });\n"
			if err := os.WriteFile(wrapper, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errOut = runFile(t, wrapper)
			if code != 0 || out != want {
				t.Fatalf("in a worker: exit %d\n--- jsworker\n%s\n--- node\n%s\n--- stderr\n%s", code, out, want, errOut)
			}
		})
	}
}

func jsString(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

func TestBuiltins_Loading(t *testing.T) {
	cases := []struct{ name, src, out string }{
		{"node: prefix gives the same object", `const names = ['assert', 'assert/strict', 'async_hooks', 'buffer', 'cluster', 'crypto', 'events', 'fs', 'fs/promises', 'os', 'path', 'path/posix', 'perf_hooks', 'process', 'querystring', 'string_decoder', 'timers', 'timers/promises', 'tty', 'url', 'util', 'util/types', 'worker_threads'];
console.log(names.every((n) => require(n) === require('node:' + n)), require('process') === process, require('fs/promises') === require('fs').promises, require('util/types') === require('util').types)`,
			"true true true true\n"},
		{"unknown module lists the built-ins", `try { require('child_process') } catch (e) { console.log(e.code, e.message.includes('events, fs, fs/promises'), e.message.includes('worker_threads')) }`,
			"MODULE_NOT_FOUND true true\n"},
		{"internal modules are not reachable", `try { require('internal/inspect') } catch (e) { console.log(e.code) }`, "MODULE_NOT_FOUND\n"},
		{"path.win32 says it is missing", `try { require('path').win32.join('a') } catch (e) { console.log(e.message) }`,
			"jsworker: path.win32 is not supported (path.win32.join): jsworker provides POSIX paths only\n"},
		{"fs streams say they are missing", `try { require('fs').createReadStream('/x') } catch (e) { console.log(e.message) }`,
			"jsworker: fs.createReadStream is not supported\n"},
		{"crypto ciphers say they are missing", `try { require('crypto').createCipheriv() } catch (e) { console.log(e.message) }`,
			"jsworker: crypto.createCipheriv is not supported\n"},
		{"async_hooks.createHook says it is missing", `try { require('async_hooks').createHook({}) } catch (e) { console.log(e.message) }`,
			"jsworker: async_hooks.createHook is not supported (only AsyncResources are numbered)\n"},
		{"cluster is the primary", `const c = require('cluster'); console.log(c.isPrimary, c.isWorker); try { c.fork() } catch (e) { console.log(e.message) }`,
			"true false\njsworker: cluster.fork is not supported (jsworker runs one process: use worker_threads)\n"},
		{"tty.isatty of a redirected stream", `console.log(require('tty').isatty(1), require('tty').isatty(-1))`, "false false\n"},
		{"async ids of AsyncResources", `const { AsyncResource, executionAsyncId } = require('async_hooks'); const r = new AsyncResource('X'); console.log(executionAsyncId(), r.triggerAsyncId(), r.runInAsyncScope(() => executionAsyncId()) === r.asyncId(), executionAsyncId())`,
			"1 1 true 1\n"},
		{"globals", `console.log([typeof Buffer, typeof AbortController, typeof AbortSignal, typeof EventTarget, typeof Event, typeof CustomEvent, typeof DOMException, typeof atob, typeof btoa, typeof crypto.randomUUID].join(' '), Buffer === require('buffer').Buffer)`,
			"function function function function function function function function function function true\n"},
		{"worker instanceof EventEmitter", `const { Worker } = require('worker_threads'); const EE = require('events'); const w = new Worker('', { eval: true }); console.log(w instanceof EE, process instanceof EE, new EE() instanceof EE); w.terminate()`,
			"true true true\n"},
		{"top-level const does not shadow the library's globals", `const performance = 1, process = 2; const e = new Event('x'); console.log(typeof e.timeStamp, require('path').resolve('/a', 'b'))`,
			"number /a/b\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runProgram(t, c.src)
			if code != 0 || out != c.out {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, c.out)
			}
		})
	}
}

func TestProcess_UncaughtListeners(t *testing.T) {
	cases := []struct{ name, src, out string }{
		{"uncaughtException keeps the program alive", `process.on('uncaughtException', (e, origin) => console.log('caught', e.message, origin));
setTimeout(() => { throw new Error('boom'); }, 1); setTimeout(() => console.log('still alive'), 20);`, "caught boom uncaughtException\nstill alive\n"},
		{"unhandledRejection", `process.on('unhandledRejection', (r) => console.log('rejection', r.message)); Promise.reject(new Error('nope')); setTimeout(() => console.log('after'), 5);`,
			"rejection nope\nafter\n"},
		{"rejection goes to uncaughtException without an unhandledRejection listener", `process.on('uncaughtException', (e, origin) => console.log(e.message, origin)); Promise.reject(new Error('r1'));`,
			"r1 unhandledRejection\n"},
		{"warning event", `process.on('warning', (w) => console.log(w.name, w.message, w.code)); process.emitWarning('careful', 'CustomWarning', 'C1'); console.log('sync first')`,
			"sync first\nCustomWarning careful C1\n"},
		{"cpuUsage and resourceUsage", `const u = process.cpuUsage(); const d = process.cpuUsage(u); const r = process.resourceUsage(); console.log(typeof u.user, typeof d.system, d.user >= 0, typeof r.maxRSS, typeof r.voluntaryContextSwitches)`,
			"number number true number number\n"},
		{"chdir in a worker is refused", `const { Worker } = require('worker_threads'); new Worker("try { process.chdir('/') } catch (e) { console.log(e.code, e.message) }", { eval: true })`,
			"ERR_WORKER_UNSUPPORTED_OPERATION process.chdir() is not supported in workers\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runProgram(t, c.src)
			if code != 0 || out != c.out {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, c.out)
			}
		})
	}
	// the warning's line on standard error, as Node writes it
	_, _, errOut := runProgram(t, `process.emitWarning('careful', 'CustomWarning', 'C1')`)
	if want := ") [C1] CustomWarning: careful\n"; !strings.HasPrefix(errOut, "(node:") || !strings.HasSuffix(errOut, want) {
		t.Fatalf("stderr %q, want (node:PID)%s", errOut, want)
	}
}

func TestProcess_Chdir(t *testing.T) {
	dir := t.TempDir()
	real, _ := filepath.EvalSymlinks(dir)
	old, _ := os.Getwd()
	defer os.Chdir(old)
	code, out, errOut := runProgram(t, `const before = process.cwd(); process.chdir(`+jsString(dir)+`); console.log(process.cwd()); process.chdir(before);
try { process.chdir('/no/such/dir') } catch (e) { console.log(e.code, e.syscall) }`)
	if code != 0 || out != real+"\nENOENT chdir\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestAsyncLocalStorage_MatchesNode: the store seen in promise jobs, timers, immediates, nextTick, queueMicrotask,
// a Worker's and a MessagePort's 'message' listeners and an emitter's listeners is Node's. The lines are compared
// as sets: the order of the event loop's phases is not what this test is about.
func TestAsyncLocalStorage_MatchesNode(t *testing.T) {
	f, _ := filepath.Abs("testdata/als.js")
	want := nodeOutput(t, f)
	code, out, errOut := runFile(t, f)
	sorted := func(s string) string {
		l := strings.Split(strings.TrimSpace(s), "\n")
		sort.Strings(l)
		return strings.Join(l, "\n")
	}
	if code != 0 || sorted(out) != sorted(want) {
		t.Fatalf("exit %d\n--- jsworker\n%s\n--- node\n%s\n--- stderr\n%s", code, out, want, errOut)
	}
}
