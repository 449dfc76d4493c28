package main

import (
	"os/exec"
	"strings"
	"testing"
)

// replInput exercises results, let across inputs, a multi-line function, thrown errors and values, a timer whose
// output comes later, and .exit.
const replInput = "1+1\nlet a = {x:[1,2]}\na\nfunction f() {\nreturn 5\n}\nf()\nthrow new Error('e')\nnope\nthrow 3\n'" +
	"s'\n[1, 'two', {three: 3}]\n"

// replOutputs drops the banner (the first two lines, which name the runtime) from a REPL's output.
func replOutputs(s string) string {
	lines := strings.SplitN(s, "\n", 3)
	if len(lines) < 3 {
		return s
	}
	return lines[2]
}

// TestREPL_MatchesNode: `jsworker repl` with input from a pipe prints what `node -i` prints: the prompts, each
// result with util.inspect's formatting, "... " for a continued input, "Uncaught …" for what was thrown.
func TestREPL_MatchesNode(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	dir := t.TempDir()
	for _, end := range []string{".exit\n", ""} { // .exit, and the end of input (Ctrl-D)
		_, want, _ := runWith(t, dir, nodeBin, replInput+end, "-i")
		code, got, errOut := runWith(t, dir, bin, replInput+end, "repl")
		if code != 0 || errOut != "" {
			t.Fatalf("jsworker repl: exit %d, stderr %q", code, errOut)
		}
		if replOutputs(got) != replOutputs(want) {
			t.Errorf("jsworker repl (end %q):\n%s\nnode -i:\n%s", end, got, want)
		}
	}
}

// TestREPL_KeepsLoop: after the end of input the program goes on until nothing ref'd is left, as node's REPL;
// process.exit ends it at once with its code.
func TestREPL_KeepsLoop(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runWith(t, dir, bin, "setTimeout(() => console.log('later'), 20); 1\n", "repl")
	if code != 0 || !strings.HasSuffix(out, "> 1\n> later\n") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runWith(t, dir, bin, "process.exit(7)\n2\n", "repl")
	if code != 7 || strings.Contains(out, "2\n") {
		t.Errorf("process.exit(7): exit %d, stdout %q", code, out)
	}
}

// TestREPL_Terminal: `jsworker` with no arguments on a terminal starts the REPL (util-linux's script gives it a
// pseudo-terminal); a pipe instead runs what it holds as the program (TestNodeFlags_MatchNode, "stdin pipe").
func TestREPL_Terminal(t *testing.T) {
	scriptBin, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script (util-linux) not installed")
	}
	code, out, errOut := runWith(t, t.TempDir(), scriptBin, "6*7\n.exit\n", "-qec", bin, "/dev/null")
	if code != 0 || !strings.Contains(out, "Welcome to jsworker") || !strings.Contains(out, "> 42") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
