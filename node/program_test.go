package node_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
	"github.com/jsworker/jsworker/node"
)

// runProgram runs src as a main program and returns its exit code, stdout
// and stderr. It fails the test if the program does not end in time.
func runProgram(t *testing.T, src string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut testsupport.SyncBuffer
	p, err := node.StartProgram(node.ProgramOptions{
		Filename: "/tmp/jsworker-test/main.js",
		Source:   src,
		Argv:     append([]string{"/usr/local/bin/jsworker", "/tmp/jsworker-test/main.js"}, args...),
		Env:      []string{"JSWORKER_TEST=yes"},
		Options:  core.Options{Stdout: &out, Stderr: &errOut},
	})
	if err != nil {
		t.Fatal(err)
	}
	return waitProgram(t, p, "program", &out, &errOut)
}

func TestProgram_ExitCodes(t *testing.T) {
	cases := []struct {
		name, src string
		code      int
		out, err  string
	}{
		{"dry", `console.log("hi", process.argv.length, process.env.JSWORKER_TEST)`, 0, "hi 2 yes\n", ""},
		{"exitCode", `process.exitCode = 4; setTimeout(() => console.log("later"), 5)`, 4, "later\n", ""},
		{"exit", `setTimeout(() => console.log("never"), 1000); process.exit(3); console.log("not here")`, 3, "", ""},
		{"uncaught", "setTimeout(() => {\n  throw new Error('boom');\n}, 1)", 1, "", "Error: boom"},
		{"rejection", `Promise.reject(new TypeError("nope"))`, 1, "", "TypeError: nope"},
		{"unref", `setTimeout(() => console.log("never"), 10000).unref(); console.log("bye")`, 0, "bye\n", ""},
		{"interval", `let n = 0; const i = setInterval(() => { if (++n === 3) { clearInterval(i); console.log(n); } }, 1)`, 0, "3\n", ""},
		{"nextTick", `process.nextTick((a) => console.log("tick", a), 1); Promise.resolve().then(() => console.log("then")); console.log("sync")`, 0, "sync\ntick 1\nthen\n", ""},
		{"globals", `console.log(typeof postMessage, typeof self, typeof require, typeof module, __filename, __dirname, typeof global, process.version)`,
			0, "undefined undefined function object /tmp/jsworker-test/main.js /tmp/jsworker-test object " + node.NodeVersion + "\n", ""},
		{"require other", `try { require('child_process') } catch (e) { console.log(e.code) }`, 0, "MODULE_NOT_FOUND\n", ""},
		{"isMainThread", `const wt = require('node:worker_threads'); console.log(wt.isMainThread, wt.parentPort, wt.threadId, require('worker_threads') === wt)`, 0, "true null 0 true\n", ""},
		{"beforeExit and exit", `let more = true;
process.on('beforeExit', (c) => { console.log('beforeExit', c); if (more) { more = false; setTimeout(() => console.log('more'), 1); } });
process.on('exit', (c) => { console.log('exit', c); process.exitCode = 5; });
console.log('main');`, 5, "main\nbeforeExit 0\nmore\nbeforeExit 0\nexit 0\n", ""},
		{"exit event on process.exit", `process.on('exit', (c) => console.log('exit', c, process.exitCode)); setTimeout(() => { process.exit(4); console.log('never'); }, 1)`, 4, "exit 4 4\n", ""},
		{"exit event after an uncaught error", `process.on('exit', (c) => console.log('exit', c)); setTimeout(() => { throw new Error('late boom'); }, 1)`, 1, "exit 1\n", "Error: late boom"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := runProgram(t, c.src)
			if code != c.code || out != c.out || !strings.Contains(errOut, c.err) || (c.err == "" && errOut != "") {
				t.Fatalf("code %d, stdout %q, stderr %q; want %d, %q, %q", code, out, errOut, c.code, c.out, c.err)
			}
		})
	}
}

func TestProgram_UncaughtIsPrintedLikeNode(t *testing.T) {
	code, _, errOut := runProgram(t, "const x = 1;\nfunction f() {\n  throw new RangeError('bad ' + x);\n}\nf();\n")
	want := "/tmp/jsworker-test/main.js:3\n  throw new RangeError('bad ' + x);\n"
	want2 := "^\n\nRangeError: bad 1\n    at f (/tmp/jsworker-test/main.js:3:9)\n    at /tmp/jsworker-test/main.js:5:2\n"
	if code != 1 || !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, want2) {
		t.Fatalf("code %d, stderr:\n%s\nwant prefix:\n%s", code, errOut, want)
	}
}

func TestProgram_WorkerThreadsBasics(t *testing.T) {
	src := `
const { Worker, isMainThread } = require('worker_threads');
const code = "const { parentPort, workerData, isMainThread, threadId } = require('worker_threads');" +
	"parentPort.on('message', (m) => { if (m === 'bye') parentPort.close(); else parentPort.postMessage([m, workerData, isMainThread, typeof threadId]); });";
const w = new Worker(code, { eval: true, workerData: { n: 42 } });
const events = [];
w.on('online', () => events.push('online'));
w.on('message', (m) => { events.push(JSON.stringify(m)); w.postMessage('bye'); });
w.on('exit', (c) => { events.push('exit ' + c); console.log(events.join('|')); });
w.postMessage('hello');
`
	code, out, errOut := runProgram(t, src)
	if code != 0 || out != "online|[\"hello\",{\"n\":42},false,\"number\"]|exit 0\n" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A module program imports worker_threads and starts a module worker from
// an .mjs file, which imports it too.
func TestProgram_ModuleProgramAndModuleWorker(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("w.mjs", `import { parentPort, workerData, isMainThread } from 'node:worker_threads';
import { twice } from './lib.mjs';
parentPort.postMessage([twice(workerData), isMainThread].join());`)
	write("lib.mjs", `export function twice(x) { return 2 * x; }`)
	main := write("main.mjs", `import { Worker } from 'worker_threads';
import { URL as NodeURL } from 'node:url';
if (!import.meta.url.startsWith('file:///') || NodeURL !== URL) throw new Error('import.meta.url ' + import.meta.url);
const w = new Worker(new URL('./w.mjs', import.meta.url), { workerData: 21 });
w.on('message', (m) => console.log(m));
w.on('exit', (c) => console.log('exit', c));`)
	src, _ := os.ReadFile(main)
	var out, errOut testsupport.SyncBuffer
	p, err := node.StartProgram(node.ProgramOptions{Filename: main, Source: string(src), Module: true,
		Options: core.Options{Stdout: &out, Stderr: &errOut}})
	if err != nil {
		t.Fatal(err)
	}
	if code := p.Wait(); code != 0 || out.String() != "42,false\nexit 0\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}

	bad := write("bad.mjs", "import { nope } from './missing.mjs';\n")
	p, err = node.StartProgram(node.ProgramOptions{Filename: bad, Source: "import { nope } from './missing.mjs';\n", Module: true,
		Options: core.Options{Stdout: &out, Stderr: &errOut}})
	if err != nil {
		t.Fatal(err)
	}
	if code := p.Wait(); code != 1 || !strings.Contains(errOut.String(), "missing.mjs") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestURL_Globals: URL and URLSearchParams in every realm (a plain worker
// here), relative references resolved against a base as the WHATWG
// algorithm does, invalid input a TypeError with code ERR_INVALID_URL, and
// require('url') in a Node-style program.
func TestURL_Globals(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `postMessage([
  new URL("./w.mjs", "file:///app/src/main.mjs").href,
  new URL("../b?q=1#f", "https://a.example/x/y/z").href,
  new URL("https://h.example:443/p?a=1&b=2").searchParams.get("b"),
  new URLSearchParams("x=1&x=2").getAll("x").join("+"),
  (() => { try { new URL("rel"); } catch (e) { return e.name + " " + e.code; } })(),
  (() => { try { new URL("x", "not a base"); } catch (e) { return e.name + " " + e.code; } })(),
  new URL("x", "https://a.example/d/") instanceof URL,
].join("|"));`, core.Options{})
	want := "file:///app/src/w.mjs|https://a.example/x/b?q=1#f|2|1+2|TypeError ERR_INVALID_URL|TypeError ERR_INVALID_URL|true"
	if v := recv(t, w, rt); v.String() != want {
		t.Fatalf("got  %s\nwant %s", v, want)
	}
	code, out, errOut := runProgram(t, `const url = require('url'); console.log(url.URL === URL, require('node:url') === url, new url.URL('b', 'file:///a/c').pathname)`)
	if code != 0 || out != "true true /a/b\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
