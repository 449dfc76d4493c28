package inspector

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/astwalk"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// hookFlags instruments src and returns, in source order, the flag each
// statement hook tests: "on" (the global), "fresh" (refreshes the frame
// flag), "cached" (the frame flag), "guard" (the depth guard's value) or
// "fresh-guard" (refreshes the frame flag from it); and "entry" for the
// statement that sets the frame flag from the guard's value before a
// function's try (entryFlag).
func hookFlags(t *testing.T, src string) []string {
	t.Helper()
	d := NewDebugger()
	prg, err := goja.Parse("x.js", src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.instrument(d.newScript("x.js", src), prg, false, nil); err != nil {
		t.Fatal(err)
	}
	var out []string
	astwalk.Inspect(prg, func(n ast.Node) bool {
		var test, right ast.Expression
		switch n := n.(type) {
		case *ast.ExpressionStatement: // __jsworker_f = jsworker:depth();
			if a, ok := n.Expression.(*ast.AssignExpression); ok && depthguard.IsCall(a.Right) {
				out = append(out, "entry")
			}
			return true
		case *ast.IfStatement: // a function's hook: if (flag) hit(…) && (a = back(…))
			es, ok := n.Consequent.(*ast.ExpressionStatement)
			if !ok {
				return true
			}
			test, right = n.Test, es.Expression
		case *ast.BinaryExpression: // a top-level hook: on && hit(…)
			test, right = n.Left, n.Right
		default:
			return true
		}
		call, ok := right.(*ast.CallExpression)
		if r, isAnd := right.(*ast.BinaryExpression); isAnd { // hit(…) && (a = back(…))
			call, ok = r.Left.(*ast.CallExpression)
		}
		if !ok {
			return true
		}
		if dot, ok := call.Callee.(*ast.DotExpression); !ok || dot.Identifier.Name != "hit" {
			return true
		}
		switch l := test.(type) {
		case *ast.Identifier:
			if l.Name == onName {
				out = append(out, "on")
			} else if l.Name == frameFlagName {
				out = append(out, "cached")
			}
		case *ast.AssignExpression:
			if depthguard.IsCall(l.Right) {
				out = append(out, "fresh-guard")
			} else {
				out = append(out, "fresh")
			}
		case *ast.CallExpression:
			if depthguard.IsCall(l) {
				out = append(out, "guard")
			}
		}
		return true
	})
	return out
}

// TestFrameFlag_Kinds: hooks test the frame flag only where no call can have
// run since it was read; a function without such a hook, and the top level,
// test the global.
func TestFrameFlag_Kinds(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`function loop(n) { var s = 0; for (var i = 0; i < n; i++) { s += i; } return s; }`, "entry cached cached cached cached"},
		{`function f() { a(); b; c; }`, "entry cached fresh cached"},
		{`function f(x) { for (var i = 0; i < x; i++) { g(i); x--; } return x; }`, "entry cached on on on"},
		{`function f(x) { if (x) { x++; } else x--; return x; }`, "entry cached cached cached cached"},
		{`function f(x) { if (g(x)) { x++; } return x; }`, "entry cached on on"},
		{`async function f(p) { var s = 0; await p; for (;;) { s++; } }`, "entry cached cached fresh cached"},
		{`function f() { try { x.y; } catch (e) { z; } }`, "entry cached cached cached"},
		{`function f() { return 1; }`, "on"},
		{`function f() { function g() {} return g(); }`, "on"},
		{`var a = 0; for (;;) { a++; }`, "on on on"},
		{`var g = x => x * 2;`, "on guard"},
		{"function f() { var s = 0; s++; tag`x`; s++; }", "entry cached cached cached fresh"},
	} {
		if got := strings.Join(hookFlags(t, c.src), " "); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.src, got, c.want)
		}
	}
}

// TestFrameFlag_EnableDuringCall: a session that enables the Debugger while
// a function is running — from a native function the function called, as a
// host that dispatches inspector commands from a callback does — stops at a
// breakpoint in the call-free loop after that call in the same frame.
func TestFrameFlag_EnableDuringCall(t *testing.T) {
	lt := newLoopTarget(t, 0)
	s := lt.attach()
	next(t, s)
	ready := make(chan struct{})
	lt.do(func(rt *goja.Runtime) {
		rt.Set("pump", func() { // serve the queued commands now, inside the call
			<-ready
			for {
				fn, _ := lt.pop()
				if fn == nil {
					return
				}
				fn(rt)
			}
		})
	})
	lt.start(t, "function f() {\n  var s = 0;\n  pump();\n  for (var i = 0; i < 2; i++) {\n    s += i;\n  }\n  return s;\n}\nvar r = f();")
	dispatch(t, s, `{"id":1,"method":"Debugger.enable"}`)
	dispatch(t, s, `{"id":2,"method":"Debugger.setBreakpointByUrl","params":{"url":"test.js","lineNumber":4}}`)
	close(ready)
	answerTo(t, s, 1)
	if m := answerTo(t, s, 2); len(field(m, "result", "locations").([]any)) != 1 {
		t.Fatalf("setBreakpointByUrl = %v", m)
	}
	for i := range 2 {
		p := nextPaused(t, s)
		frame := field(p, "params", "callFrames").([]any)[0].(map[string]any)
		if line := field(frame, "location", "lineNumber"); line != float64(4) {
			t.Fatalf("pause %d at line %v, want 4: %v", i, line, p)
		}
		dispatch(t, s, `{"id":%d,"method":"Debugger.resume"}`, 10+i)
	}
	var r goja.Value
	lt.do(func(rt *goja.Runtime) { r = rt.Get("r") })
	if r == nil || r.ToInteger() != 1 {
		t.Fatalf("r = %v", r)
	}
}

// TestFrameFlag_EnableDuringAwait: an async function suspended at an await
// before the Debugger was enabled stops at a breakpoint in the call-free loop
// after the await when it resumes.
func TestFrameFlag_EnableDuringAwait(t *testing.T) {
	lt := newLoopTarget(t, 0)
	s := lt.attach()
	next(t, s)
	lt.start(t, "var done, go;\nasync function g(p) {\n  var s = 0;\n  await p;\n  for (var i = 0; i < 2; i++) {\n    s += i;\n  }\n  return s;\n}\ng(new Promise(function (r) { go = r; })).then(function (v) { done = v; });")
	dispatch(t, s, `{"id":1,"method":"Debugger.enable"}`)
	answerTo(t, s, 1)
	dispatch(t, s, `{"id":2,"method":"Debugger.setBreakpointByUrl","params":{"url":"test.js","lineNumber":5}}`)
	answerTo(t, s, 2)
	lt.Run(func(rt *goja.Runtime) { _, _ = rt.RunString("go()") }) // pauses: do not wait
	for i := range 2 {
		p := nextPaused(t, s)
		frame := field(p, "params", "callFrames").([]any)[0].(map[string]any)
		if line := field(frame, "location", "lineNumber"); line != float64(5) {
			t.Fatalf("pause %d at line %v, want 5: %v", i, line, p)
		}
		dispatch(t, s, `{"id":%d,"method":"Debugger.resume"}`, 10+i)
	}
	var done goja.Value
	lt.do(func(rt *goja.Runtime) { done = rt.Get("done") })
	if done == nil || done.ToInteger() != 1 {
		t.Fatalf("done = %v", done)
	}
}

// nextPaused returns the next Debugger.paused event, skipping other
// messages.
func nextPaused(t *testing.T, s *Session) map[string]any {
	t.Helper()
	for {
		m := next(t, s)
		if m["method"] == "Debugger.paused" {
			return m
		}
	}
}
