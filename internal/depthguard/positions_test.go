package depthguard

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/astwalk"
)

// positionPrelude puts code that records positions before each case, on lines 1–3, so that a throw without a
// position of its own would be reported on line 3 (at `f();`).
const positionPrelude = "var x = 1, n = null;\nfunction f() { return 2 }\nf();\n  "

// throwPosition is the "line:column" of the first frame of err (an exception), and its name and message.
func throwPosition(t *testing.T, err error) (pos, msg string) {
	t.Helper()
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("not an exception: %v", err)
	}
	m := regexp.MustCompile(`test\.js:(\d+:\d+)`).FindStringSubmatch(ex.String())
	if m == nil {
		t.Fatalf("no position in %q", ex.String())
	}
	return m[1], ex.Value().String()
}

// TestRewrite_UnpositionedThrows: what goja throws without recording a position of its own — a constant it folds
// that throws, a literal a destructuring, a for-of or a with consumes — is reported where node v20 reports it
// (node's column in the comment where it differs), with goja's own error and message (those of goja.Compile's
// program).
func TestRewrite_UnpositionedThrows(t *testing.T) {
	cases := []struct{ src, want string }{
		{"+0n", "4:3"},
		{"-(-0n + 1)", "4:9"},
		{"0n + 1", "4:6"},
		{"1n / 0n", "4:6"},
		{"1n /* c */ % 0n", "4:14"},
		{"(1n)\n/ 0n", "5:1"},
		{"1n// c\n/ 0n", "5:1"},
		{"2n ** -1n", "4:6"},
		{"0n | 1", "4:6"},
		{"1n >>> 0n", "4:6"},
		{"'a' in 1", "4:7"},
		{"1 instanceof 2", "4:5"},
		{"typeof +0n", "4:10"},
		{"void (1n * 1)", "4:12"},
		{"(1, +0n)", "4:7"},
		{"(1n || x) + 1", "4:13"},
		{"(0n ?? x) + 1", "4:13"},
		{"x = 1 in 1", "4:9"},
		{"while (+0n);", "4:10"},
		{"switch (1) { case 1n - 1: }", "4:24"},
		{"`${1n + 1}`", "4:9"},
		{"({[1 in 1]: 1})", "4:8"},
		{"class C { static p = +0n }", "4:24"},
		{"function g() { +0n } g()", "4:18"},
		{"function* g() { yield +0n } g().next()", "4:25"},
		{"var [d] = 1n", "4:13"},
		{"const [z] = 5", "4:15"},
		{"var [e] = /r/", "4:13"},
		{"var [...r] = true", "4:16"},
		{"for (const q of 1);", "4:19"},
		{"for (q of null);", "4:13"},
		{"function g() { for (var q of -1); } g()", "4:32"},
		{"0``", "4:4"},
		{"null.p ??= 1", "4:3"},
		{"null[0] ||= 1", "4:3"},
		{"(0, 1)`a`", "4:9"},
		{"(void 0)``", "4:11"},
		// node reports an object pattern at its first property (4:8) and a with at its keyword (4:3); goja reports
		// them at the initializer or object when it is a name (`var {a} = n`), and now does when it is a literal.
		{"var {a} = null", "4:13"},
		{"let {a} = void 0", "4:13"},
		{"({a: x} = null)", "4:13"},
		{"with (null);", "4:9"},
	}
	for _, c := range cases {
		src := positionPrelude + c.src
		_, _, err := run(t, 500, src)
		pos, msg := throwPosition(t, err)
		_, wantErr := goja.New().RunProgram(goja.MustCompile("test.js", src, false))
		_, wantMsg := throwPosition(t, wantErr)
		if pos != c.want || msg != wantMsg {
			t.Errorf("%q: %s %q, want %s %q", c.src, pos, msg, c.want, wantMsg)
		}
	}
}

// wrappers counts the `[] && e` wrappers in prg.
func wrappers(prg *ast.Program) int {
	n := 0
	astwalk.Inspect(prg, func(node ast.Node) bool {
		if b, ok := node.(*ast.BinaryExpression); ok && positioned(b) {
			n++
		}
		return true
	})
	return n
}

// TestRewrite_PositionsOnlyWhatThrows: code that does not throw that way is left as parsed (it compiles to the
// instructions goja compiles for it), a second Rewrite adds nothing, and a wrapped expression keeps its value
// where a script makes its literal iterable.
func TestRewrite_PositionsOnlyWhatThrows(t *testing.T) {
	for _, src := range []string{
		"-1n", "~1n", "2n ** 64n", "1n << 3n", "1n + 'a'", "1n < 2", "1n == 1", "!0 || x", "0n && 1n + 1",
		"typeof 1n", "var [a, b] = 'ab'", "var {length} = 'abc'", "var {p} = 1", "for (var c of 'abc');",
		"with (1) x", "x += 1n", "var [q] = [1]", "if (1n / 1n) x", "`${1n}`", "[...'ab']",
		"String.raw`a`", "(0, String.raw)`a`", "x``",
	} {
		prg, err := Parse("t.js", src)
		if err != nil {
			t.Fatal(err)
		}
		Rewrite(prg)
		if n := wrappers(prg); n != 0 {
			t.Errorf("%q: %d wrappers, want none", src, n)
		}
	}
	prg, err := Parse("t.js", "var [a] = 1; +0n; function g() { return 1n / 0n } with (null);")
	if err != nil {
		t.Fatal(err)
	}
	Rewrite(prg)
	Rewrite(prg)
	if n := wrappers(prg); n != 4 {
		t.Errorf("after two rewrites: %d wrappers, want 4", n)
	}
	_, v, err := run(t, 500, "Number.prototype[Symbol.iterator] = function* () { yield this * 2 }; var [a] = 21; a")
	if err != nil || v.ToInteger() != 42 {
		t.Errorf("an iterable number: %v, %v", v, err)
	}
}

// TestRewrite_PositionsDeepChain: a long chain of constant operators that throws is positioned at its own
// operator (innermost does not descend past maxDescent operators), and compiles. (goja's own check of a
// constant's operands is quadratic in the chain's length: a longer chain costs goja, not the rewrite.)
func TestRewrite_PositionsDeepChain(t *testing.T) {
	src := "1n" + strings.Repeat(" + 1", 2000)
	_, _, err := run(t, 500, src)
	if pos, _ := throwPosition(t, err); pos != "1:"+strconv.Itoa(len(src)-2) {
		t.Errorf("at %s, want the last +, 1:%d", pos, len(src)-2)
	}
}
