package depthguard

import (
	"strings"
	"testing"
)

// Every form that recurses in goja's parser or compiler is estimated at least as deep as it is nested.
func TestNestingCountsEveryForm(t *testing.T) {
	const n = 3000
	for name, form := range nestingForms {
		if got := Nesting(form(n)); got < n {
			t.Errorf("%s, %d levels: estimate %d", name, n, got)
		}
	}
}

// Long flat code stays shallow: the count restarts where a statement or a list element provably ends, so a long
// program, a large object literal or array, a semicolon-less file, a long else-if-free switch, are all accepted.
func TestNestingFlatCodeIsShallow(t *testing.T) {
	const n = 100000
	for name, src := range map[string]string{
		"statements": strings.Repeat("a = b + c * d;\n", n),
		"no-semis":   strings.Repeat("a = b + c\nf(x)\nif (a) g(y)\n", n),
		"object":     "var o = {" + strings.Repeat("k: 1 + 2, ", n) + "}",
		"array":      "var a = [" + strings.Repeat("[1, 2], ", n) + "]",
		"functions":  strings.Repeat("function f() { return a ? b : c }\n", n),
		"cases":      "switch (x) {" + strings.Repeat("case 1: a = 1; break; ", n) + "}",
		"blocks":     strings.Repeat("if (a) { b() } else { c() }\n", n),
	} {
		if got := Nesting(src); got > 2000 {
			t.Errorf("%s: estimate %d", name, got)
		}
	}
	// A method chain is left-deep in goja's tree, two levels a link (the call and the member), and each link's
	// callback nests under the links before it, not under the sum of their callbacks' depths.
	chain := "p" + strings.Repeat(".then(function () { return ((x + 1) * 2) })\n", 1000)
	if got := Nesting(chain); got < 2000 || got > 2100 {
		t.Errorf("a 1,000-link chain: estimate %d, want about 2,000", got)
	}
}

// A text nested deeper than MaxNesting never reaches goja's parser: Parse, Compile and CheckNesting refuse it with
// an error IsTooDeep tells (nested 1,000,000 deep, it would overflow the Go stack and end the test binary).
func TestParseRefusesTooDeep(t *testing.T) {
	src := strings.Repeat("(", 1000000) + "1" + strings.Repeat(")", 1000000)
	if _, err := Parse("deep.js", src); !IsTooDeep(err) {
		t.Fatalf("Parse: %v", err)
	}
	if _, err := Compile("deep.js", src, false); !IsTooDeep(err) {
		t.Fatalf("Compile: %v", err)
	}
	if err := CheckNesting("deep.js", src); !IsTooDeep(err) || !strings.Contains(err.Error(), "deep.js") {
		t.Fatalf("CheckNesting: %v", err)
	}
	if _, err := Parse("ok.js", nestingForms["paren"](MaxNesting)); err != nil {
		t.Fatalf("Parse at the limit: %v", err)
	}
	if IsTooDeep(nil) || IsParserFailure(CheckNesting("deep.js", src)) {
		t.Fatal("IsTooDeep(nil), or the refusal taken for a parser failure")
	}
}
