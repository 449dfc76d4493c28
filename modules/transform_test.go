package modules

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// transformWith is esbuildTransform with the given options (the defines or none).
func transformWith(t *testing.T, opts api.TransformOptions, p, source string) (string, []byte, []api.Message) {
	t.Helper()
	opts.Loader = esbuildLoader(p)
	opts.Sourcefile = esbuildName(p)
	if opts.Loader != api.LoaderJSON {
		source += "\nexport {};\n"
	}
	res := api.Transform(source, opts)
	return string(res.Code), res.Map, res.Errors
}

// TestTransformDefinesSkipped checks namesDefined's promise: for every source it calls free of the defined names —
// the repository's own scripts and modules, the benchmark graph and the cases below — esbuild's output (code,
// source map, errors) is the same with moduleOptions' defines as without them, so leaving them out changes nothing.
func TestTransformDefinesSkipped(t *testing.T) {
	sources := map[string]string{
		"/t/plain.js":    `import { b } from "./b.js"; export let a = b + 1; export default function () { return a }`,
		"/t/types.ts":    `let x: number = 1; enum E { A, B } export const y = E.B + x; namespace N { export const z = 1 }`,
		"/t/dyn.js":      `export const p = import("./b.js").then(m => m.v); async function* g() { for await (const x of g()) yield x }`,
		"/t/tla.js":      `const r = await Promise.resolve(1); export { r }`,
		"/t/global.js":   `globalThis.out = typeof window + typeof process + typeof define; this.x = 1`,
		"/t/syntax.js":   `export const = 1 (`,
		"/t/data.json":   `{"a": [1, 2, {"b": null}]}`,
		"/t/modulo.js":   `export const m = 7 % 3, exportz = 1`,
		"/t/shadow.ts":   `import type { T } from "./t"; export class C<T> { f(x: T): T { return x } }`,
		"/t/reexport.js": `export * from "./b.js"; export * as ns from "./c.js"; export { default as d } from "./d.js"`,
	}
	for p, s := range benchGraph(3, 200) {
		sources[p] = s
	}
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "build" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch filepath.Ext(p) {
		case ".js", ".mjs", ".ts", ".mts":
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sources["/repo/"+filepath.ToSlash(p)] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for p, s := range sources {
		if namesDefined(s) {
			continue
		}
		compared++
		code1, map1, errs1 := transformWith(t, moduleOptions, p, s)
		code2, map2, errs2 := transformWith(t, moduleOptionsNoDefine, p, s)
		if code1 != code2 || !bytes.Equal(map1, map2) || len(errs1) != len(errs2) {
			t.Errorf("%s: the defines changed esbuild's output:\nwith:\n%s\nwithout:\n%s\nerrors %v / %v", p, code1, code2, errs1, errs2)
		}
		for i := range errs1 {
			if i < len(errs2) && errs1[i].Text != errs2[i].Text {
				t.Errorf("%s: error %q with the defines, %q without", p, errs1[i].Text, errs2[i].Text)
			}
		}
	}
	if compared < 30 {
		t.Fatalf("only %d of %d sources compared", compared, len(sources))
	}
}

// TestTransformDefinesNeeded checks the other side: each spelling namesDefined catches does need the defines (the
// output differs without them), so the check is not looser than what esbuild replaces.
func TestTransformDefinesNeeded(t *testing.T) {
	for _, s := range []string{
		`export const u = import.meta.url`,
		`export const u = import /* c */ . meta`,
		`globalThis.out = typeof module`,
		`globalThis.out = typeof mod\u0075le`,
		`globalThis.out = typeof \u{72}equire`,
		`export const r = require("./b.js")`,
		`exports.x = 1`,
	} {
		if !namesDefined(s) {
			t.Errorf("namesDefined(%q) = false", s)
			continue
		}
		code1, _, _ := transformWith(t, moduleOptions, "/t/m.js", s)
		code2, _, _ := transformWith(t, moduleOptionsNoDefine, "/t/m.js", s)
		if code1 == code2 {
			t.Errorf("%q: the same output with the defines as without:\n%s", s, code1)
		}
		if !strings.Contains(code1, "globalThis.") && !strings.Contains(code1, metaName) {
			t.Errorf("%q: no define applied:\n%s", s, code1)
		}
	}
}
