package modules

import (
	"errors"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// FuzzModuleGraph transforms, links and runs a two-module graph — an entry that may import "./b.js" (or itself,
// or anything else) and b.js — through esbuild, the rewriter and the realm's linker. Whatever the sources, Run
// returns (never panics), and what it returns is an *Error naming a module of the graph, a JavaScript exception,
// or goja's interrupt/stack-overflow error; the same graph run again in a fresh realm (the compile cache now
// warm) ends the same way and leaves the same globalThis.out.
func FuzzModuleGraph(f *testing.F) {
	f.Add(`import { b, inc } from "./b.js"; inc(); globalThis.out = b + 1;`, `export let b = 1; export function inc() { b++ }`)
	f.Add(`import * as ns from "./b.js"; export default ns; globalThis.out = Object.keys(ns).join();`,
		`export const x = 1, y = 2; export { x as z }; export default class {}`)
	f.Add(`import def, { f } from "./b.js"; globalThis.out = def + f();`, `import "./main.js"; export default 2; export const f = () => 3;`)
	f.Add(`export * from "./b.js"; import { a } from "./main.js"; globalThis.out = typeof a;`, `export var a = 1`)
	f.Add(`import("./b.js").then(m => { globalThis.out = m.v })`, `export const v = import.meta.url`)
	f.Add(`import x from "./missing.js"`, ``)
	f.Add(`let x: number = 1; enum E { A, B } globalThis.out = E.B + x;`, ``)
	f.Add(`await 1`, `export {}`)
	f.Add(`import { nope } from "./b.js"; globalThis.out = nope`, `export const yes = 1; throw new Error("b fails")`)
	defer debug.SetGCPercent(debug.SetGCPercent(fuzzGCPercent))
	f.Fuzz(func(t *testing.T, entry, b string) {
		if len(entry)+len(b) > 1<<14 {
			return
		}
		files := map[string]string{"/m/main.js": entry, "/m/b.js": b}
		first, out1 := runFuzzGraph(t, files)
		second, out2 := runFuzzGraph(t, files)
		if first == interrupted || second == interrupted {
			return // timing: the second run (warm cache) may get further, or not as far
		}
		if first != second || out1 != out2 {
			t.Fatalf("two runs differ:\n1: %s out=%q\n2: %s out=%q\nmain.js:\n%s\nb.js:\n%s", first, out1, second, out2, entry, b)
		}
	})
}

// fuzzBudget is how long one run of a graph may take. A graph that loops spends it on both runs, so it is most
// of what a looping input costs; a run that hits it is not compared, so a lower budget skips more graphs but
// never turns timing into a finding.
const fuzzBudget = 40 * time.Millisecond

// fuzzGCPercent is GOGC while FuzzModuleGraph runs: each input makes and drops two realms, and collecting them
// less often costs memory, not coverage.
const fuzzGCPercent = 400

// interrupted is runFuzzGraph's outcome for a run that hit fuzzBudget.
const interrupted = "interrupted"

// runFuzzGraph runs the graph in a fresh realm and describes how it ended.
func runFuzzGraph(t *testing.T, files map[string]string) (outcome, out string) {
	rt := goja.New()
	r := NewRealm(rt, Options{Loader: mapLoader(files, nil)})
	timer := time.AfterFunc(fuzzBudget, func() { rt.Interrupt("fuzz: time budget") })
	err := r.Run("/m/main.js", files["/m/main.js"])
	timer.Stop()
	var me *Error
	var ex *goja.Exception
	var intr *goja.InterruptedError
	var so *goja.StackOverflowError
	switch {
	case err == nil:
		outcome = "ok"
	case errors.As(err, &me):
		if me.Path != "/m/main.js" && me.Path != "/m/b.js" && !strings.HasPrefix(me.Path, "/") && me.Path != "" {
			t.Fatalf("an *Error naming %q, not a module of the graph: %v", me.Path, err)
		}
		outcome = "module error: " + me.Error()
	case errors.As(err, &intr):
		return interrupted, ""
	case errors.As(err, &so):
		outcome = "stack overflow"
	case errors.As(err, &ex):
		outcome = "exception: " + bytecodeFree(ex.Error())
	default:
		t.Fatalf("Run returned %T: %v", err, err)
	}
	return outcome, global(rt, "out")
}

// bytecodeFree drops the "(N)" bytecode offsets goja appends to stack positions.
func bytecodeFree(s string) string { return bytecodeOffset.ReplaceAllString(s, "") }

var bytecodeOffset = regexp.MustCompile(`\(\d+\)`)
