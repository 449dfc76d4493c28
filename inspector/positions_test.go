package inspector

import (
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// unpositionedPrelude records positions on lines 1–3 before each case of TestInstrument_UnpositionedThrows, so
// that a throw reported at the last position recorded before it, rather than its own, shows on line 3.
const unpositionedPrelude = "var x = 1, n = null;\nfunction f() { return 2 }\nf();\n  "

// unpositionedCases are the expressions goja throws for without recording a position of their own (a folded
// constant that throws, a literal a destructuring, a for-of, a with or a template's tag consumes), with node's
// position and, where it differs, goja's (want; empty: node's), and a few controls that goja always positioned.
var unpositionedCases = []struct{ src, node, want string }{
	{"+0n", "4:3", ""}, // FuzzInstrument's finding, 3a54632e96594fc1
	{"-(-0n + 1)", "4:9", ""},
	{"0n + 1", "4:6", ""},
	{"1n / 0n", "4:6", ""},
	{"1n /* c */ % 0n", "4:14", ""},
	{"2n ** -1n", "4:6", ""},
	{"1n >>> 0n", "4:6", ""},
	{"'a' in 1", "4:7", ""},
	{"1 instanceof 2", "4:5", ""},
	{"typeof +0n", "4:10", ""},
	{"(1, +0n)", "4:7", ""},
	{"(1n || x) + 1", "4:13", ""},
	{"x = 1 in 1", "4:9", ""},
	{"while (+0n);", "4:10", ""},
	{"switch (1) { case 1n - 1: }", "4:24", ""},
	{"`${1n + 1}`", "4:9", ""},
	{"({[1 in 1]: 1})", "4:8", ""},
	{"class C { static p = +0n }", "4:24", ""},
	{"class C { static { +0n } }", "4:22", ""},
	{"function g() { +0n } g()", "4:18", ""},
	{"function* g() { yield +0n } g().next()", "4:25", ""},
	{"(() => +0n)()", "4:10", ""},
	{"var [d] = 1n", "4:13", ""},
	{"const [z] = 5", "4:15", ""},
	{"var [e] = /r/", "4:13", ""},
	{"[x] = true", "4:7", "4:9"}, // node: at the =
	{"for (const q of 1);", "4:19", ""},
	{"function g() { for (var q of -1); } g()", "4:32", ""},
	// node reports an object pattern at its first property and a with at its keyword; goja reports both at the
	// initializer or object when that is a name (`var {a} = n`), and now when it is a literal too.
	{"var {a} = null", "4:8", "4:13"},
	{"let {a} = void 0", "4:8", "4:13"},
	{"({a: x} = null)", "4:8", "4:13"},
	{"with (null);", "4:3", "4:9"},
	{"0``", "4:4", ""},
	{"(0, 1)``", "4:9", ""},
	{"/r/`a`", "4:6", ""},
	{"(void 0)``", "4:11", ""},
	{"null.p ??= 1", "4:3", ""},
	{"null[0] ||= 1", "4:3", ""},
	// A tag's substitutions record positions after the tag's; goja reports the call at the last.
	{"'s'`${f()}`", "4:6", "4:10"},
	// Controls, positioned by goja before: its own convention (an array literal's start for a spread) stays.
	{"x.p.q", "4:7", ""},
	{"n.p", "4:5", ""},
	{"[...1]", "4:7", "4:3"},
}

// throwAt is the "line:column" of the first f.js frame in a fuzzRun's exception.
var throwAt = regexp.MustCompile(`f\.js:(\d+:\d+)`)

// TestInstrument_UnpositionedThrows: each case throws at the same position plain and instrumented (FuzzInstrument
// compares them), where node does unless the table says otherwise. With node installed, node's column is
// checked side by side.
func TestInstrument_UnpositionedThrows(t *testing.T) {
	for _, c := range unpositionedCases {
		src := unpositionedPrelude + c.src
		want := c.want
		if want == "" {
			want = c.node
		}
		plain := runForFuzz(src, false, instBudgetMin)
		inst := runForFuzz(src, true, instBudgetMin)
		p, i := throwAt.FindStringSubmatch(plain.exception), throwAt.FindStringSubmatch(inst.exception)
		if p == nil || i == nil {
			t.Errorf("%q: no position: plain %q, instrumented %q", c.src, plain.exception, inst.exception)
			continue
		}
		if plain.exception != inst.exception || p[1] != want {
			t.Errorf("%q: plain %q, instrumented %q, want at %s", c.src, plain.exception, inst.exception, want)
		}
	}
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Log("no node: its positions are the table's")
		return
	}
	srcs := make([]string, len(unpositionedCases))
	for i, c := range unpositionedCases {
		srcs[i] = unpositionedPrelude + c.src
	}
	in, _ := json.Marshal(srcs)
	const script = `const vm = require("vm"), out = [];
for (const src of JSON.parse(require("fs").readFileSync(0, "utf8"))) {
  try { vm.runInNewContext(src, {}, {filename: "f.js"}); out.push("none") }
  catch (e) { const m = /f\.js:(\d+:\d+)/.exec(String(e && e.stack)); out.push(m ? m[1] : "nopos") }
}
console.log(JSON.stringify(out))`
	cmd := exec.Command(nodeBin, "-e", script)
	cmd.Stdin = strings.NewReader(string(in))
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []string
	if err := json.Unmarshal(b, &got); err != nil || len(got) != len(srcs) {
		t.Fatalf("node printed %q (%v)", b, err)
	}
	for i, c := range unpositionedCases {
		if got[i] != c.node {
			t.Errorf("%q: node reports %s, the table %s", c.src, got[i], c.node)
		}
	}
}

// TestInstrument_InheritedHook: FuzzInstrument's one exemption (inheritedHook) holds exactly where goja's source
// map has no entry for the raising instruction and the instrumented run reports its hook: a logical assignment
// to an undeclared name (45b6463774e49240). An instruction with an entry of its own is compared as ever. (goja
// records no second entry for the position it recorded last, so an instrumented instruction at its hook's
// position may show none of its own: the rule asks it of both runs.)
func TestInstrument_InheritedHook(t *testing.T) {
	for _, c := range []struct {
		src            string
		own, inherited bool
	}{
		{"(u ??= []).push(1)", false, true},
		{"u ||= 1", false, true},
		{"const c = 0; c ||= 1", false, true},
		{"u", true, false},
		{"n.p", true, false},
		{"x()", true, false},
		{"+0n", false, false}, // positioned by Rewrite: both runs agree
	} {
		src := unpositionedPrelude + c.src
		plain := runForFuzz(src, false, instBudgetMin)
		inst := runForFuzz(src, true, instBudgetMin)
		if plain.exception == "" || plain.ownPos != c.own || inheritedHook(plain, inst) != c.inherited {
			t.Errorf("%q: plain %q (own position %v), instrumented %q (own %v, at a hook %v): inherited %v, want own %v, inherited %v",
				c.src, plain.exception, plain.ownPos, inst.exception, inst.ownPos, inst.atHook, inheritedHook(plain, inst), c.own, c.inherited)
		}
		if !c.inherited && plain.exception != inst.exception {
			t.Errorf("%q: plain %q, instrumented %q", c.src, plain.exception, inst.exception)
		}
	}
}
