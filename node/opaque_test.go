package node_test

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
	"github.com/jsworker/jsworker/node"
)

// TestOpaqueState_Program: the main program's realm — Node's globals, require, worker_threads — shows scripts no
// state of the library: no symbol-keyed global, no Go object of the library reachable from globalThis.
func TestOpaqueState_Program(t *testing.T) {
	found := make(chan []string, 1)
	code, out, errOut := runProgramOpts(t, `
const wt = require('worker_threads'); require('url'); new wt.MessageChannel(); new TextEncoder();
for (const k of Object.getOwnPropertyNames(globalThis)) { try { void globalThis[k]; } catch (e) {} }
const wellKnown = (s) => Object.getOwnPropertyNames(Symbol).some((n) => Symbol[n] === s);
console.log(JSON.stringify(Object.getOwnPropertySymbols(globalThis).filter((s) => !wellKnown(s)).map(String)));
`, core.Options{Setup: func(w *core.Worker, rt *goja.Runtime) error {
		// Setup runs before the script; the walk runs after it, on the program's thread, before the loop ends.
		w.RunOnLoop(func(rt *goja.Runtime) { found <- testsupport.LibraryState(rt) })
		return nil
	}})
	if code != 0 || out != "[]\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if f := <-found; len(f) > 0 {
		t.Fatalf("library state reachable from the program's globalThis:\n%s", strings.Join(f, "\n"))
	}
}

func runProgramOpts(t testing.TB, src string, opts core.Options) (int, string, string) {
	t.Helper()
	var out, errOut testsupport.SyncBuffer
	opts.Stdout, opts.Stderr = &out, &errOut
	p, err := node.StartProgram(node.ProgramOptions{Filename: "/tmp/jsworker-test/opaque.js", Source: src, Options: opts})
	if err != nil {
		t.Fatalf("StartProgram: %v", err)
	}
	return waitProgram(t, p, "program", &out, &errOut)
}
