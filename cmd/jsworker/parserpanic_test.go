package main

import (
	"bytes"
	"errors"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// panicSource is text on which goja's parser panics (found by inspector.FuzzInstrument).
const panicSource = "function e,b,p={f r)on* take(it, n) { for (const v of it) { if (n-- <= 0) return; yield v; } }\n" +
	"function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }\n" +
	"console.log([...range(0, 10, 3)], [...take("

// parserPanicProgram compiles panicSource every way a script can, in the main program and in a worker_threads
// worker, and prints what it caught: jsworker must print what Node prints.
var parserPanicProgram = `const { Worker, isMainThread } = require("worker_threads");
const src = ` + strconv.Quote(panicSource) + `;
function report(what, fn) {
  try { fn(); console.log(what, "not thrown") }
  catch (e) { console.log(what, "caught", e.name, e instanceof SyntaxError) }
}
function run(where) {
  report(where + " eval", () => eval(src));
  report(where + " eval in a function", function () { var local = 1; return eval(src + "") });
  report(where + " indirect eval", () => (0, eval)(src));
  report(where + " Function", () => new Function(src));
  console.log(where, "still running", eval("6 * 7"));
}
if (isMainThread) {
  run("main");
  new Worker(__filename).on("exit", (code) => console.log("worker exit", code));
} else {
  run("worker");
}
`

func TestParserPanicLikeNode(t *testing.T) {
	p := script(t, "parserpanic.js", parserPanicProgram)
	printsLikeNode(t, p)
}

// Uncaught, the SyntaxError ends the program as in Node: exit code 1 and a "SyntaxError: …" line on stderr, after
// the position and the source line with its caret — for an eval'd text and for the main script itself.
func TestParserPanicUncaughtLikeNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	cases := map[string]string{
		"eval":        "const src = " + strconv.Quote(panicSource) + ";\nconsole.log('before');\neval(src);\nconsole.log('after');\n",
		"main script": panicSource,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			p := script(t, "uncaught.js", src)
			code, out, errOut := jsworker(t, "run", p)
			cmd := exec.Command(node, p)
			var nodeOut, nodeErr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &nodeOut, &nodeErr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("node: %v", err)
			}
			if code != ee.ExitCode() || out != nodeOut.String() {
				t.Fatalf("jsworker: exit %d, stdout %q; node: exit %d, stdout %q", code, out, ee.ExitCode(), nodeOut.String())
			}
			if !hasLinePrefix(nodeErr.String(), "SyntaxError: ") || !hasLinePrefix(errOut, "SyntaxError: ") ||
				!strings.Contains(errOut, "the parser failed") || strings.Contains(errOut, "internal error") {
				t.Fatalf("stderr:\njsworker:\n%s\nnode:\n%s", errOut, nodeErr.String())
			}
			if name == "eval" && !strings.HasPrefix(errOut, p+":3\neval(src);\n") {
				t.Fatalf("jsworker's stderr does not start with the position and the source line:\n%s", errOut)
			}
		})
	}
}

func hasLinePrefix(text, prefix string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}
