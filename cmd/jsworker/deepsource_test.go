package main

import (
	"os/exec"
	"strings"
	"testing"
)

// deepSourceProgram hands source nested 100,000 levels deep (which overflowed goja's parser's Go stack and ended the
// process) to every path a script has to a parser — eval, indirect eval, the Function constructor, a required file, a
// worker with eval: true, a module worker, and all of it again inside a worker — and prints what it caught: Node's
// catchable RangeError each time, and the process goes on.
const deepSourceProgram = `const { Worker, isMainThread } = require("worker_threads");
const fs = require("fs"), path = require("path"), os = require("os");
const N = 100000;
const forms = {
  paren: "(".repeat(N) + "1" + ")".repeat(N),
  array: "[".repeat(N) + "]".repeat(N),
  object: "({a:".repeat(N) + "1" + "})".repeat(N),
  call: "f(".repeat(N) + ")".repeat(N),
  template: "` + "`${" + `".repeat(N) + "1" + "}` + "`" + `".repeat(N),
  blocks: "{".repeat(N) + "}".repeat(N),
  ifs: "if(1)".repeat(N) + ";",
  functions: "function f(){".repeat(N) + "}".repeat(N),
  // await is an identifier here: the / divides, and the parentheses after the string are code
  awaitDivides: 'var await = 1; await / "/" + ' + "(".repeat(N) + "1" + ")".repeat(N),
};
function report(what, fn) {
  try { fn(); console.log(what, "not thrown") }
  catch (e) { console.log(what, "caught", e.name, e.message) }
}
function run(where) {
  for (const [name, src] of Object.entries(forms)) {
    report(where + " eval " + name, () => eval(src));
    report(where + " indirect eval " + name, () => (0, eval)(src));
    report(where + " Function " + name, () => new Function(src));
  }
  console.log(where, "still running", eval("6 * 7"));
}
if (isMainThread) {
  run("main");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "deep-"));
  const file = path.join(dir, "deep.js");
  fs.writeFileSync(file, forms.paren);
  report("require", () => require(file));
  const w = new Worker(forms.paren, { eval: true });
  w.on("error", (e) => console.log("eval worker error", e.name, e.message));
  w.on("exit", (code) => {
    console.log("eval worker exit", code);
    const m = path.join(dir, "deep.mjs");
    fs.writeFileSync(m, forms.array);
    const mw = new Worker(m);
    mw.on("error", (e) => console.log("module worker error", e.name, e.message));
    mw.on("exit", (code) => {
      console.log("module worker exit", code);
      new Worker(__filename).on("exit", (code) => console.log("worker exit", code));
    });
  });
} else {
  run("worker");
}
`

func TestDeepSourceLikeNode(t *testing.T) {
	printsLikeNode(t, script(t, "deepsource.js", deepSourceProgram))
}

// A main script nested too deeply ends the program as in Node: exit code 1 and "RangeError: Maximum call stack size
// exceeded" on stderr, not a Go stack overflow.
func TestDeepMainScriptLikeNode(t *testing.T) {
	p := script(t, "deep.js", strings.Repeat("(", 100000)+"1"+strings.Repeat(")", 100000))
	code, out, errOut := jsworker(t, "run", p)
	if code != 1 || out != "" || !hasLinePrefix(errOut, "RangeError: Maximum call stack size exceeded") {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	nodeErr, _ := exec.Command(node, p).CombinedOutput()
	if !hasLinePrefix(string(nodeErr), "RangeError: Maximum call stack size exceeded") {
		t.Fatalf("node printed:\n%s", nodeErr)
	}
}
