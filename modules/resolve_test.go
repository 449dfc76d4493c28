package modules

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
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

func TestResolver_Resolve(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"app/package.json": `{"name": "app", "imports": {"#util": "./src/util.js", "#dep/*": "dep/*", "#cond": {"require": "./c.cjs", "default": "./c.mjs"}},
			"exports": {"./self": "./src/util.js"}}`,
		"app/src/util.js": ``, "app/c.cjs": ``, "app/c.mjs": ``, "app/main.js": ``,
		"app/dir/index.js": ``, "app/data.json": `{}`, "app/noext.cjs": ``,
		"app/withmain/package.json": `{"main": "./lib/start"}`, "app/withmain/lib/start/index.js": ``,
		"node_modules/dep/package.json": `{"name": "dep", "exports": {
			".": {"import": {"node": "./esm/node.mjs", "default": "./esm/any.mjs"}, "require": "./cjs/index.cjs"},
			"./features/*.js": "./src/features/*.js",
			"./features/*": "./src/features/*.js",
			"./features/internal/*": null,
			"./array": [{"worker": "./w.js"}, "./array.js"]}}`,
		"node_modules/dep/esm/node.mjs": ``, "node_modules/dep/cjs/index.cjs": ``,
		"node_modules/dep/src/features/a.js": ``, "node_modules/dep/src/features/b/c.js": ``, "node_modules/dep/array.js": ``,
		"node_modules/old/package.json": `{"main": "lib/old.js"}`, "node_modules/old/lib/old.js": ``, "node_modules/old/extra.js": ``,
		"node_modules/@s/p/index.json": `{}`,
	})
	r := NewResolver()
	ref := filepath.Join(dir, "app/main.js")
	tests := []struct {
		spec  string
		conds []string
		want  string // relative to dir; "" = not found
	}{
		{"./src/util.js", ImportConditions, "app/src/util.js"},
		{"./src/util", RequireConditions, "app/src/util.js"},
		{"./noext", RequireConditions, "app/noext.cjs"},
		{"./dir", RequireConditions, "app/dir/index.js"},
		{"./data", RequireConditions, "app/data.json"},
		{"./withmain", RequireConditions, "app/withmain/lib/start/index.js"},
		{"file://" + filepath.Join(dir, "app/c.mjs"), ImportConditions, "app/c.mjs"},
		{"dep", ImportConditions, "node_modules/dep/esm/node.mjs"},
		{"dep", RequireConditions, "node_modules/dep/cjs/index.cjs"},
		{"dep/features/a", ImportConditions, "node_modules/dep/src/features/a.js"},
		{"dep/features/a.js", ImportConditions, "node_modules/dep/src/features/a.js"},
		{"dep/features/b/c", ImportConditions, "node_modules/dep/src/features/b/c.js"},
		{"dep/features/internal/x", ImportConditions, ""},
		{"dep/cjs/index.cjs", RequireConditions, ""}, // not in "exports"
		{"dep/array", ImportConditions, "node_modules/dep/array.js"},
		{"old", RequireConditions, "node_modules/old/lib/old.js"},
		{"old/extra", RequireConditions, "node_modules/old/extra.js"},
		{"@s/p", RequireConditions, "node_modules/@s/p/index.json"},
		{"#util", ImportConditions, "app/src/util.js"},
		{"#cond", RequireConditions, "app/c.cjs"},
		{"#cond", ImportConditions, "app/c.mjs"},
		{"#dep/features/a", ImportConditions, "node_modules/dep/src/features/a.js"},
		{"#nope", ImportConditions, ""},
		{"app/self", ImportConditions, "app/src/util.js"}, // a package imports itself by name
		{"missing-pkg", ImportConditions, ""},
	}
	for _, tt := range tests {
		got, err := r.Resolve(tt.spec, ref, tt.conds)
		if tt.want == "" {
			if err == nil || !errors.Is(err, ErrNotFound) {
				t.Errorf("Resolve(%q) = %q, %v; want not found", tt.spec, got, err)
			}
			continue
		}
		if want := filepath.Join(dir, tt.want); err != nil || got != want {
			t.Errorf("Resolve(%q, %v) = %q, %v; want %q", tt.spec, tt.conds, got, err, want)
		}
	}
	_, err := r.Resolve("dep/features/internal/x", ref, ImportConditions)
	var ne *notExported
	if !errors.As(err, &ne) || !strings.Contains(err.Error(), "is not defined by \"exports\"") {
		t.Errorf("not exported: %v", err)
	}
}

func TestResolver_Format(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"m/package.json": `{"type": "module"}`, "c/package.json": `{"type": "commonjs"}`,
		"node_modules/x/package.json": `{}`,
	})
	r := NewResolver()
	tests := []struct {
		path string
		want Format
	}{
		{"m/a.js", FormatModule}, {"m/a.cjs", FormatCommonJS}, {"m/a.ts", FormatModule}, {"m/sub/a.js", FormatModule},
		{"c/a.js", FormatCommonJS}, {"c/a.mjs", FormatModule}, {"c/a.mts", FormatModule}, {"c/a.cts", FormatCommonJS},
		{"a.js", FormatDetect}, {"a.json", FormatJSON}, {"node_modules/x/a.js", FormatDetect},
	}
	for _, tt := range tests {
		if got := r.Format(filepath.Join(dir, tt.path)); got != tt.want {
			t.Errorf("Format(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestCJSNames(t *testing.T) {
	tests := []struct {
		src             string
		names, reexport []string
	}{
		{`exports.a = 1; exports['b'] = 2; module.exports.c = 3; exports.d == 4; x.exports.e = 5;`, []string{"a", "b", "c"}, nil},
		{`Object.defineProperty(exports, "f", { value: 1 }); Object.defineProperty(module.exports, 'g', {})`, []string{"f", "g"}, nil},
		{`const a = 1, c = 3; module.exports = { a, "b": c, d: c, e: [1], f };`, []string{"a", "b", "d"}, nil},
		{`module.exports = { ...require("./x"), y };`, []string{"y"}, []string{"./x"}},
		{`module.exports = require('./other');`, nil, []string{"./other"}},
		{"// exports.no = 1\n/* exports.no2 = 1 */ const s = 'exports.no3 = 1'; const t = `exports.no4 = ${1}`; const re = /exports.no5 = 1/; exports.yes = 1;", []string{"yes"}, nil},
	}
	for _, tt := range tests {
		names, re := cjsNames(tt.src)
		if !reflect.DeepEqual(names, tt.names) || !reflect.DeepEqual(re, tt.reexport) {
			t.Errorf("cjsNames(%q) = %q, %q; want %q, %q", tt.src, names, re, tt.names, tt.reexport)
		}
	}
}

func TestHasModuleSyntax(t *testing.T) {
	for src, want := range map[string]bool{
		`import x from "y";`:                           true,
		`import "y";`:                                  true,
		`import { a } from "y";`:                       true,
		`export const a = 1;`:                          true,
		`export default 1;`:                            true,
		`console.log(import.meta.url);`:                true,
		`const m = import("y");`:                       false,
		`require("y"); module.exports = 1;`:            false,
		`// import x from "y"` + "\nexports.a = 1;":    false,
		`const s = "export default 1";`:                false,
		`function f() { return { import: 1 }.import }`: false,
	} {
		if got := hasModuleSyntax(src); got != want {
			t.Errorf("hasModuleSyntax(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestAnonymousDefault(t *testing.T) {
	for src, want := range map[string]bool{
		`export default function () {}`:       true,
		`export default async function () {}`: true,
		`export default function* () {}`:      true,
		`export default class {}`:             true,
		`export default class extends X {}`:   true,
		`export default () => 1;`:             true,
		`export default x => x;`:              true,
		`export default function f() {}`:      false,
		`export default class K {}`:           false,
		`export default 42;`:                  false,
	} {
		if got := anonymousDefault(src); got != want {
			t.Errorf("anonymousDefault(%q) = %v, want %v", src, got, want)
		}
	}
}
