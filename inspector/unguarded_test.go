package inspector

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/astwalk"
)

// unguardedSrcs are programs whose functions are one statement: each runs
// its body once whichever branch of `if (on) { try … } else st` it takes.
var unguardedSrcs = []string{
	`var c = 0; function inc() { c++; } inc(); inc(); c`,
	`function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } fib(12)`,
	`function P(x) { this.x = x; } new P(3).x`,
	`var B = class { constructor(v) { this.v = v; } }; var D = class extends B { constructor() { super(4); } }; new D().v`,
	`var log = []; var o = { m() { log.push(1); } }; o.m(); o.m(); log.length`,
	`var n = 0; var f = () => { n += 2; }; f(); f(); n`,
	`function g() { "use strict"; return this === undefined; } g()`,
	`function thrower(o) { return o.missing.x; } var r; try { thrower({}); } catch (e) { r = e.name; } r`,
	`function a() { return arguments.length; } a(1, 2, 3)`,
	`function h() { return; } h() === undefined`,
}

// TestUnguarded_RunsOnce: a one-statement function computes what the plain
// one computes, with no session (the else branch) and with the Debugger
// enabled (the guarded branch, hooks on).
func TestUnguarded_RunsOnce(t *testing.T) {
	lt := newLoopTarget(t, 0)
	s := lt.attach()
	next(t, s)
	run := func(src string) (v goja.Value, err error) {
		lt.do(func(rt *goja.Runtime) {
			prg, cerr := lt.dbg.Compile("test.js", src)
			if cerr != nil {
				err = cerr
				return
			}
			v, err = rt.RunProgram(prg)
		})
		return v, err
	}
	for pass, enabled := range []bool{false, true} {
		if enabled {
			dispatch(t, s, `{"id":1,"method":"Debugger.enable"}`)
			answerTo(t, s, 1)
		}
		for _, src := range unguardedSrcs {
			got, err := run(src)
			if err != nil {
				t.Errorf("pass %d: %s: %v", pass, src, err)
				continue
			}
			want, err := goja.New().RunString(src)
			if err != nil {
				t.Fatalf("%s: plain: %v", src, err)
			}
			if !got.StrictEquals(want) {
				t.Errorf("pass %d (Debugger enabled %v): %s = %v, plain %v", pass, enabled, src, got, want)
			}
		}
	}
}

// TestUnguarded_Shape: a one-statement body tests the flag once and runs the
// try only when it is on; a body with more statements, an async function, a
// generator and a body holding a function keep the try on every call.
func TestUnguarded_Shape(t *testing.T) {
	for _, c := range []struct {
		src  string
		fast bool
	}{
		{`function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }`, true},
		{`function f() { g(); }`, true},
		{`var f = (x) => { return x.k; };`, true},
		{`function f() { "use strict"; return 1; }`, true},
		{`function f() { var a = 1; return a; }`, false},
		{`async function f() { return 1; }`, false},
		{`function* f() { yield 1; }`, false},
		{`function f() { return function () {}; }`, false},
		{`function f() { return class {}; }`, false},
		{`function f(x) { if (x) g(); }`, false},
		{`function f() { throw 1; }`, false},
	} {
		d := NewDebugger()
		prg, err := goja.Parse("x.js", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.instrument(d.newScript("x.js", c.src), prg, false, nil); err != nil {
			t.Fatal(err)
		}
		var body *ast.BlockStatement // the first function's
		astwalk.Inspect(prg, func(n ast.Node) bool {
			if body != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.FunctionLiteral:
				body = n.Body
			case *ast.ArrowFunctionLiteral:
				body, _ = n.Body.(*ast.BlockStatement)
			}
			return body == nil
		})
		last := body.List[len(body.List)-1]
		is, fast := last.(*ast.IfStatement)
		if fast {
			_, try := is.Consequent.(*ast.TryStatement)
			fast = try && is.Alternate != nil
		}
		if fast != c.fast {
			t.Errorf("%s: unguarded fast path %v, want %v (last statement %T)", c.src, fast, c.fast, last)
		}
	}
}

// TestFrameFlag_BreakpointSetInLoop: a breakpoint set, while paused in a
// call-free loop, on a later statement of the loop body stops there in the
// same iteration and the next, although the loop's hooks test the frame
// flag read before the loop.
func TestFrameFlag_BreakpointSetInLoop(t *testing.T) {
	lt := newLoopTarget(t, 0)
	s := lt.attach()
	next(t, s)
	dispatch(t, s, `{"id":1,"method":"Debugger.enable"}`)
	answerTo(t, s, 1)
	const src = "function f() {\n  var s = 0;\n  for (var i = 0; i < 3; i++) {\n    if (i === 1) debugger;\n    s += i;\n    s *= 2;\n  }\n  return s;\n}\nvar r = f();"
	lt.start(t, src)
	p := nextPaused(t, s)
	frame := field(p, "params", "callFrames").([]any)[0].(map[string]any)
	if line := field(frame, "location", "lineNumber"); line != float64(3) {
		t.Fatalf("first pause at line %v, want 3: %v", line, p)
	}
	dispatch(t, s, `{"id":2,"method":"Debugger.setBreakpointByUrl","params":{"url":"test.js","lineNumber":5}}`)
	if m := answerTo(t, s, 2); len(field(m, "result", "locations").([]any)) != 1 {
		t.Fatalf("setBreakpointByUrl = %v", m)
	}
	dispatch(t, s, `{"id":3,"method":"Debugger.resume"}`)
	for i := range 2 {
		p := nextPaused(t, s)
		frame := field(p, "params", "callFrames").([]any)[0].(map[string]any)
		if line := field(frame, "location", "lineNumber"); line != float64(5) {
			t.Fatalf("pause %d at line %v, want 5: %v", i, line, p)
		}
		dispatch(t, s, `{"id":%d,"method":"Debugger.resume"}`, 10+i)
	}
	var r goja.Value
	lt.do(func(rt *goja.Runtime) { r = rt.Get("r") })
	want, _ := goja.New().RunString(src + "\nr")
	if r == nil || !r.StrictEquals(want) {
		t.Fatalf("r = %v, want %v", r, want)
	}
}
