package main

import (
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// deadJumps are the programs of issue 16 (goja compiled a break or continue in code it knows is dead into the
// wrong program: an index-out-of-range panic that ended the worker, a wrong ReferenceError, silently wrong jumps),
// each printing what it did.
var deadJumps = []string{
	// inspector.FuzzInstrument's finding: a constant if continuing an outer loop.
	`const out = [];
outer: for (let i = -2; i < 10; i++) {
  for (let j = 0; j < 3; j++) {
    if (2 === 5) continue outer;
    if (i === 8 && j === 1) break outer;
    if (j > 0) continue;
    out.push(i % 2 === 0 ? "even" : "odd");
  }
}
console.log(out.join(","));`,
	`outer: for (let i = 0; i < 2; i++) { for (let j = 0; j < 2; j++) { if (false) continue outer; console.log(i, j); } }`,
	`for (let i = 0; i < 3; i++) { { let b = i; if (false) continue; console.log(i, b); } }`,
	`for (let i = 0; i < 3; i++) { switch (i) { case 1: if (0) continue; console.log(i); } }`,
	`a: { for (let i = 0; i < 3; i++) { if (false) break a; console.log(i); } }`,
	`o: for (let i = 0; i < 3; i++) { { let z = i; while (false) continue o; for (; 0;) break o; if (!1) { break o } else console.log("z", z) } }`,
	`o: for (let i = 0; i < 3; i++) { for (let j = 0; j < 2; j++) { { let k = j; console.log("k", i, k); break; if (i) continue o; var v = 1; } } } console.log(typeof v);`,
	// In a function, a dead branch longer than the code before it: goja's compiler panicked (the whole process).
	`console.log((function () { var s = ""; outer: for (let i = 0; i < 2; i++) { for (let j = 0; j < 2; j++) { if (false) { s += 1; s += 2; s += 3; s += 4; s += 5; s += 6; s += 7; s += 8; s += 9; s += 10; s += 11; s += 12; continue outer; } s += j; } } return s })());`,
}

// deadJumpsProgram runs every program of deadJumps as the main script's code, through the Function constructor and
// in a worker_threads worker.
func deadJumpsProgram() string {
	var b strings.Builder
	b.WriteString("const { Worker, isMainThread } = require(\"worker_threads\");\nconst where = isMainThread ? \"main\" : \"worker\";\n")
	for i, p := range deadJumps {
		b.WriteString("console.log(where, \"program " + strconv.Itoa(i) + "\");\n{\n" + p + "\n}\n")
		b.WriteString("new Function(" + strconv.Quote(p) + ")();\n")
	}
	b.WriteString("if (isMainThread) new Worker(__filename).on(\"exit\", (code) => console.log(\"worker exit\", code));\n")
	return b.String()
}

// TestDeadJumpsLikeNode: the programs of issue 16 print what Node prints — in a CommonJS main script, the Function
// constructor, a worker_threads worker and an ES module.
func TestDeadJumpsLikeNode(t *testing.T) {
	esm := strings.Join(deadJumps, "\n") + "\nexport {};\n"
	for name, p := range map[string]string{
		"commonjs": script(t, "deadjumps.js", deadJumpsProgram()),
		"module":   script(t, "deadjumps.mjs", esm),
	} {
		t.Run(name, func(t *testing.T) {
			printsLikeNode(t, p)
		})
	}
}

// deadJumpResults are issue 16's programs as expressions of a result: for -p and the REPL, which compile the
// text as a script whose completion value they print (goja compiles the code after a break in dummy mode then).
var deadJumpResults = []string{
	`var s = 0; outer: for (let i = -2; i < 10; i++) { for (let j = 0; j < 3; j++) { if (2 === 5) continue outer; s++ } } s`,
	`var t = ""; for (let i = 0; i < 3; i++) { { let b = i; if (false) continue; t += b } } t`,
	`var u = ""; o: for (let i = 0; i < 3; i++) { for (let j = 0; j < 2; j++) { u += j; break; if (i) continue o; var v = 1 } } u + typeof v`,
	`o: for (let i = 0; i < 3; i++) { { let z = i; continue; break o; } }`,
}

// TestDeadJumpsPrintLikeNode: `jsworker -p` and the REPL print what `node -p` and `node -i` print for them.
func TestDeadJumpsPrintLikeNode(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	dir := t.TempDir()
	for _, src := range deadJumpResults {
		want, err := exec.Command(nodeBin, "-p", src).Output()
		if err != nil {
			t.Fatalf("node -p %s: %v", src, err)
		}
		code, out, errOut := jsworker(t, "-p", src)
		if code != 0 || out != string(want) {
			t.Errorf("-p %s: exit %d, stdout %q, stderr %q; node printed %q", src, code, out, errOut, want)
		}
	}
	input := strings.Join(deadJumpResults, "\n") + "\n"
	_, want, _ := runWith(t, dir, nodeBin, input, "-i")
	code, got, errOut := runWith(t, dir, bin, input, "repl")
	if code != 0 || errOut != "" {
		t.Fatalf("jsworker repl: exit %d, stderr %q", code, errOut)
	}
	if replOutputs(got) != replOutputs(want) {
		t.Errorf("jsworker repl:\n%s\nnode -i:\n%s", got, want)
	}
}
