package modules

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// runOut runs the graph of files[entry] and returns globalThis.out, failing the test on a Run error.
func runOut(t *testing.T, files map[string]string, entry string) (*goja.Runtime, *Realm, string) {
	t.Helper()
	rt, r, err := runGraph(t, files, entry)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return rt, r, global(rt, "out")
}

func TestRealm_Interop(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"default of an ES module from .mjs is its default, not the namespace", map[string]string{
			"/a/main.mjs": `import f from "./f.mjs"; import K from "./k.mjs"; import n from "./n.mjs"; import * as ns from "./f.mjs";
				globalThis.out = [typeof f, f(), f.name, new K().m(), n, Object.keys(ns).sort().join("+")].join(" ");`,
			"/a/f.mjs": `export default function () { return "f"; } export const x = 1;`,
			"/a/k.mjs": `export default class { m() { return "k"; } }`,
			"/a/n.mjs": `export default 42;`,
		}, "function f default k 42 default+x"},
		{"CommonJS from ES: module.exports as default, detected names", map[string]string{
			"/a/main.mjs": `import c, { a, b } from "./c.cjs"; import * as ns from "./c.cjs"; import fn from "./fn.cjs"; import p from "./p.cjs";
				globalThis.out = [c === ns.default, a, b, Object.keys(ns).sort().join("+"), fn(), fn.extra, p, "late" in ns].join(" ");`,
			"/a/c.cjs":  `exports.a = "A"; module.exports.b = "B"; const k = "late"; exports[k] = 1;`,
			"/a/fn.cjs": `module.exports = function () { return "fn"; }; module.exports.extra = "E";`,
			"/a/p.cjs":  `module.exports = "prim";`,
		}, "true A B a+b+default fn E prim false"},
		{"CommonJS module.exports = require re-export", map[string]string{
			"/a/main.mjs": `import { a } from "./re.cjs"; globalThis.out = a;`,
			"/a/re.cjs":   `module.exports = require("./c.cjs");`,
			"/a/c.cjs":    `exports.a = "through";`,
		}, "through"},
		{"JSON default only", map[string]string{
			"/a/main.mjs": `import d from "./d.json"; import * as ns from "./d.json"; globalThis.out = d.k + " " + Object.keys(ns).join("+");`,
			"/a/d.json":   `{"k": "v"}`,
		}, "v default"},
		{"CommonJS requires CommonJS, JSON and ES modules", map[string]string{
			"/a/main.mjs": `import c from "./c.cjs"; globalThis.out = c;`,
			"/a/c.cjs":    `const e = require("./e.mjs"); const d = require("./d.json"); module.exports = [e.default, e.x, e.__esModule, d.k, require("./c2.cjs"), typeof __filename, this === exports].join(" ");`,
			"/a/e.mjs":    `export default "E"; export const x = "X";`,
			"/a/d.json":   `{"k": "K"}`,
			"/a/c2.cjs":   `module.exports = __dirname;`,
		}, "E X true K /a string true"},
		{"CommonJS cycle sees the partial exports", map[string]string{
			"/a/main.mjs": `import a from "./a.cjs"; globalThis.out = a.seen + " " + a.done;`,
			"/a/a.cjs":    `exports.done = false; const b = require("./b.cjs"); exports.seen = b.sawA; exports.done = true;`,
			"/a/b.cjs":    `exports.sawA = require("./a.cjs").done;`,
		}, "false true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			entry := "/a/main.mjs"
			if _, out := func() (*Realm, string) { _, r, o := runOut(t, tt.files, entry); return r, o }(); out != tt.want {
				t.Fatalf("out = %q, want %q", out, tt.want)
			}
		})
	}
}

func TestRealm_TopLevelAwait(t *testing.T) {
	files := map[string]string{
		"/a/main.mjs": `import { a } from "./a.mjs"; import { b } from "./b.mjs"; import { c } from "./c.mjs";
			log("main " + a + b + c);
			const d = await import("./d.mjs");
			log("dyn " + d.default);
			try { await import("./bad.mjs"); } catch (e) { log("caught " + e.message); }
			const x = await 1, t = typeof await 0, y = await (async () => 2)();
			log("values " + (x + y) + " " + t);
			globalThis.out = globalThis.lines.join("; ");`,
		"/a/a.mjs":   "log('a start');\nawait null;\nawait Promise.resolve();\nlog('a end');\nexport const a = 'A';",
		"/a/b.mjs":   `log("b"); export const b = "B";`,
		"/a/c.mjs":   `import { a } from "./a.mjs"; log("c after " + a); export const c = await Promise.resolve("C");`,
		"/a/d.mjs":   `await null; export default "D";`,
		"/a/bad.mjs": "await null;\nthrow new Error('bad');",
	}
	rt := goja.New()
	_ = rt.Set("lines", rt.NewArray())
	_, _ = rt.RunString(`globalThis.log = (s) => globalThis.lines.push(s);`)
	r := NewRealm(rt, Options{Loader: mapLoader(files, nil)})
	if err := r.Run("/a/main.mjs", files["/a/main.mjs"]); err != nil {
		t.Fatal(err)
	}
	// The order node prints for the same files: b runs while a waits; c waits for a.
	want := "a start; b; a end; c after A; main ABC; dyn D; caught bad; values 3 number"
	if got := global(rt, "out"); got != want {
		t.Fatalf("out = %q\nwant  %q", got, want)
	}
	if _, ok := r.Pending(); ok {
		t.Fatal("Pending after the graph settled")
	}
}

func TestRealm_TopLevelAwaitFailures(t *testing.T) {
	t.Run("unsettled", func(t *testing.T) {
		files := map[string]string{
			"/a/main.mjs": `import "./w.mjs"; globalThis.out = "main ran";`,
			"/a/w.mjs":    `await new Promise(() => {});`,
		}
		rt, r, err := runGraph(t, files, "/a/main.mjs")
		if err != nil {
			t.Fatal(err)
		}
		if p, ok := r.Pending(); !ok || p != "/a/w.mjs" || global(rt, "out") != "" {
			t.Fatalf("Pending = %q, %v; out %q", p, ok, global(rt, "out"))
		}
	})
	t.Run("rejection reaches the tracker once, importers do not run", func(t *testing.T) {
		files := map[string]string{
			"/a/main.mjs": `import "./bad.mjs"; globalThis.out = "main ran";`,
			"/a/bad.mjs":  "await null;\nthrow new TypeError('late failure');",
		}
		rt := goja.New()
		var rejected []string
		rt.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
			if op == goja.PromiseRejectionReject {
				rejected = append(rejected, p.Result().String())
			}
		})
		r := NewRealm(rt, Options{Loader: mapLoader(files, nil)})
		if err := r.Run("/a/main.mjs", files["/a/main.mjs"]); err != nil {
			t.Fatal(err)
		}
		if global(rt, "out") != "" {
			t.Fatal("the importer of a failed module ran")
		}
		var last string
		if len(rejected) > 0 {
			last = rejected[len(rejected)-1]
		}
		if !strings.Contains(last, "late failure") {
			t.Fatalf("rejections %q", rejected)
		}
	})
	t.Run("require of an async graph", func(t *testing.T) {
		files := map[string]string{
			"/a/main.mjs": `import c from "./c.cjs"; globalThis.out = c;`,
			"/a/c.cjs":    `try { require("./t.mjs"); module.exports = "no error"; } catch (e) { module.exports = e.code; }`,
			"/a/t.mjs":    `import "./deep.mjs";`,
			"/a/deep.mjs": `await null;`,
		}
		if _, _, out := runOut(t, files, "/a/main.mjs"); out != "ERR_REQUIRE_ASYNC_MODULE" {
			t.Fatalf("out = %q", out)
		}
	})
}
