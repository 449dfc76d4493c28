package inspector

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/astwalk"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// ownGuardCalls counts the depth guard's calls in fn's body, not in the functions nested in it.
func ownGuardCalls(body ast.Node) int {
	calls := 0
	astwalk.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			return false
		case ast.Expression:
			if depthguard.IsCall(n) {
				calls++
			}
		}
		return true
	})
	return calls
}

// entryForm names the form of the guard's call in the first statement of body after its prologue: "call" (the
// statement Rewrite inserts), "set" (`__jsworker_f = guard()`, entryFlag), "if" (`if (guard())`, the one-statement
// fast path and an arrow's concise body), "if-set" (`if (__jsworker_f = guard())`) or "" (none there).
func entryForm(body *ast.BlockStatement) string {
	for _, st := range body.List {
		var e ast.Expression
		form := ""
		switch st := st.(type) {
		case *ast.ExpressionStatement:
			if _, ok := st.Expression.(*ast.StringLiteral); ok {
				continue // the prologue
			}
			e, form = st.Expression, "call"
		case *ast.IfStatement:
			e, form = st.Test, "if"
		default:
			return ""
		}
		if a, ok := e.(*ast.AssignExpression); ok {
			if id, ok := a.Left.(*ast.Identifier); !ok || id.Name != frameFlagName {
				return ""
			}
			e = a.Right
			form = map[string]string{"call": "set", "if": "if-set"}[form]
		}
		if !depthguard.IsCall(e) {
			return ""
		}
		return form
	}
	return ""
}

// TestEntryFlag_OneGuardCall: after instrumentation and Rewrite, every function calls the depth guard once, in
// its first statement after the prologue, in the form that reads the hook flag from it where its first hook is
// there, and the program runs as the plain one does.
func TestEntryFlag_OneGuardCall(t *testing.T) {
	for _, c := range []struct {
		src   string
		forms string // each function's entryForm, in source order
	}{
		{`function f(a) { var b = a + 1; return b; } f(1)`, "set"},
		{`function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } fib(7)`, "if"},
		{`function f() { "use strict"; var a = 1; return a; } f()`, "set"},
		{`function f() { "use strict"; return 2; } f()`, "if"},
		{`var g = (x) => x * 2; g(4)`, "if"},
		{`var g = (x) => { var y = x; return y; }; g(5)`, "set"},
		{`var o = { m() { return 1; }, get p() { var q = 2; return q; }, set p(v) { this.v = v; } }; o.p = 3; o.m() + o.p + o.v`, "if set if"},
		{`class A { constructor(v) { this.v = v; } static s() { return 7; } } class B extends A { constructor() { super(3); this.w = 1; } } new B().v + A.s()`, "if if set"},
		{`function* gen() { yield 1; yield 2; } [...gen()].join()`, "set"},
		{`async function af() { return 1; } var af2 = async () => 2; af(); 0`, "set if"},
		{`function e() {} e()`, "call"},
		{`function d() { function inner() { return 1; } return inner(); } d()`, "call if"},
		{`function outer() { var k = 1; return function () { return k; }; } outer()()`, "set if"},
		{`class S { static { var z = 2; S.t = () => z; } } S.t()`, "if"},
		{`class F { x = () => 4; } new F().x()`, "if"},
	} {
		d := NewDebugger()
		prg, err := goja.Parse("x.js", c.src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := d.instrument(d.newScript("x.js", c.src), prg, false, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		var forms []string
		astwalk.Inspect(prg, func(n ast.Node) bool {
			var body *ast.BlockStatement
			switch n := n.(type) {
			case *ast.FunctionLiteral:
				body = n.Body
			case *ast.ArrowFunctionLiteral:
				body, _ = n.Body.(*ast.BlockStatement) // concise bodies are blocks once instrumented
			default:
				return true
			}
			if body == nil {
				t.Errorf("%s: a function with no block body after instrumentation", c.src)
				return true
			}
			if calls := ownGuardCalls(body); calls != 1 {
				t.Errorf("%s: a function calls the guard %d times", c.src, calls)
			}
			forms = append(forms, entryForm(body))
			return true
		})
		if got := strings.Join(forms, " "); got != c.forms {
			t.Errorf("%s: entry forms %q, want %q", c.src, got, c.forms)
		}
		rt := goja.New()
		if err := d.Install(rt, nil); err != nil {
			t.Fatal(err)
		}
		got, err := rt.RunProgram(p)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		want, err := goja.New().RunString(c.src)
		if err != nil {
			t.Fatalf("%s: plain: %v", c.src, err)
		}
		if !got.SameAs(want) {
			t.Errorf("%s = %v, plain %v", c.src, got, want)
		}
	}
}

// TestEntryFlag_EnableInRecursion: a session that enables the Debugger while a recursive function is running —
// from a native function its outermost call made, as a host that dispatches inspector commands from a callback
// does — stops at a breakpoint on the function's first statement in every deeper call, which entered after the
// flag was set: the guard's value at entry is on as soon as Debugger.enable returns. The three entry forms: the
// one-statement fast path, a body the guard's try wraps, an arrow's concise body.
func TestEntryFlag_EnableInRecursion(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"one statement", "function rec(n) {\n  return (n === 3 ? pump() : 0) + (n > 0 ? rec(n - 1) + 1 : 0);\n}\nvar r = rec(3);"},
		{"try", "function rec(n) {\n  var k = n === 3 ? pump() : 0;\n  return k + (n > 0 ? rec(n - 1) + 1 : 0);\n}\nvar r = rec(3);"},
		{"concise arrow", "var rec = (n) =>\n  (n === 3 ? pump() : 0) + (n > 0 ? rec(n - 1) + 1 : 0);\nvar r = rec(3);"},
	} {
		t.Run(c.name, func(t *testing.T) {
			lt := newLoopTarget(t, 0)
			s := lt.attach()
			next(t, s)
			ready := make(chan struct{})
			lt.do(func(rt *goja.Runtime) {
				rt.Set("pump", func() int { // serve the queued commands now, inside the outermost call
					<-ready
					for {
						fn, _ := lt.pop()
						if fn == nil {
							return 0
						}
						fn(rt)
					}
				})
			})
			lt.start(t, c.src)
			dispatch(t, s, `{"id":1,"method":"Debugger.enable"}`)
			dispatch(t, s, `{"id":2,"method":"Debugger.setBreakpointByUrl","params":{"url":"test.js","lineNumber":1}}`)
			close(ready)
			answerTo(t, s, 1)
			if m := answerTo(t, s, 2); len(field(m, "result", "locations").([]any)) != 1 {
				t.Fatalf("setBreakpointByUrl = %v", m)
			}
			for i := range 3 { // rec(2), rec(1), rec(0)
				p := nextPaused(t, s)
				frames := field(p, "params", "callFrames").([]any)
				top := frames[0].(map[string]any)
				if line := field(top, "location", "lineNumber"); line != float64(1) {
					t.Fatalf("pause %d at line %v, want 1: %v", i, line, p)
				}
				if len(frames) != i+3 { // the script, rec(3) and a frame per deeper call
					t.Fatalf("pause %d with %d frames, want %d: %v", i, len(frames), i+3, p)
				}
				dispatch(t, s, `{"id":%d,"method":"Debugger.resume"}`, 10+i)
			}
			answerTo(t, s, 12) // the others' answers came before the next pause
			var r goja.Value
			lt.do(func(rt *goja.Runtime) { r = rt.Get("r") })
			if r == nil || r.ToInteger() != 3 {
				t.Fatalf("r = %v", r)
			}
			// Debugger.disable turns both off: the breakpoint is gone, and so is every hook.
			dispatch(t, s, `{"id":3,"method":"Debugger.disable"}`)
			answerTo(t, s, 3)
			lt.do(func(rt *goja.Runtime) {
				if on := rt.Get(onName); on.ToBoolean() || lt.dbg.flag.On() {
					t.Errorf("after Debugger.disable: %s %v, the depth guard's value %v", onName, on, lt.dbg.flag.On())
				}
			})
		})
	}
}
