package main

import (
	"os/exec"
	"testing"
)

// recursionProgram overflows the call stack in every way a script can, in the main program and in a worker_threads
// worker, and prints what it caught: jsworker must print what Node prints.
const recursionProgram = `const { Worker, isMainThread, parentPort } = require("worker_threads");
function report(what, fn) {
  try { fn(); console.log(what, "not caught") }
  catch (e) { console.log(what, "caught", e instanceof RangeError, e.message) }
}
function run(where) {
  report(where + " plain", function f() { return f() + 1 });
  report(where + " arrow", () => { const g = () => g() + 1; g() });
  report(where + " mutual", () => { function a() { return b() } function b() { return a() } a() });
  report(where + " through map", function f() { return [1].map(f) });
  report(where + " getter", () => { const o = { get x() { return this.x } }; o.x });
  report(where + " generator", () => { function* g() { yield* g() } g().next() });
  report(where + " again", function f() { return f() + 1 });
}
if (isMainThread) {
  run("main");
  const w = new Worker(__filename);
  w.on("exit", (code) => console.log("worker exit", code));
} else {
  run("worker");
}
`

func TestRecursionLikeNode(t *testing.T) {
	p := script(t, "recursion.js", recursionProgram)
	code, out, errOut := jsworker(t, "run", p)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed: jsworker's output was\n" + out)
	}
	want, err := exec.Command(node, p).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if out != string(want) {
		t.Fatalf("jsworker printed:\n%s\nnode printed:\n%s", out, want)
	}
}
