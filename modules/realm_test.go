package modules

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dop251/goja"
)

// mapLoader serves modules from files, resolving relative specifiers like
// paths. It counts its calls.
func mapLoader(files map[string]string, calls *atomic.Int32) Loader {
	return func(spec, referrer string) (string, string, error) {
		if calls != nil {
			calls.Add(1)
		}
		p := spec
		if strings.HasPrefix(spec, ".") {
			p = path.Join(path.Dir(referrer), spec)
		}
		src, ok := files[p]
		if !ok {
			return "", "", fmt.Errorf("%w: %s", ErrNotFound, p)
		}
		return p, src, nil
	}
}

// runGraph runs the graph whose entry is files[entry] in a fresh runtime and
// returns the runtime and Run's error.
func runGraph(t *testing.T, files map[string]string, entry string) (*goja.Runtime, *Realm, error) {
	t.Helper()
	rt := goja.New()
	r := NewRealm(rt, Options{Loader: mapLoader(files, nil)})
	return rt, r, r.Run(entry, files[entry])
}

// global reads globalThis[name] as a string ("" when undefined).
func global(rt *goja.Runtime, name string) string {
	v := rt.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return ""
	}
	return v.String()
}

func TestRealm_Features(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"live binding", map[string]string{
			"/a/main.js":    `import { n, inc } from "./counter.js"; import * as c from "./counter.js"; inc(); inc(); globalThis.out = n + "," + c.n;`,
			"/a/counter.js": `export let n = 0; export function inc() { n++; }`,
		}, "2,2"},
		{"cycle with hoisted function", map[string]string{
			"/a/main.js": `import { early } from "./b.js"; export function aHelper() { return "hoisted"; } globalThis.out = early;`,
			"/a/b.js":    `import { aHelper } from "./main.js"; export const early = aHelper();`,
		}, "hoisted"},
		{"namespace, default and re-exports", map[string]string{
			"/a/main.js": `import def, * as ns from "./lib.js"; import { x2, y } from "./re.js"; globalThis.out = [def(), Object.keys(ns).sort().join("+"), x2, y].join(" ");`,
			"/a/lib.js":  `export default function () { return "def"; } export const x = 1; export let y = 2;`,
			"/a/re.js":   `export { x as x2 } from "./lib.js"; export * from "./lib.js";`,
		}, "def default+x+y 1 2"},
		{"import.meta.url", map[string]string{
			"/a/main.js":  `import { u } from "./dir/m.js"; globalThis.out = import.meta.url + " " + u;`,
			"/a/dir/m.js": `export const u = import.meta.url;`,
		}, "/a/main.js /a/dir/m.js"},
		{"TypeScript", map[string]string{
			"/a/main.js": `import { twice, Color } from "./t.ts"; globalThis.out = twice(21) + ":" + Color.Blue;`,
			"/a/t.ts":    "interface P { x: number }\nexport enum Color { Red, Blue }\nexport function twice(n: number): number { const p: P = { x: n }; return p.x * 2; }\n",
		}, "42:1"},
		{"JSON", map[string]string{
			"/a/main.js": `import data from "./d.json"; globalThis.out = data.list.join("-");`,
			"/a/d.json":  `{"list": [1, 2, 3]}`,
		}, "1-2-3"},
		{"strict and this", map[string]string{
			"/a/main.js": `globalThis.out = String(this) + ":" + (function () { return this === undefined; })();`,
		}, "undefined:true"},
		{"own module and require names", map[string]string{
			"/a/main.js": `const module = 1; let require = 2; let exports = 3; import { v } from "./v.js"; globalThis.out = module + require + exports + v;`,
			"/a/v.js":    `export const v = 4;`,
		}, "10"},
		{"evaluation order", map[string]string{
			"/a/main.js": `import "./x.js"; import "./y.js"; globalThis.log.push("main"); globalThis.out = globalThis.log.join(",");`,
			"/a/x.js":    `import "./z.js"; globalThis.log = globalThis.log || []; globalThis.log.push("x");`,
			"/a/y.js":    `import "./z.js"; globalThis.log.push("y");`,
			"/a/z.js":    `globalThis.log = globalThis.log || []; globalThis.log.push("z");`,
		}, "z,x,y,main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _, err := runGraph(t, tt.files, "/a/main.js")
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got := global(rt, "out"); got != tt.want {
				t.Fatalf("out = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestRealm_DynamicImport(t *testing.T) {
	var calls atomic.Int32
	files := map[string]string{
		"/a/main.js": `import { n } from "./s.js";
globalThis.before = globalThis.lazyRan === true;
import("./lazy.js").then((m) => { globalThis.out = m.v + ":" + m.default + ":" + n; });
import("./missing.js").catch((e) => { globalThis.err = e.code + " " + e.message; });
import("./s.js").then((m) => { globalThis.same = m.n === n; });`,
		"/a/s.js":    `export const n = 7;`,
		"/a/lazy.js": `globalThis.lazyRan = true; export const v = "lazy"; export default "d";`,
	}
	rt := goja.New()
	r := NewRealm(rt, Options{Loader: mapLoader(files, &calls)})
	if err := r.Run("/a/main.js", files["/a/main.js"]); err != nil {
		t.Fatal(err)
	}
	if got := global(rt, "before"); got != "false" {
		t.Fatalf("the dynamic import ran before its promise job: before = %q", got)
	}
	if got := global(rt, "out"); got != "lazy:d:7" {
		t.Fatalf("out = %q", got)
	}
	if got := global(rt, "same"); got != "true" {
		t.Fatalf("import() of a module of the static graph gave another instance: %q", got)
	}
	if got := global(rt, "err"); !strings.Contains(got, "ERR_MODULE_NOT_FOUND Cannot find module './missing.js' imported from /a/main.js") {
		t.Fatalf("err = %q", got)
	}
	if r.Len() != 3 {
		t.Fatalf("Len = %d, want 3 (main, s, lazy)", r.Len())
	}
	// s.js (static), lazy.js, missing.js; import("./s.js") reuses the
	// static import's resolution.
	if n := calls.Load(); n != 3 {
		t.Fatalf("loader calls = %d, want 3", n)
	}
}

func TestRealm_Errors(t *testing.T) {
	tests := []struct {
		name                 string
		files                map[string]string
		wantName, wantPath   string
		wantLine, wantColumn int
		wantMsg              string
		wantNotFound         bool
	}{
		{"not found", map[string]string{
			"/a/main.js": "// first line\nimport { x } from \"./nope.js\";\nglobalThis.ran = true;",
		}, "Error", "/a/main.js", 2, 19, "Cannot find module './nope.js' imported from /a/main.js", true},
		{"not found deep in the graph", map[string]string{
			"/a/main.js": "import './b.js'; globalThis.ran = true;",
			"/a/b.js":    "\n\nexport * from './gone.js';",
		}, "Error", "/a/b.js", 3, 15, "Cannot find module './gone.js' imported from /a/b.js", true},
		{"syntax error", map[string]string{
			"/a/main.js": "import './b.js'; globalThis.ran = true;",
			"/a/b.js":    "export const ok = 1;\nconst x = ;\n",
		}, "SyntaxError", "/a/b.js", 2, 11, `Unexpected ";"`, false},
		{"top-level for await", map[string]string{
			"/a/main.js": "globalThis.ran = true;\nfor await (const x of []) {}\n",
		}, "SyntaxError", "/a/main.js", 2, 5, "top-level for await is not supported", false},
		{"TypeScript syntax error", map[string]string{
			"/a/main.js": "import './t.ts'; globalThis.ran = true;",
			"/a/t.ts":    "let a: number = 1;\nlet b: = 2;\n",
		}, "SyntaxError", "/a/t.ts", 2, 8, "Unexpected", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, r, err := runGraph(t, tt.files, "/a/main.js")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Run: %v (%T), want an *Error", err, err)
			}
			if e.Name != tt.wantName || e.Path != tt.wantPath || e.Line != tt.wantLine || e.Column != tt.wantColumn || !strings.Contains(e.Message, tt.wantMsg) {
				t.Fatalf("error = %#v\nwant %s at %s:%d:%d containing %q", e, tt.wantName, tt.wantPath, tt.wantLine, tt.wantColumn, tt.wantMsg)
			}
			if errors.Is(err, ErrNotFound) != tt.wantNotFound {
				t.Fatalf("errors.Is(err, ErrNotFound) = %v", !tt.wantNotFound)
			}
			if global(rt, "ran") != "" {
				t.Fatal("a module ran although the graph failed to load")
			}
			if r.Len() != 0 {
				t.Fatalf("the failed graph left %d modules in the map", r.Len())
			}
		})
	}
}

func TestRealm_EvaluationError(t *testing.T) {
	files := map[string]string{
		"/a/main.js": "import { f } from './b.js';\nglobalThis.ran = true;",
		"/a/b.js":    "globalThis.bRan = true;\nexport function f() {}\nfunction fail() {\n  throw new TypeError('boom');\n}\nfail();\n",
	}
	rt, _, err := runGraph(t, files, "/a/main.js")
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("Run: %v (%T), want a *goja.Exception", err, err)
	}
	stack := ex.Value().ToObject(rt).Get("stack").String()
	if !strings.Contains(stack, "TypeError: boom") || !strings.Contains(stack, "at fail (/a/b.js:4:9(") || !strings.Contains(stack, "/a/main.js:1:") {
		t.Fatalf("stack does not show the original positions:\n%s", stack)
	}
	if global(rt, "ran") != "" || global(rt, "bRan") != "true" {
		t.Fatalf("ran = %q, bRan = %q: want only b's body before the throw", global(rt, "ran"), global(rt, "bRan"))
	}
}

func TestRealm_Builtin(t *testing.T) {
	rt := goja.New()
	var asked []string
	r := NewRealm(rt, Options{
		Loader: func(spec, ref string) (string, string, error) { return "", "", fmt.Errorf("%w: %s", ErrNotFound, spec) },
		Builtin: func(spec string) (*goja.Object, bool) {
			asked = append(asked, spec)
			if spec != "node:demo" {
				return nil, false
			}
			o := rt.NewObject()
			_ = o.Set("hello", "world")
			return o, true
		},
	})
	src := `import { hello } from "node:demo"; import d from "node:demo"; import("node:demo").then((m) => { globalThis.dyn = m.hello; }); globalThis.out = hello + d.hello;`
	if err := r.Run("/main.js", src); err != nil {
		t.Fatal(err)
	}
	if global(rt, "out") != "worldworld" || global(rt, "dyn") != "world" {
		t.Fatalf("out = %q, dyn = %q", global(rt, "out"), global(rt, "dyn"))
	}
}

func TestRealm_LoaderFailures(t *testing.T) {
	for _, tt := range []struct {
		name   string
		loader Loader
		want   string
	}{
		{"error", func(string, string) (string, string, error) { return "", "", errors.New("disk on fire") }, "disk on fire"},
		{"panic", func(string, string) (string, string, error) { panic("oops") }, "the loader panicked: oops"},
		{"empty path", func(string, string) (string, string, error) { return "", "x", nil }, "empty path"},
		{"nil loader", nil, "Cannot find module"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRealm(goja.New(), Options{Loader: tt.loader})
			err := r.Run("/m.js", `import "./x.js";`)
			var e *Error
			if !errors.As(err, &e) || !strings.Contains(e.Message, tt.want) || e.Line != 1 {
				t.Fatalf("Run: %v, want an *Error at line 1 containing %q", err, tt.want)
			}
		})
	}
}

func TestCache_SharesPrograms(t *testing.T) {
	ResetCache()
	src := `export const v = 1;`
	a, err := compileModule("/c/x.js", src, FormatModule, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := compileModule("/c/x.js", src, FormatModule, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := compileModule("/c/x.js", src+" ", FormatModule, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a != b || a == c {
		t.Fatalf("cache: same source shared = %v, changed source shared = %v", a == b, a == c)
	}
}

// TestRealm_MetaURLAndFileURLs: Options.MetaURL makes import.meta.url (FileURL
// gives Node's file: URLs), and FileLoader accepts file: URL specifiers.
func TestRealm_MetaURLAndFileURLs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "dep b.mjs"), []byte(`export const meta = import.meta.url;`), 0o644); err != nil {
		t.Fatal(err)
	}
	entry := filepath.Join(dir, "main.mjs")
	depURL := FileURL(filepath.Join(dir, "dep b.mjs"))
	src := `import { meta } from "` + depURL + `"; globalThis.out = [import.meta.url, meta].join(" | ");`
	rt := goja.New()
	r := NewRealm(rt, Options{Loader: FileLoader(), MetaURL: FileURL})
	if err := r.Run(entry, src); err != nil {
		t.Fatal(err)
	}
	want := FileURL(entry) + " | " + depURL
	if got := global(rt, "out"); got != want || !strings.Contains(depURL, "dep%20b.mjs") {
		t.Fatalf("got %q, want %q", got, want)
	}
	if FileURL("relative/x.js") != "relative/x.js" {
		t.Fatal("FileURL changed a relative path")
	}
}
