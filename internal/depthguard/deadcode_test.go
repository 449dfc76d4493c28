package depthguard

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/astwalk"
	"github.com/jsworker/jsworker/internal/depthguard/deadjumps"
)

// tests lists, in source order, whether each if, while and for test of prg is unfolded (a one-element sequence).
func unfoldedTests(prg *ast.Program) []bool {
	var got []bool
	astwalk.Inspect(prg, func(n ast.Node) bool {
		var test ast.Expression
		switch s := n.(type) {
		case *ast.IfStatement:
			test = s.Test
		case *ast.WhileStatement:
			test = s.Test
		case *ast.ForStatement:
			test = s.Test
		default:
			return true
		}
		if test != nil {
			seq, ok := test.(*ast.SequenceExpression)
			got = append(got, ok && len(seq.Sequence) == 1)
		}
		return true
	})
	return got
}

// TestUnfoldTest: Rewrite unfolds a test goja would fold to a constant only when the code goja would then compile
// in dummy mode holds a break or continue out of it; every other test stays as parsed.
func TestUnfoldTest(t *testing.T) {
	cases := []struct {
		src  string
		want []bool
	}{
		// Unfolded: a foldable test, a jump out of the dead part.
		{"for (;;) { if (false) continue; break }", []bool{true}},
		{"o: for (;;) { for (;;) { if (2 === 5) continue o; break o } }", []bool{true}},
		{"for (;;) { if (!1) {} else break }", []bool{true}},
		{"for (;;) { if (1 || x) break }", []bool{true}},
		{"L: for (;;) { while (false) continue L; break }", []bool{true}},
		{"L: for (;;) { for (; 0;) break L; break }", []bool{true}},
		{`o: for (;;) { if ("a" + "b" == "c") { for (;;) { break o } } break }`, []bool{true}},
		{"for (;;) { if (null ?? 0) { switch (1) { case 1: continue } } break }", []bool{true}},
		{"for (;;) { if (false) { try {} finally { break } } break }", []bool{true}},
		{"a: { if (-0) { b: { break a } } }", []bool{true}},
		{"for (;;) { if (((false))) continue; break }", []bool{true}},
		{"for (;;) { if (0n) continue; break }", []bool{true}},
		{"for (;;) { if (typeof 1 === 'string') continue; break }", []bool{true}},
		// Left alone: the test is not foldable, or nothing jumps out of the dead part.
		{"if (false) { console.log(1) } else { console.log(2) }", []bool{false}},
		{"for (;;) { if (x) continue; break }", []bool{false}},
		{"for (;;) { if (false + x) continue; break }", []bool{false}},
		{"if (false) { for (;;) break; while (1) continue }", []bool{false, false}},
		{"if (0) { L: { break L } }", []bool{false}},
		{"if (false) { switch (1) { case 1: break } }", []bool{false}},
		{"for (;;) { if (false) { (() => { for (;;) break })(); function f() { for (;;) continue } } break }", []bool{false}},
		{"while (false) { break }", []bool{false}},
		{"L: while (0) { continue }", []bool{false}},
		{"for (; false;) { if (y) break; }", []bool{false, false}},
		{"for (let i = 0; i < 3; i++) { if (i) break }", []bool{false, false}},
	}
	for _, c := range cases {
		prg, err := Parse("t.js", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		Rewrite(prg)
		if got := unfoldedTests(prg); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: unfolded %v, want %v", c.src, got, c.want)
		}
		Rewrite(prg) // idempotent: an unfolded test is no longer foldable
		if got := unfoldedTests(prg); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: rewritten twice, unfolded %v, want %v", c.src, got, c.want)
		}
		if _, err := goja.CompileAST(prg, false); err != nil {
			t.Errorf("%s: %v", c.src, err)
		}
	}
}

// TestDropDeadJumps: after a break or continue in a statement list, the jumps out of the statements that follow
// become empty statements at their positions; jumps that stay inside them, and declarations, stay.
func TestDropDeadJumps(t *testing.T) {
	const src = "L: for (;;) { break; continue L; if (y) break L; for (;;) break; var v; function h() { for (;;) break } }"
	prg, err := Parse("t.js", src)
	if err != nil {
		t.Fatal(err)
	}
	Rewrite(prg)
	body := prg.Body[0].(*ast.LabelledStatement).Statement.(*ast.ForStatement).Body.(*ast.BlockStatement).List
	if _, ok := body[0].(*ast.BranchStatement); !ok {
		t.Fatalf("the first break is %T, want it kept", body[0])
	}
	if e, ok := body[1].(*ast.EmptyStatement); !ok || int(e.Semicolon) != strings.Index(src, "continue L")+1 {
		t.Fatalf("continue L is %T %v, want an empty statement at its position", body[1], body[1])
	}
	if _, ok := body[2].(*ast.IfStatement).Consequent.(*ast.EmptyStatement); !ok {
		t.Fatalf("break L in the if is %T, want an empty statement", body[2].(*ast.IfStatement).Consequent)
	}
	if _, ok := body[3].(*ast.ForStatement).Body.(*ast.BranchStatement); !ok {
		t.Fatal("the inner loop's own break was dropped")
	}
	if _, ok := body[4].(*ast.VariableStatement); !ok {
		t.Fatalf("var v is %T, want it kept", body[4])
	}
	if _, ok := body[5].(*ast.FunctionDeclaration); !ok {
		t.Fatalf("function h is %T, want it kept", body[5])
	}
}

// TestDeadJumpsRunLikeNode: the programs goja miscompiled (issue 16: an index-out-of-range panic, a wrong
// ReferenceError, silently wrong jumps) run, rewritten, to the values node v20 gives.
func TestDeadJumpsRunLikeNode(t *testing.T) {
	for _, c := range deadjumps.Cases {
		rt := goja.New()
		if err := Install(rt, 1000); err != nil {
			t.Fatal(err)
		}
		prg, err := Compile("t.js", c.Src, false)
		if err != nil {
			t.Fatalf("%s: %v", c.Src, err)
		}
		v, err := rt.RunProgram(prg)
		if err != nil {
			t.Errorf("%s: %v", c.Src, err)
			continue
		}
		if got := v.String(); got != c.Want {
			t.Errorf("%s: %s, want %s", c.Src, got, c.Want)
		}
	}
}
