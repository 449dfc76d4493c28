package depthguard

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/astwalk"
)

// placeholder stands for GuardName in test sources, which cannot spell it.
const placeholder = "GUARD"

// parseGuarded parses src with every identifier placeholder renamed to GuardName: the calls code using Call
// places itself.
func parseGuarded(t *testing.T, src string) *ast.Program {
	t.Helper()
	prg, err := goja.Parse("t.js", src)
	if err != nil {
		t.Fatal(err)
	}
	astwalk.Inspect(prg, func(n ast.Node) bool {
		if id, ok := n.(*ast.Identifier); ok && id.Name == placeholder {
			id.Name = GuardName
		}
		return true
	})
	return prg
}

// guardCalls counts the calls of the guard in n.
func guardCalls(n ast.Node) int {
	calls := 0
	astwalk.Inspect(n, func(n ast.Node) bool {
		if e, ok := n.(ast.Expression); ok && IsCall(e) {
			calls++
		}
		return true
	})
	return calls
}

// TestRewriteKeepsPlacedCall: a function whose first statement after its prologue already calls the guard in one
// of the forms of Call gets no second call from Rewrite (twice rewritten, still one); a call anywhere else, or in
// a form that may not run (||=) or is not one of Call's, does not count, and the function gets its own.
func TestRewriteKeepsPlacedCall(t *testing.T) {
	for _, c := range []struct {
		src   string
		calls int
	}{
		{`function f() { GUARD(); x; }`, 1},
		{`function f() { __f = GUARD(); try { x; } catch (e) {} }`, 1},
		{`function f() { if (GUARD()) { try { x; } catch (e) {} } else x; }`, 1},
		{`function f() { if (__f = GUARD()) x; y; }`, 1},
		{`function f() { "use strict"; if (GUARD()) x; }`, 1},
		{`function f() { "use strict"; __f = GUARD(); x; }`, 1},
		{`var f = () => { if (GUARD()) x; return y; };`, 1},
		{`var o = { m() { __f = GUARD(); }, get g() { if (GUARD()) x; } };`, 2},
		{`class A { constructor() { if (GUARD()) x; } }`, 1},
		{`function f() {}`, 1},
		{`var f = () => x;`, 1},
		{`function f() { x; if (GUARD()) y; }`, 2},
		{`function f() { __f ||= GUARD(); }`, 2},
		{`function f() { __f += GUARD(); }`, 2},
		{`function f() { o.p = GUARD(); }`, 2},
		{`function f() { if (a) GUARD(); }`, 2},
		{`function f() { if (!GUARD()) x; }`, 2},
		{`function f() { "use strict"; x; __f = GUARD(); }`, 2},
		{`function f() { GUARD(); } function g() { return function () { __f = GUARD(); }; }`, 3},
	} {
		prg := parseGuarded(t, c.src)
		Rewrite(prg)
		Rewrite(prg)
		if n := guardCalls(prg); n != c.calls {
			t.Errorf("%s: %d guard calls after Rewrite, want %d", c.src, n, c.calls)
		}
		if _, err := goja.CompileAST(prg, false); err != nil {
			t.Errorf("%s: %v", c.src, err)
		}
	}
}

// TestFlag: the guard's calls return the realm's Flag, undefined until it is set, true while it is on; each realm
// has its own; a realm without the guard has none.
func TestFlag(t *testing.T) {
	if FlagOf(goja.New()) != nil {
		t.Fatal("a realm without the guard has a Flag")
	}
	prg := parseGuarded(t, `var r = []; function f() { __f = GUARD(); r.push(__f); } var __f;`)
	Rewrite(prg)
	p, err := goja.CompileAST(prg, false)
	if err != nil {
		t.Fatal(err)
	}
	var rts [2]*goja.Runtime
	var flags [2]*Flag
	for i := range rts {
		rts[i] = goja.New()
		if err := Install(rts[i], 100); err != nil {
			t.Fatal(err)
		}
		if flags[i] = FlagOf(rts[i]); flags[i] == nil || flags[i].On() {
			t.Fatalf("realm %d: Flag %v after Install, want one, off", i, flags[i])
		}
		if _, err := rts[i].RunProgram(p); err != nil {
			t.Fatal(err)
		}
	}
	step := func(on0, on1 bool) {
		flags[0].Set(on0)
		flags[1].Set(on1)
		for _, rt := range rts {
			if _, err := rt.RunString("f()"); err != nil {
				t.Fatal(err)
			}
		}
	}
	step(true, false)
	step(false, false)
	step(true, true)
	step(false, true)
	want := []string{"true,undefined,true,undefined", "undefined,undefined,true,true"}
	for i, rt := range rts {
		got, err := rt.RunString(`r.map(String).join()`)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want[i] {
			t.Errorf("realm %d: the guard returned %s, want %s", i, got, want[i])
		}
	}
	// Plain guarded code discards the value and runs as before with the flag on.
	flags[0].Set(true)
	g, err := Compile("g.js", `function g(n) { return n ? g(n - 1) + 1 : 0 } g(50)`, false)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := rts[0].RunProgram(g); err != nil || v.ToInteger() != 50 {
		t.Fatalf("g(50) = %v, %v", v, err)
	}
}
