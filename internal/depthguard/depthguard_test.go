package depthguard

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// run compiles src guarded, installs the guard with limit and runs it.
func run(t testing.TB, limit int, src string) (*goja.Runtime, goja.Value, error) {
	t.Helper()
	rt := goja.New()
	if err := Install(rt, limit); err != nil {
		t.Fatal(err)
	}
	prg, err := Compile("test.js", src, false)
	if err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunProgram(prg)
	return rt, v, err
}

func TestRecursionIsCatchable(t *testing.T) {
	cases := []struct{ name, src string }{
		{"declaration", `function f(){return f()+1} try { f() } catch (e) { e instanceof RangeError && e.message }`},
		{"expression", `var f = function(){return f()+1}; try { f() } catch (e) { e.message }`},
		{"arrow expression body", `const f = () => f() + 1; try { f() } catch (e) { e.message }`},
		{"arrow block body", `const f = () => { return f() + 1 }; try { f() } catch (e) { e.message }`},
		{"method", `const o = { m() { return this.m() } }; try { o.m() } catch (e) { e.message }`},
		{"getter", `const o = { get g() { return this.g } }; try { o.g } catch (e) { e.message }`},
		{"class constructor", `class A { constructor() { new A() } }; try { new A() } catch (e) { e.message }`},
		{"derived constructor", `class B {}; class C extends B { constructor() { super(); new C() } }; try { new C() } catch (e) { e.message }`},
		{"mutual", `function a(){return b()} function b(){return a()} try { a() } catch (e) { e.message }`},
		{"strict function", `function f(){"use strict"; return f()} try { f() } catch (e) { e.message }`},
		{"through a builtin", `function f(){return [1].map(f)} try { f() } catch (e) { e.message }`},
		{"generator", `function* g(){ yield* g() } try { g().next() } catch (e) { e.message }`},
		{"finally runs", `var fin = 0; function f(){ try { return f() } finally { fin++ } } try { f() } catch (e) { fin > 0 && e.message }`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, v, err := run(t, 500, tc.src)
			if err != nil {
				t.Fatalf("uncaught: %v", err)
			}
			if got := v.String(); got != Message && got != "true" {
				t.Fatalf("got %q, want %q", got, Message)
			}
		})
	}
}

func TestDepthAtCatchIsTheLimit(t *testing.T) {
	_, v, err := run(t, 300, `var n = 0; function f(){ n++; f() } try { f() } catch (e) {} n`)
	if err != nil {
		t.Fatal(err)
	}
	// The top level is frame 1 of goja's call stack: f runs at depths 2..limit+1 and the guard refuses the next.
	if n := v.ToInteger(); n < 290 || n > 300 {
		t.Fatalf("f ran %d times, want about 300", n)
	}
}

func TestRecoversAndRecursesAgain(t *testing.T) {
	_, v, err := run(t, 200, `function f(){return f()} var caught = 0;
		for (let i = 0; i < 50; i++) { try { f() } catch (e) { caught++ } } caught`)
	if err != nil || v.ToInteger() != 50 {
		t.Fatalf("caught %v, %v", v, err)
	}
}

func TestBackstopStaysUncatchable(t *testing.T) {
	// eval'd code is compiled by goja and not rewritten: only goja's own limit stops it.
	_, _, err := run(t, 100, `try { eval("function g(){return g()}; g()") } catch (e) { "caught" }`)
	var so *goja.StackOverflowError
	if !errors.As(err, &so) {
		t.Fatalf("got %v, want goja's StackOverflowError", err)
	}
}

func TestPositionsAndSourceUnchanged(t *testing.T) {
	src := "function f(a) {\n  \"use strict\";\n  return this;\n}\nconst g = x => x * 2;\n" +
		"function thrower() { throw new Error('x') }\n" +
		"[f.toString(), g.toString(), String(f()), (() => { try { thrower() } catch (e) { return e.stack } })()].join('|')"
	_, v, err := run(t, 100, src)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := goja.New().RunScript("test.js", src)
	if err != nil {
		t.Fatal(err)
	}
	// Frames end with the bytecode offset in parentheses, which the inserted calls shift: the rest is the same.
	pc := regexp.MustCompile(`\(\d+\)(\)?)\n`)
	got, want := pc.ReplaceAllString(v.String(), "$1\n"), pc.ReplaceAllString(plain.String(), "$1\n")
	if got != want {
		t.Fatalf("guarded program differs:\n got %q\nwant %q", got, want)
	}
}

func TestGuardIsHidden(t *testing.T) {
	// The guard is no property of the global object, and no source text can
	// name it; a script writing the global property of that name changes
	// nothing, and recursion still throws the catchable RangeError.
	_, v, err := run(t, 100, `var names = Reflect.ownKeys(globalThis).concat(Object.getOwnPropertyNames(globalThis));
		globalThis["`+GuardName+`"] = null;
		function f() { return f() + 1 }
		var caught; try { f() } catch (e) { caught = e instanceof RangeError }
		[names.some(n => String(n).includes("depth")), caught, (0, eval)("typeof globalThis['`+GuardName+`']")].join()`)
	if err != nil || v.String() != "false,true,object" {
		t.Fatalf("got %v, %v", v, err)
	}
}

func TestRewriteIsIdempotent(t *testing.T) {
	prg, err := goja.Parse("t.js", `function f(){ return 1 } const g = () => 2`)
	if err != nil {
		t.Fatal(err)
	}
	Rewrite(prg)
	Rewrite(prg)
	body := prg.Body[0].(*ast.FunctionDeclaration).Function.Body.List
	if len(body) != 2 || !isGuard(body[0]) || isGuard(body[1]) {
		t.Fatalf("body after two rewrites: %d statements, want the guard once then the return", len(body))
	}
	arrow := prg.Body[1].(*ast.LexicalDeclaration).List[0].Initializer.(*ast.ArrowFunctionLiteral)
	if seq := arrow.Body.(*ast.ExpressionBody).Expression.(*ast.SequenceExpression); len(seq.Sequence) != 2 {
		t.Fatalf("arrow body after two rewrites: %d expressions, want 2", len(seq.Sequence))
	}
}

func TestStackDepthMatchesGoja(t *testing.T) {
	rt := goja.New()
	var seen []int
	rt.Set("probe", func() { seen = append(seen, depthOf(rt)) })
	if _, err := rt.RunString(`probe(); (function(){ probe(); (function(){ probe() })() })()`); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 || seen[1] != seen[0]+1 || seen[2] != seen[0]+2 {
		t.Fatalf("depths %v, want three consecutive values", seen)
	}
	if depthOf(rt) != 0 {
		t.Fatalf("idle depth %d, want 0", depthOf(rt))
	}
}

func TestDeepSourceDoesNotOverflowTheRewriter(t *testing.T) {
	n := 2000
	src := strings.Repeat("(function(){ return ", n) + "1" + strings.Repeat("})()", n)
	if _, err := Compile("deep.js", src, false); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkCalls(b *testing.B) {
	const src = `function fib(n){ return n < 2 ? n : fib(n-1) + fib(n-2) } fib(20)`
	b.Run("plain", func(b *testing.B) {
		rt := goja.New()
		prg := goja.MustCompile("b.js", src, false)
		for b.Loop() {
			if _, err := rt.RunProgram(prg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("guarded", func(b *testing.B) {
		rt := goja.New()
		if err := Install(rt, 10000); err != nil {
			b.Fatal(err)
		}
		prg, err := Compile("b.js", src, false)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := rt.RunProgram(prg); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestGeneratorDelegationIsBounded(t *testing.T) {
	if !haveGoStack {
		t.Skip("the Go stack is not measured on this architecture")
	}
	// goja resumes every delegated generator on the Go stack and does not count it as a frame: without the Go-stack
	// bound this recursion ends the process ("goroutine stack exceeds 1000000000-byte limit").
	_, v, err := run(t, 10000, `function* g(){ yield* g() } try { g().next(); "no error" } catch (e) { e instanceof RangeError && e.message }`)
	if err != nil || v.String() != Message {
		t.Fatalf("got %v, %v", v, err)
	}
}

func TestGoStackUsedGrows(t *testing.T) {
	if !haveGoStack {
		t.Skip("the Go stack is not measured on this architecture")
	}
	var rec func(n int) uintptr
	rec = func(n int) uintptr {
		var pad [1024]byte
		if n == 0 {
			return goStackUsed() + uintptr(pad[0])
		}
		return rec(n-1) + uintptr(pad[n%1024])
	}
	base := goStackUsed()
	deep := rec(1000) - 0 // the sum of zeros is the deepest reading
	if deep < base+1000*1024 {
		t.Fatalf("1000 frames of 1 KiB: used %d bytes, at the top %d", deep, base)
	}
}

func TestJSONParseDepth(t *testing.T) {
	deep := strings.Repeat("[", MaxJSONDepth+1) + strings.Repeat("]", MaxJSONDepth+1)
	ok := strings.Repeat(`{"a":[`, 1000) + `"[[[[{{{{\"]]"` + strings.Repeat(`]}`, 1000)
	rt := goja.New()
	if err := Install(rt, 1000); err != nil {
		t.Fatal(err)
	}
	rt.Set("deep", deep)
	rt.Set("ok", ok)
	v, err := rt.RunString(`var out = [];
		try { JSON.parse(deep); out.push("parsed") } catch (e) { out.push(e.name + ": " + e.message) }
		out.push(typeof JSON.parse(ok));
		out.push(JSON.parse('{"x":[1,2,{"y":"z"}]}', (k, v) => typeof v === "number" ? v * 10 : v).x[1]);
		try { JSON.parse("{bad") } catch (e) { out.push(e.name) }
		out.push(JSON.parse.name, JSON.parse.length, Object.keys(JSON).length);
		out.push(JSON.parse({ toString() { return "[7]" } })[0]);
		out.join("|")`)
	if err != nil {
		t.Fatal(err)
	}
	want := "RangeError: " + Message + "|object|20|SyntaxError|parse|2|0|7"
	if v.String() != want {
		t.Fatalf("got  %s\nwant %s", v, want)
	}
}

// TestJSONDepthScan: JSON.parse counts the nesting of arrays and objects, not brackets inside strings: each text of
// depth want parses inside MaxJSONDepth-want more levels, and throws the guard's RangeError inside one level more.
func TestJSONDepthScan(t *testing.T) {
	rt := goja.New()
	if err := Install(rt, 1000); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want int
	}{
		{`[]`, 1}, {`[[],[[]]]`, 3}, {`{"a":{"b":[1]}}`, 3}, {`"[[[["`, 0}, {`["\"[[[", []]`, 2}, {`[1,"\\",[2]]`, 2},
	} {
		for _, extra := range []int{0, 1} {
			n := MaxJSONDepth - tc.want + extra
			rt.Set("text", strings.Repeat("[", n)+tc.text+strings.Repeat("]", n))
			v, err := rt.RunString(`try { JSON.parse(text); "parsed" } catch (e) { e.name + ": " + e.message }`)
			if err != nil {
				t.Fatal(err)
			}
			want := "parsed"
			if extra == 1 {
				want = "RangeError: " + Message
			}
			if v.String() != want {
				t.Errorf("%s inside %d levels: %s, want %s", tc.text, n, v, want)
			}
		}
	}
}

func TestNestedArrayToString(t *testing.T) {
	if !haveGoStack {
		t.Skip("the Go stack is not measured on this architecture")
	}
	if testing.Short() && raceEnabled {
		t.Skip("a million levels of Go recursion under -race take too long for -short")
	}
	_, v, err := run(t, 1000, `let a = []; for (let i = 0; i < 1e6; i++) a = [a];
		var out = [];
		for (const f of [() => String(a), () => a.join(), () => a.toLocaleString(), () => "" + a]) {
			try { f(); out.push("converted") } catch (e) { out.push(e instanceof RangeError) }
		}
		out.push(String([[1, [2]], 3]), [1, [2, 3]].join("-"), Array.prototype.join.name, Array.prototype.join.length,
			Object.keys(Array.prototype).length);
		out.join()`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "true,true,true,true,1,2,3,1-2,3,join,1,0"; v.String() != want {
		t.Fatalf("got  %s\nwant %s", v, want)
	}
}

func depthOf(rt *goja.Runtime) int {
	d, _ := gojainternal.CallStackDepth(rt)
	return d
}
