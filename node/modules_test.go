package node_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The module matrix: every kind of importer (.mjs, .js under "type": "module", .cjs, .js under no "type", .ts,
// .mts, .cts) imports every kind of module (ES default and named exports, CommonJS module.exports as an object, a
// function and a primitive, JSON, packages from node_modules through "exports" conditions, subpath patterns,
// "main" and index files, "#" imports, the built-in worker_threads), and prints what it got. Each importer runs
// under jsworker and under node (v20), which must print the same; TypeScript importers, which node 20 cannot run,
// must print what node prints for the same program written in JavaScript.

// describeJS prints a value so that node and jsworker agree on the text (console formatting is not what this
// tests): functions by name and kind, objects by sorted keys, one level deep.
const describeJS = `function describe(v, depth = 0) {
  if (typeof v === "function") return (/^class\b/.test(Function.prototype.toString.call(v)) ? "class " : "function ") + v.name;
  if (v === null || typeof v !== "object") return typeof v + " " + String(v);
  if (depth > 0) return "object";
  return "{" + Object.keys(v).sort().map((k) => k + ": " + describe(v[k], 1)).join(", ") + "}";
}
const show = (label, v) => console.log(label + " = " + describe(v));
`

// moduleTree is the fixture: path → source, under the test's directory.
var moduleTree = map[string]string{
	"package.json":         `{"imports": {"#internal": {"import": "./lib/internal.mjs", "require": "./lib/internal.cjs"}}}`,
	"lib/esm-fn.mjs":       `export default function () { return "esm"; } export const named = "esm-named"; export let counter = 0; export function bump() { counter++; }`,
	"lib/esm-class.mjs":    `export default class { hello() { return "hi"; } }`,
	"lib/esm-prim.mjs":     `export default 42;`,
	"lib/tm/package.json":  `{"type": "module"}`,
	"lib/tm/tm.js":         `export default "tm-default"; export const tmNamed = typeof require;`,
	"lib/cjs-obj.cjs":      `exports.a = 1; exports.b = "two"; module.exports.c = true; Object.defineProperty(exports, "d", { enumerable: true, value: 4 });`,
	"lib/cjs-literal.cjs":  `const a = 1; function f() {} module.exports = { a, b: [1, 2], "c-d": 3, f };`,
	"lib/cjs-fn.cjs":       `module.exports = function hello() { return "hi"; }; module.exports.extra = "x";`,
	"lib/cjs-prim.cjs":     `module.exports = 42;`,
	"lib/cjs-reexport.cjs": `module.exports = require("./cjs-obj.cjs");`,
	"lib/plain-cjs.js":     `exports.plain = "commonjs .js"; exports.self = typeof module + " " + typeof __filename;`,
	"lib/data.json":        `{"name": "data", "list": [1, 2, 3]}`,
	"lib/internal.mjs":     `export default "internal-esm";`,
	"lib/internal.cjs":     `module.exports = "internal-cjs";`,
	"lib/tla.mjs":          `export const before = "before"; export const value = await new Promise((r) => setTimeout(() => r("awaited"), 5));`,
	"node_modules/cond-pkg/package.json": `{"name": "cond-pkg", "exports": {
  ".": {"node": {"import": "./esm.mjs", "require": "./cjs.cjs"}, "default": "./fallback.cjs"},
  "./feature/*": {"import": "./features/*.mjs", "default": "./features/*.cjs"},
  "./feature/private/*": null,
  "./package.json": "./package.json"}}`,
	"node_modules/cond-pkg/esm.mjs":        `export default "cond import"; export const kind = "esm";`,
	"node_modules/cond-pkg/cjs.cjs":        `module.exports = { kind: "cjs", label: "cond require" };`,
	"node_modules/cond-pkg/fallback.cjs":   `module.exports = "fallback";`,
	"node_modules/cond-pkg/features/x.mjs": `export default "feature x (import)";`,
	"node_modules/cond-pkg/features/x.cjs": `module.exports = "feature x (require)";`,
	"node_modules/main-pkg/package.json":   `{"name": "main-pkg", "main": "lib/entry"}`,
	"node_modules/main-pkg/lib/entry.js":   `module.exports = { entry: "main-pkg entry" };`,
	"node_modules/@scope/dir-pkg/index.js": `exports.scoped = "scoped index";`,
	"node_modules/esm-only/package.json":   `{"name": "esm-only", "type": "module", "exports": "./index.js"}`,
	"node_modules/esm-only/index.js":       `export default "esm-only default"; export const only = "esm-only named";`,
	"tm/package.json":                      `{"type": "module", "imports": {"#internal": "./int.js"}}`,
	"tm/int.js":                            `export default "tm internal";`,
}

// esmImporter is the body of every ES module importer; LIB is the path to lib/ from it.
const esmImporter = `import esmFn, { named, counter, bump } from "LIB/esm-fn.mjs";
import * as esmNs from "LIB/esm-fn.mjs";
import EsmClass from "LIB/esm-class.mjs";
import esmPrim from "LIB/esm-prim.mjs";
import tmDefault, { tmNamed } from "LIB/tm/tm.js";
import cjsObj, { a, b, c, d } from "LIB/cjs-obj.cjs";
import * as cjsNs from "LIB/cjs-obj.cjs";
import cjsLit, { a as litA } from "LIB/cjs-literal.cjs";
import * as litNs from "LIB/cjs-literal.cjs";
import cjsFn from "LIB/cjs-fn.cjs";
import cjsPrim from "LIB/cjs-prim.cjs";
import * as reNs from "LIB/cjs-reexport.cjs";
import plain, { plain as plainNamed } from "LIB/plain-cjs.js";
import data from "LIB/data.json" with { type: "json" };
import cond, { kind } from "cond-pkg";
import feature from "cond-pkg/feature/x";
import mainPkg from "main-pkg";
import scoped from "@scope/dir-pkg";
import esmOnly, { only } from "esm-only";
import internal from "#internal";
import wt, { isMainThread, Worker } from "worker_threads";
import * as nodeWT from "node:worker_threads";
import { createRequire } from "node:module";
show("esmFn", esmFn); show("esmFn()", esmFn()); show("named", named);
bump(); show("live counter", counter); show("esmNs", esmNs);
show("EsmClass", EsmClass); show("new EsmClass().hello()", new EsmClass().hello()); show("esmPrim", esmPrim);
show("tmDefault", tmDefault); show("tmNamed", tmNamed);
show("cjsObj", cjsObj); show("a b c d", [a, b, c, d].join()); show("cjsNs", cjsNs);
show("cjsLit", cjsLit); show("litA", litA); show("litNs", litNs);
show("cjsFn", cjsFn); show("cjsFn()", cjsFn()); show("cjsFn.extra", cjsFn.extra); show("cjsPrim", cjsPrim);
show("reNs", reNs);
show("plain", plain); show("plainNamed", plainNamed);
show("data", data); show("data.list", data.list.join());
show("cond", cond); show("kind", kind); show("feature", feature); show("mainPkg", mainPkg); show("scoped", scoped);
show("esmOnly", esmOnly); show("only", only); show("internal", internal);
show("isMainThread", isMainThread); show("Worker", typeof Worker); show("wt.isMainThread", wt.isMainThread);
show("nodeWT.default === wt", nodeWT.default === wt);
show("import.meta.url", import.meta.url.replace(import.meta.dirname, "DIR"));
show("import.meta.filename", import.meta.filename.replace(import.meta.dirname, "DIR"));
show("import.meta.resolve", [import.meta.resolve("cond-pkg"), import.meta.resolve("LIB/data.json"), import.meta.resolve("node:worker_threads"), import.meta.resolve("worker_threads")].join(" ").replaceAll(import.meta.dirname, "DIR"));
try { import.meta.resolve("nope-pkg"); } catch (e) { show("import.meta.resolve missing", e.code); }
const require = createRequire(import.meta.url);
show("createRequire cond-pkg", require("cond-pkg"));
show("require.resolve", require.resolve("cond-pkg/feature/x").replace(import.meta.dirname, "DIR"));
const dyn = await import("LIB/tla.mjs");
show("await import tla", dyn.before + " " + dyn.value);
const json = await import("LIB/data.json", { with: { type: "json" } });
show("dynamic json", json.default.name);
try { await import("cond-pkg/feature/private/y"); } catch (e) { show("not exported", e.code); }
try { await import("nope-pkg"); } catch (e) { show("missing", e.code); }
`

// cjsImporter is the body of every CommonJS importer.
const cjsImporter = `const esmFn = require("LIB/esm-fn.mjs");
show("require(esm)", esmFn); show("require(esm).default()", esmFn.default());
show("require(esm prim)", require("LIB/esm-prim.mjs"));
show("require(tm)", require("LIB/tm/tm.js"));
show("cjsObj", require("LIB/cjs-obj.cjs")); show("cjsLit", require("LIB/cjs-literal.cjs"));
const cjsFn = require("LIB/cjs-fn.cjs"); show("cjsFn", cjsFn); show("cjsFn()", cjsFn());
show("cjsPrim", require("LIB/cjs-prim.cjs")); show("reexport", require("LIB/cjs-reexport.cjs"));
show("same instance", require("LIB/cjs-reexport.cjs") === require("LIB/cjs-obj.cjs"));
show("plain", require("LIB/plain-cjs.js")); show("plain no ext", require("LIB/plain-cjs").plain);
show("data", require("LIB/data.json")); show("data no ext", require("LIB/data").name);
show("cond", require("cond-pkg")); show("feature", require("cond-pkg/feature/x"));
show("mainPkg", require("main-pkg")); show("scoped", require("@scope/dir-pkg"));
show("esm-only", require("esm-only"));
show("internal", require("#internal"));
const wt = require("worker_threads"); show("wt", wt.isMainThread + " " + typeof wt.Worker);
show("node:wt same", require("node:worker_threads") === wt);
show("__filename", __filename.replace(__dirname, "DIR")); show("module.id", module.id);
show("require.main === module", require.main === module);
show("require.resolve", require.resolve("cond-pkg").replace(__dirname, "DIR"));
show("require.resolve builtin", require.resolve("node:worker_threads"));
show("in cache", typeof require.cache[require.resolve("LIB/cjs-obj.cjs")]);
const { createRequire } = require("module");
show("createRequire", createRequire(__filename)("LIB/cjs-prim.cjs"));
try { require("cond-pkg/feature/private/y"); } catch (e) { show("not exported", e.code); }
try { require("nope-pkg"); } catch (e) { show("missing", e.code + " " + e.message.split("\n")[0]); }
try { require("LIB/tla.mjs"); } catch (e) { show("require tla", e.code); }
import("LIB/esm-fn.mjs").then((ns) => show("import() from CommonJS", ns.named));
`

// tsify makes a JavaScript importer TypeScript: type annotations that node would reject and esbuild strips.
func tsify(src string) string {
	src = strings.Replace(src, "function describe(v, depth = 0) {", "function describe(v: unknown, depth: number = 0): string {", 1)
	src = strings.Replace(src, "const show = (label, v) =>", "interface Shown { label: string }\nconst show = (label: string, v: any): void =>", 1)
	return src
}

type importer struct {
	path    string // under the test directory
	src     string
	refPath string // the JavaScript program node runs for it ("" = path itself)
	refSrc  string
}

func matrixImporters() []importer {
	esm := describeJS + esmImporter
	cjs := describeJS + cjsImporter
	rootESM := strings.ReplaceAll(esm, "LIB/", "./lib/")
	rootCJS := strings.ReplaceAll(cjs, "LIB/", "./lib/")
	return []importer{
		{path: "main.mjs", src: rootESM},
		{path: "tm/main.js", src: strings.ReplaceAll(esm, "LIB/", "../lib/")},
		{path: "main.cjs", src: rootCJS},
		{path: "main-commonjs.js", src: rootCJS},
		{path: "main.ts", src: tsify(rootESM), refPath: "main-ts-ref.mjs", refSrc: rootESM},
		{path: "main.mts", src: tsify(rootESM), refPath: "main-mts-ref.mjs", refSrc: rootESM},
		{path: "main.cts", src: tsify(rootCJS), refPath: "main-cts-ref.cjs", refSrc: rootCJS},
	}
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runNode runs node on p (from p's directory) and returns its exit code and stdout; the test is skipped when
// node is not installed.
func runNode(t *testing.T, p string) (int, string, string) {
	t.Helper()
	bin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the module matrix compares jsworker with node v20")
	}
	cmd := exec.Command(bin, p)
	cmd.Dir = filepath.Dir(p)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("node %s: %v", p, err)
		}
		code = ee.ExitCode()
	}
	return code, out.String(), errOut.String()
}

func TestModules_MatrixMatchesNode(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, moduleTree)
	for _, imp := range matrixImporters() {
		t.Run(imp.path, func(t *testing.T) {
			files := map[string]string{imp.path: imp.src}
			ref := imp.path
			if imp.refPath != "" {
				files[imp.refPath] = imp.refSrc
				ref = imp.refPath
			}
			writeTree(t, dir, files)
			wantCode, want, nodeErr := runNode(t, filepath.Join(dir, ref))
			if wantCode != 0 {
				t.Fatalf("node %s: exit %d, stderr %s", ref, wantCode, nodeErr)
			}
			want = strings.ReplaceAll(want, filepath.Base(ref), "SELF")
			code, got, stderr := runFile(t, filepath.Join(dir, imp.path))
			got = strings.ReplaceAll(got, filepath.Base(imp.path), "SELF")
			if code != 0 || got != want {
				t.Fatalf("jsworker run %s: exit %d, stderr %q\n%s", imp.path, code, stderr, lineDiff(want, got))
			}
		})
	}
}

// lineDiff shows the lines of want and got that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("node:     " + wl + "\njsworker: " + gl + "\n")
		}
	}
	if b.Len() == 0 {
		return "(same output)"
	}
	return b.String()
}

// Workers resolve as their parent does: an ES module worker (a .js file under "type": "module") and a CommonJS
// one, each importing a package through its conditions, as node runs them.
func TestModules_WorkersMatchNode(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"tm/package.json":               `{"type": "module"}`,
		"node_modules/dep/package.json": `{"name": "dep", "exports": {"import": "./e.mjs", "require": "./c.cjs"}}`,
		"node_modules/dep/e.mjs":        `export default "dep esm";`,
		"node_modules/dep/c.cjs":        `module.exports = "dep cjs";`,
		"tm/lib.js":                     `export const lib = "tm lib";`,
		"tm/w.js": `import { parentPort, workerData } from "worker_threads";
import dep from "dep";
const { default: later } = await import("dep");
parentPort.postMessage(["esm worker", dep, later, workerData, typeof require].join(" | "));`,
		"w.cjs": `const { parentPort } = require("worker_threads");
parentPort.postMessage(["cjs worker", require("dep"), require("./tm/lib.js").lib, __filename.endsWith("w.cjs")].join(" | "));`,
		"main.js": `const { Worker } = require("worker_threads");
const lines = [];
let n = 0;
for (const f of ["./tm/w.js", "./w.cjs"]) {
  const w = new Worker(f, { workerData: f });
  w.on("message", (m) => lines.push(m));
  w.on("error", (e) => lines.push("error " + e.message));
  w.on("exit", () => { if (++n === 2) console.log(lines.sort().join("\n")); });
}`,
	})
	main := filepath.Join(dir, "main.js")
	wantCode, want, nodeErr := runNode(t, main)
	if wantCode != 0 {
		t.Fatalf("node: exit %d, stderr %s", wantCode, nodeErr)
	}
	t.Chdir(dir) // the workers' relative paths resolve from the current directory, as in Node
	code, got, stderr := runFile(t, main)
	if code != 0 || got != want {
		t.Fatalf("jsworker: exit %d, stderr %q\n%s", code, stderr, lineDiff(want, got))
	}
}

// require's own surface: require.cache (deleting an entry loads the module again), require.resolve and its
// paths, createRequire's argument check, isBuiltin, a JSON file that does not parse, a non-string id.
func TestModules_RequireSurfaceMatchesNode(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"c.cjs":    `exports.n = (globalThis.count = (globalThis.count || 0) + 1);`,
		"bad.json": `{bad`,
		"main.js": `const a = require("./c.cjs");
delete require.cache[require.resolve("./c.cjs")];
const b = require("./c.cjs");
console.log(a.n, b.n, a === b, require("./c.cjs") === b);
try { require("./bad.json"); } catch (e) { console.log(e.name); }
try { require("module").createRequire("rel.js"); } catch (e) { console.log(e.code); }
console.log(require("module").isBuiltin("node:worker_threads"), require("module").isBuiltin("nope"));
console.log(typeof require.resolve.paths, Array.isArray(require.resolve.paths("x")), require.resolve.paths("worker_threads"));
try { require(1); } catch (e) { console.log(e.code); }
console.log(module.id, typeof module.paths, require.main === module, require("module").builtinModules.includes("worker_threads"));`,
	})
	main := filepath.Join(dir, "main.js")
	wantCode, want, nodeErr := runNode(t, main)
	if wantCode != 0 {
		t.Fatalf("node: exit %d, stderr %s", wantCode, nodeErr)
	}
	code, got, stderr := runFile(t, main)
	if code != 0 || got != want {
		t.Fatalf("jsworker: exit %d, stderr %q\n%s", code, stderr, lineDiff(want, got))
	}
}

// A program whose top-level await never settles ends with exit code 13, one whose awaited module throws with 1,
// as node's do; what ran before prints the same.
func TestModules_TopLevelAwaitExitCodes(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"unsettled.mjs": `console.log("before"); await new Promise(() => {}); console.log("never");`,
		"throws.mjs":    `import "./late.mjs"; console.log("never");`,
		"late.mjs":      `console.log("late start"); await new Promise((r) => setTimeout(r, 5)); throw new RangeError("late");`,
		"timer.mjs":     `await new Promise((r) => setTimeout(r, 5)); console.log("after timer");`,
	})
	for _, name := range []string{"unsettled.mjs", "throws.mjs", "timer.mjs"} {
		p := filepath.Join(dir, name)
		wantCode, want, _ := runNode(t, p)
		code, got, stderr := runFile(t, p)
		if code != wantCode || got != want {
			t.Errorf("%s: jsworker exit %d (node %d), stderr %q\n%s", name, code, wantCode, stderr, lineDiff(want, got))
		}
		if name == "throws.mjs" && !strings.Contains(stderr, "RangeError: late") {
			t.Errorf("%s: stderr %q, want the RangeError", name, stderr)
		}
	}
}
