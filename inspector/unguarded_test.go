package inspector

import (
	"reflect"
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
	// call-free loops (twin.go)
	`function f(n) { var s = 0; for (var i = 0; i < n; i++) { s += i; } return s; } f(10)`,
	`function g(n) { var s = 0; outer: for (let i = 0; i < n; i++) { for (let j = 0; j < n; j++) { if (j > i) continue outer; if (i * j > 6) break outer; s += j; } } return s; } g(5)`,
	`function h(n) { var k = 0; do { k += 2; } while (k < n); while (k > 0) k -= 3; return k; } h(9)`,
	`function m(o) { var t = 0; for (var i = 0; i < 3; i++) { t += o.v; } return t; } m({ get v() { return 2; } })`,
	`function c() { var x = 0; var get = function () { return x; }; for (var i = 0; i < 3; i++) x += i; return get(); } c()`,
	`function b(n) { var s = ""; for (var i = 0; i < n; i++) { let q = i * 2; const r = q + 1; s += r; if (s.length > 4) break; } return s + i; } b(9)`,
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

// TestTwin_Shape: a call-free loop of a function, after a hook that leaves
// the frame flag valid, runs as `if (__jsworker_f) loop else plain loop`;
// a loop with a call, a throw or a function in it, and a top-level loop,
// have no plain copy.
func TestTwin_Shape(t *testing.T) {
	for _, c := range []struct {
		src   string
		twins int
	}{
		{`function loop(n) { var s = 0; for (var i = 0; i < n; i++) { s += i; } return s; }`, 1},
		{`function f(n) { while (n > 0) { n--; } do { n++; } while (n < 3); return n; }`, 2},
		{`function f(n) { for (;;) { for (;;) { break; } break; } }`, 1},
		{`function f(x) { for (var i = 0; i < x; i++) { g(i); } }`, 0},
		{`function f() { for (;;) { throw 1; } }`, 0},
		{`function f(a) { for (var i = 0; i < 2; i++) { a[i] = function () {}; } }`, 0},
		{`function f(o) { for (var k in o) { o[k]++; } }`, 0},
		{`var a = 0; for (;;) { a++; }`, 0},
	} {
		d := NewDebugger()
		prg, err := goja.Parse("x.js", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.instrument(d.newScript("x.js", c.src), prg, false, nil); err != nil {
			t.Fatal(err)
		}
		twins := 0
		astwalk.Inspect(prg, func(n ast.Node) bool {
			if is, ok := n.(*ast.IfStatement); ok && is.Alternate != nil {
				id, _ := is.Test.(*ast.Identifier)
				switch is.Consequent.(type) {
				case *ast.ForStatement, *ast.WhileStatement, *ast.DoWhileStatement:
					if id != nil && id.Name == frameFlagName && reflect.TypeOf(is.Consequent) == reflect.TypeOf(is.Alternate) &&
						is.Consequent != is.Alternate {
						twins++
					}
				}
			}
			return true
		})
		if twins != c.twins {
			t.Errorf("%s: %d loop twins, want %d", c.src, twins, c.twins)
		}
	}
}
