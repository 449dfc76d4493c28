package node_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/testsupport"
	"github.com/jsworker/jsworker/node"
)

// kindsBody is a body for AsyncFunction or GeneratorFunction answering whether recursion in it is a catchable
// RangeError: true only where the constructor is guarded (internal/depthguard, ensure.go).
const kindsBody = `"function f(){return f()+1} try { f() } catch (e) { return e instanceof RangeError }"`

// TestDepthGuard_FunctionKinds checks that an idle Node realm has made neither AsyncFunction nor GeneratorFunction,
// and that each way a Node program first makes one meets a guarded constructor. kinds() answers, from Go, whether
// goja has made each and whether AsyncFunction is guarded (its [[Prototype]] is Function only then), read with
// unrewritten code that guards nothing itself. No main script here contains an async function or a generator of its
// own unless the case is about that.
func TestDepthGuard_FunctionKinds(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gen.js"),
		[]byte("module.exports = Object.getPrototypeOf(function* () {}).constructor;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "async.mjs"),
		[]byte("export default Object.getPrototypeOf(async () => {}).constructor;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const (
		runAsync = `.then(v => console.log(v, JSON.stringify(kinds())))`
		runGen   = `)().next().value, JSON.stringify(kinds()))`
	)
	cases := []struct{ name, src, want, main string }{
		{"idle", `console.log(JSON.stringify(kinds()))`, "[false,false,false]\n", ""},
		{"script", `const AF = Object.getPrototypeOf(async function () {}).constructor; AF(` + kindsBody + `)()` + runAsync,
			"true [true,true,true]\n", ""},
		{"CommonJS module", `console.log(require('./gen.js')(` + kindsBody + runGen, "true [true,true,true]\n", ""},
		{"ES module", `import AF from './async.mjs'; AF(` + kindsBody + `)()` + runAsync,
			"true [true,true,true]\n", "main.mjs"},
		{"eval", `eval("Object.getPrototypeOf(async () => {}).constructor")(` + kindsBody + `)()` + runAsync,
			"true [true,true,true]\n", ""},
		{"indirect eval", `console.log((0, eval)("Object.getPrototypeOf(function* () {}).constructor")(` + kindsBody + runGen,
			"true [true,true,true]\n", ""},
		{"Function", `console.log(Function("return Object.getPrototypeOf(function* () {}).constructor")()(` + kindsBody + runGen,
			"true [true,true,true]\n", ""},
		{"library", `require('assert'); console.log(JSON.stringify(kinds()))`, "[true,true,true]\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			main := c.main
			if main == "" {
				main = "main.js"
			}
			var out, errOut testsupport.SyncBuffer
			opts := core.Options{Stdout: &out, Stderr: &errOut, Setup: func(w *core.Worker, rt *goja.Runtime) error {
				return rt.Set("kinds", func() []bool {
					async, gen, ok := gojainternal.FunctionKindsMade(rt)
					if !ok {
						panic(rt.NewTypeError("gojainternal cannot read goja's AsyncFunction"))
					}
					guarded := false
					if async {
						v, err := rt.RunString(`Object.getPrototypeOf(Object.getPrototypeOf(async function () {}).constructor) === Function`)
						guarded = err == nil && v.ToBoolean()
					}
					return []bool{async, gen, guarded}
				})
			}}
			p, err := node.StartProgram(node.ProgramOptions{Filename: filepath.Join(dir, main), Source: c.src, Options: opts,
				Module: filepath.Ext(main) == ".mjs"})
			if err != nil {
				t.Fatalf("StartProgram: %v", err)
			}
			code, got, stderr := waitProgram(t, p, "program", &out, &errOut)
			if code != 0 || stderr != "" || got != c.want {
				t.Fatalf("exit %d, stdout %q (want %q), stderr %q", code, got, c.want, stderr)
			}
		})
	}
}
