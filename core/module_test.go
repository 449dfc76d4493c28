package core_test

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/modules"
)

// memLoader serves modules from files, resolving relative specifiers against
// the referrer's directory.
func memLoader(files map[string]string) modules.Loader {
	return func(spec, referrer string) (string, string, error) {
		p := spec
		if strings.HasPrefix(spec, ".") {
			p = path.Join(path.Dir(referrer), spec)
		}
		src, ok := files[p]
		if !ok {
			return "", "", fmt.Errorf("%w: %s", modules.ErrNotFound, p)
		}
		return p, src, nil
	}
}

// spawnModule starts the module worker of files["/app/main.js"].
func spawnModule(t *testing.T, files map[string]string, opts core.Options) *core.Worker {
	t.Helper()
	w, err := core.SpawnModule("/app/main.js", files["/app/main.js"], memLoader(files), opts)
	if err != nil {
		t.Fatalf("SpawnModule: %v", err)
	}
	t.Cleanup(w.Release)
	return w
}

// TestSpawnModule_SharedCounter is issue 8's scenario: the entry imports
// bump from a helper module; the host posts a SharedArrayBuffer, the reply
// arrives, and the shared counter is 1.
func TestSpawnModule_SharedCounter(t *testing.T) {
	rt := hostRealm(t)
	w := spawnModule(t, map[string]string{
		"/app/main.js":   `import { bump } from "./helper.js"; onmessage = (e) => { bump(e.data.sab); postMessage({ done: true }); close(); }`,
		"/app/helper.js": `export const bump = (sab) => Atomics.add(new Int32Array(sab), 0, 1);`,
	}, core.Options{Name: "mod"})
	if w.Kind() != core.KindModule {
		t.Fatalf("Kind = %v", w.Kind())
	}
	sab, err := rt.RunString(`new SharedArrayBuffer(4)`)
	if err != nil {
		t.Fatal(err)
	}
	msg := rt.NewObject()
	_ = msg.Set("sab", sab)
	if err := w.PostMessage(rt, msg); err != nil {
		t.Fatal(err)
	}
	if v := recv(t, w, rt); v.ToObject(rt).Get("done").ToBoolean() != true {
		t.Fatalf("reply = %v", v)
	}
	join(t, w)
	_ = rt.Set("sab", sab)
	if n, _ := rt.RunString(`new Int32Array(sab)[0]`); n.ToInteger() != 1 {
		t.Fatalf("counter = %v, want 1", n)
	}
}

// TestSpawnModule_Features runs one graph that uses each feature and posts
// what it saw.
func TestSpawnModule_Features(t *testing.T) {
	rt := goja.New()
	w := spawnModule(t, map[string]string{
		"/app/main.js": `import def, { n, inc } from "./counter.js";
import * as ns from "./counter.js";
import { early } from "./cycle.js";
import { area } from "./shapes.ts";
import cfg from "./cfg.json";
inc(); inc();
onmessage = async () => {
  const lazy = await import("./lazy.js");
  postMessage([n, ns.n, def(), early, area(3), cfg.v, import.meta.url, lazy.where].join(" "));
};`,
		"/app/counter.js": `export let n = 0; export function inc() { n++; } export default () => "def";`,
		"/app/cycle.js":   `import { helper } from "./cycle2.js"; export const early = helper();`,
		"/app/cycle2.js":  `import { early } from "./cycle.js"; export function helper() { return "hoisted"; } export const late = () => early;`,
		"/app/shapes.ts":  "interface Sq { side: number }\nexport function area(side: number): number { const s: Sq = { side }; return s.side * s.side; }\n",
		"/app/cfg.json":   `{"v": "json"}`,
		"/app/lazy.js":    `export const where = import.meta.url;`,
	}, core.Options{})
	post(t, w, rt, 0)
	want := "2 2 def hoisted 9 json /app/main.js /app/lazy.js"
	if got := recv(t, w, rt).String(); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// TestSpawnModule_GraphErrors: a graph that cannot load or evaluate is
// reported once, with the module's path and original position, no later
// module runs, and the worker ends; Join returns the record.
func TestSpawnModule_GraphErrors(t *testing.T) {
	tests := []struct {
		name                 string
		files                map[string]string
		wantName, wantFile   string
		wantLine, wantColumn int
		wantMsg              string
		wantMessages         []string // posted before the failure
	}{
		{"not found", map[string]string{
			"/app/main.js": "postMessage('main ran');\nimport './dep.js';",
			"/app/dep.js":  "\nimport { x } from './nope.js';",
		}, "Error", "/app/dep.js", 2, 19, "Cannot find module './nope.js' imported from /app/dep.js", nil},
		{"syntax error", map[string]string{
			"/app/main.js": "postMessage('main ran');\nimport './dep.js';",
			"/app/dep.js":  "export const a = 1;\n\nlet = ;",
		}, "SyntaxError", "/app/dep.js", 3, 7, "Unexpected", nil},
		{"top-level for await", map[string]string{
			"/app/main.js": "postMessage('main ran');\nfor await (const x of []) {}",
		}, "SyntaxError", "/app/main.js", 2, 5, "top-level for await is not supported", nil},
		{"evaluation error", map[string]string{
			"/app/main.js": "import './ok.js';\nimport './bad.js';\npostMessage('main ran');\nonmessage = () => postMessage('handler ran');",
			"/app/ok.js":   "postMessage('ok ran');",
			"/app/bad.js":  "const x = 1;\nx.y.z = 2;",
		}, "TypeError", "/app/bad.js", 2, 5, "Cannot", []string{"ok ran"}}, // 2:5, where goja places it in a plain script too
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := goja.New()
			sink := newErrorSink()
			w := spawnModule(t, tt.files, core.Options{OnError: sink.handle})
			rec := sink.next(t)
			if rec.Kind != core.ErrorUncaught || rec.Name != tt.wantName || rec.Filename != tt.wantFile ||
				rec.Line != tt.wantLine || rec.Column != tt.wantColumn || !strings.Contains(rec.Message, tt.wantMsg) {
				t.Fatalf("record = %+v\nwant %s at %s:%d:%d containing %q", rec, tt.wantName, tt.wantFile, tt.wantLine, tt.wantColumn, tt.wantMsg)
			}
			err := w.Join(long)
			var got core.ErrorRecord
			if !errors.As(err, &got) || got.Filename != rec.Filename || got.Line != rec.Line || got.WorkerID != w.ID() {
				t.Fatalf("Join = %v, want the record", err)
			}
			var msgs []string
			for {
				v, err := w.Receive(rt, long)
				if errors.Is(err, core.ErrClosed) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				msgs = append(msgs, v.String())
			}
			if fmt.Sprint(msgs) != fmt.Sprint(tt.wantMessages) {
				t.Fatalf("messages = %q, want %q", msgs, tt.wantMessages)
			}
			if err := w.PostMessage(rt, rt.ToValue(1)); !errors.Is(err, core.ErrClosed) {
				t.Fatalf("PostMessage to the ended worker: %v", err)
			}
		})
	}
}

// TestSpawnModule_ErrorsAfterStart: an exception in a handler, thrown in a
// dependency, is reported with the dependency's original position and the
// worker goes on; so does a failed dynamic import, which the module catches.
func TestSpawnModule_ErrorsAfterStart(t *testing.T) {
	rt := goja.New()
	sink := newErrorSink()
	w := spawnModule(t, map[string]string{
		"/app/main.js": `import { check } from "./check.ts";
onmessage = (e) => {
  if (e.data === "dyn") { import("./broken.js").catch((err) => postMessage(err.name + ": " + err.message)); return; }
  postMessage(check(e.data));
};`,
		"/app/check.ts":  "type N = number;\n\nexport function check(v: N): N {\n  if (v < 0) throw new RangeError(`negative: ${v}`);\n  return v;\n}\n",
		"/app/broken.js": "export const a = 1;\nexport const b = ;\n",
	}, core.Options{OnError: sink.handle})
	post(t, w, rt, -1)
	rec := sink.next(t)
	if rec.Name != "RangeError" || rec.Filename != "/app/check.ts" || rec.Line != 4 || rec.Column != 20 ||
		!strings.Contains(rec.Stack, "at check (/app/check.ts:4:20") || !strings.Contains(rec.Stack, "/app/main.js:4:") {
		t.Fatalf("record = %+v", rec)
	}
	post(t, w, rt, 5)
	if v := recv(t, w, rt); v.ToInteger() != 5 {
		t.Fatalf("reply = %v", v)
	}
	post(t, w, rt, "dyn")
	if v := recv(t, w, rt).String(); v != `SyntaxError: Unexpected ";" (/app/broken.js:2:18)` {
		t.Fatalf("dynamic import of a broken module: %q", v)
	}
}

// TestSpawnModule_FileLoader loads a graph from a directory.
func TestSpawnModule_FileLoader(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib/index.js", `export { twice } from "../util";`)
	write("util.ts", `export const twice = (n: number): number => n * 2;`)
	write("data.json", `{"n": 21}`)
	entry := filepath.Join(dir, "main.mjs")
	src := `import { twice } from "./lib"; import d from "./data.json"; postMessage(twice(d.n) + " " + import.meta.url);`
	w, err := core.SpawnModule(entry, src, modules.FileLoader(), core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	rt := goja.New()
	if v := recv(t, w, rt).String(); v != "42 "+entry {
		t.Fatalf("reply = %q", v)
	}
}

// TestSpawnModule_TerminateWhileLoading: Terminate during a slow loader ends
// the worker without an error record; no module runs.
func TestSpawnModule_TerminateWhileLoading(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	loader := func(spec, ref string) (string, string, error) {
		close(entered)
		<-release
		return "/app/dep.js", `export const x = 1;`, nil
	}
	sink := newErrorSink()
	w, err := core.SpawnModule("/app/main.js", `import "./dep.js"; postMessage("ran");`, loader, core.Options{OnError: sink.handle})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	<-entered
	w.Terminate()
	close(release)
	if err := w.Join(long); err != nil {
		t.Fatalf("Join = %v", err)
	}
	if _, err := w.Receive(goja.New(), 0); !errors.Is(err, core.ErrClosed) {
		t.Fatalf("Receive = %v, want ErrClosed", err)
	}
	select {
	case r := <-sink.ch:
		t.Fatalf("unexpected record %+v", r)
	default:
	}
}

func TestSpawnModule_NoEntryPath(t *testing.T) {
	if _, err := core.SpawnModule("", "", nil, core.Options{}); !errors.Is(err, core.ErrNoEntryPath) {
		t.Fatalf("err = %v", err)
	}
}

// TestSpawnModule_NilLoader: with no loader, a module that imports nothing
// runs and one that imports something fails as not found.
func TestSpawnModule_NilLoader(t *testing.T) {
	w, err := core.SpawnModule("/solo.js", `postMessage(typeof require + typeof module);`, nil, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	rt := goja.New()
	if v := recv(t, w, rt).String(); v != "undefinedundefined" {
		t.Fatalf("reply = %q: the wrapper's names leak into the module", v)
	}
	sink := newErrorSink()
	w2, _ := core.SpawnModule("/solo.js", `import "./x.js";`, nil, core.Options{OnError: sink.handle})
	defer w2.Release()
	if r := sink.next(t); !strings.Contains(r.Message, "Cannot find module './x.js'") {
		t.Fatalf("record = %+v", r)
	}
}

// TestSpawnModule_Inspector is issue 8's inspector scenario: every module is
// a script of its own, with its path as URL and its original source; the
// worker pauses at debugger; in the entry's handler and, resumed, replies 42.
func TestSpawnModule_Inspector(t *testing.T) {
	rt := goja.New()
	entry := "import { answer } from \"./dep.js\";\nonmessage = () => {\n  debugger;\n  postMessage(answer);\n};\n"
	w := spawnModule(t, map[string]string{
		"/app/main.js": entry,
		"/app/dep.js":  "export const answer = 42;\n",
	}, core.Options{Inspectable: true})
	d := attach(t, w)
	d.s.Dispatch([]byte(`{"id":100,"method":"Debugger.enable"}`))
	ids := map[string]string{}
	for len(ids) < 2 {
		p := cdp(t, d.s, event("Debugger.scriptParsed"))["params"].(map[string]any)
		if p["isModule"] != true {
			t.Fatalf("scriptParsed without isModule: %v", p)
		}
		ids[p["url"].(string)] = p["scriptId"].(string)
	}
	if ids["file:///app/main.js"] == "" || ids["file:///app/dep.js"] == "" {
		t.Fatalf("scriptParsed named %v, want file:///app/main.js and file:///app/dep.js", ids)
	}
	cdp(t, d.s, response(100))
	if src := d.ok("Debugger.getScriptSource", fmt.Sprintf(`{"scriptId":%q}`, ids["file:///app/main.js"]))["scriptSource"]; src != entry {
		t.Fatalf("getScriptSource = %q, want the original source", src)
	}
	post(t, w, rt, 0)
	p := d.paused()
	frame := p["callFrames"].([]any)[0].(map[string]any)
	if frame["url"] != "file:///app/main.js" || topLine(p) != 2 || frame["location"].(map[string]any)["scriptId"] != ids["file:///app/main.js"] {
		t.Fatalf("paused at %v", frame)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 42 {
		t.Fatalf("reply = %v", v)
	}
}

// TestSpawnModule_InspectorBreakpointsAndStepping: a breakpoint set by URL
// in a TypeScript module, in original coordinates, before the module is
// even loaded (the worker waits for the debugger); stepping from the entry
// into a function of the TypeScript module and out again, with no stop in
// esbuild's generated code.
func TestSpawnModule_InspectorBreakpointsAndStepping(t *testing.T) {
	rt := goja.New()
	w := spawnModule(t, map[string]string{
		"/app/main.js": "import { scale } from \"./calc.ts\";\nonmessage = (e) => {\n  const v = scale(e.data);\n  postMessage(v);\n};\n",
		"/app/calc.ts": "type N = number;\n\nexport function scale(n: N): N {\n  const f: N = 2;\n  return n * f;\n}\n",
	}, core.Options{Inspectable: true, WaitForDebugger: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	bp := d.ok("Debugger.setBreakpointByUrl", `{"url":"file:///app/calc.ts","lineNumber":3}`)
	if locs := bp["locations"].([]any); len(locs) != 0 {
		t.Fatalf("the breakpoint resolved before its module loaded: %v", locs)
	}
	d.ok("Runtime.runIfWaitingForDebugger", "")
	// The graph loads (the breakpoint resolves in calc.ts), then the first
	// module to run breaks on start.
	resolved := cdp(t, d.s, event("Debugger.breakpointResolved"))["params"].(map[string]any)
	if resolved["breakpointId"] != bp["breakpointId"] || resolved["location"].(map[string]any)["lineNumber"] != float64(3) {
		t.Fatalf("breakpointResolved = %v", resolved)
	}
	if p := d.paused(); p["reason"] != "Break on start" {
		t.Fatalf("first pause = %v", p["reason"])
	}
	entryBP := d.ok("Debugger.setBreakpointByUrl", `{"url":"file:///app/main.js","lineNumber":2}`)
	if locs := entryBP["locations"].([]any); len(locs) != 1 || locs[0].(map[string]any)["columnNumber"] != float64(2) {
		t.Fatalf("entry breakpoint locations = %v", locs)
	}
	d.ok("Debugger.resume", "")
	post(t, w, rt, 21)
	p := d.paused()
	if f := p["callFrames"].([]any)[0].(map[string]any); f["url"] != "file:///app/main.js" || topLine(p) != 2 {
		t.Fatalf("paused at %v", f)
	}
	var stops []string
	for _, step := range []string{"stepInto", "stepOver", "stepOut"} {
		d.ok("Debugger."+step, "")
		p := d.paused()
		f := p["callFrames"].([]any)[0].(map[string]any)
		loc := f["location"].(map[string]any)
		stops = append(stops, fmt.Sprintf("%s:%v:%v", f["url"], loc["lineNumber"], loc["columnNumber"]))
		if step == "stepInto" {
			// Into the TypeScript module, at the breakpoint set there in
			// original coordinates; the caller's frame is the entry's line.
			caller := p["callFrames"].([]any)[1].(map[string]any)
			if fmt.Sprint(p["hitBreakpoints"]) != fmt.Sprint([]any{bp["breakpointId"]}) ||
				caller["url"] != "file:///app/main.js" || caller["location"].(map[string]any)["lineNumber"] != float64(2) {
				t.Fatalf("after stepInto: hit %v, frame %v, caller %v", p["hitBreakpoints"], f, caller)
			}
		}
	}
	if want := "[file:///app/calc.ts:3:2 file:///app/calc.ts:4:2 file:///app/main.js:3:2]"; fmt.Sprint(stops) != want {
		t.Fatalf("stepped through %v, want %s", stops, want)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 42 {
		t.Fatalf("reply = %v", v)
	}
}

// BenchmarkSpawnModule measures a module worker's start to its first message:
// a 10-module graph of about 1000 lines per module, compiled modules cached
// by the process (every start after the first; modules' own benchmarks
// measure the cold start).
func BenchmarkSpawnModule(b *testing.B) {
	files := map[string]string{}
	var src strings.Builder
	for i := range 10 {
		src.Reset()
		if i < 9 {
			fmt.Fprintf(&src, "import { total as next } from \"./m%d.js\";\n", i+1)
		} else {
			src.WriteString("const next = 0;\n")
		}
		for f := range 124 {
			fmt.Fprintf(&src, "export function f%d(a, b = %d) {\n  const o = { a, b };\n  let s = 0;\n  for (let j = 0; j < o.a; j++) s += j * o.b;\n  if (s > 1e9) throw new RangeError(`too big: ${s}`);\n  return s;\n}\n\n", f, f)
		}
		src.WriteString("export const total = next + f1(3);\n")
		if i == 0 {
			src.WriteString("postMessage(total);\n")
		}
		files[fmt.Sprintf("/app/m%d.js", i)] = src.String()
	}
	rt := goja.New()
	for b.Loop() {
		w, err := core.SpawnModule("/app/m0.js", files["/app/m0.js"], memLoader(files), core.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Receive(rt, long); err != nil {
			b.Fatal(err)
		}
		w.Release()
	}
}
