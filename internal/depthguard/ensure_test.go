package depthguard

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// recursiveBody is a body for AsyncFunction or GeneratorFunction that answers whether recursion inside it is a
// catchable RangeError: true only if the constructor compiled it through Rewrite.
const recursiveBody = "function f(){return f()+1} try { f() } catch (e) { return e instanceof RangeError }"

// kindsMade reports what goja has made in rt; the test fails where gojainternal cannot tell.
func kindsMade(t *testing.T, rt *goja.Runtime) (async, gen bool) {
	t.Helper()
	async, gen, ok := gojainternal.FunctionKindsMade(rt)
	if !ok {
		t.Skip("gojainternal cannot read goja's AsyncFunction and GeneratorFunction fields")
	}
	return async, gen
}

// guardedAnswer calls ctor, an AsyncFunction or a GeneratorFunction, from Go with recursiveBody and runs the
// function it makes: the answer, or the error that ended it (goja's uncatchable overflow when unguarded).
func guardedAnswer(t *testing.T, rt *goja.Runtime, ctor goja.Value) (bool, error) {
	t.Helper()
	mk, ok := goja.AssertFunction(ctor)
	if !ok {
		t.Fatalf("%v is not a constructor", ctor)
	}
	fv, err := mk(goja.Undefined(), rt.ToValue(recursiveBody))
	if err != nil {
		return false, err
	}
	f, _ := goja.AssertFunction(fv)
	r, err := f(goja.Undefined())
	if err != nil {
		return false, err
	}
	if p, ok := r.Export().(*goja.Promise); ok { // async: settled at its return, there being no await
		if p.State() != goja.PromiseStateFulfilled {
			return false, p.Result().Export().(error)
		}
		return p.Result().ToBoolean(), nil
	}
	next, _ := goja.AssertFunction(r.(*goja.Object).Get("next"))
	res, err := next(r)
	if err != nil {
		return false, err
	}
	return res.(*goja.Object).Get("value").ToBoolean(), nil
}

func newGuarded(t *testing.T) *goja.Runtime {
	t.Helper()
	rt := goja.New()
	if err := Install(rt, 200); err != nil {
		t.Fatal(err)
	}
	return rt
}

// TestFunctionKinds_Idle: Install makes neither AsyncFunction nor GeneratorFunction, and code that contains neither
// kind of function makes neither; Rewrite inserts no call into it.
func TestFunctionKinds_Idle(t *testing.T) {
	rt := newGuarded(t)
	if a, g := kindsMade(t, rt); a || g {
		t.Fatalf("after Install: AsyncFunction made %v, GeneratorFunction made %v", a, g)
	}
	prg, err := Parse("t.js", `function f() { return [1, 2].map(x => x * 2) } eval("f()"); new Function("return 1")(); f()`)
	if err != nil {
		t.Fatal(err)
	}
	n := len(prg.Body)
	Rewrite(prg)
	if len(prg.Body) != n || MakesFunctionKinds(prg) {
		t.Fatalf("Rewrite changed a program with neither kind: %d statements, was %d", len(prg.Body), n)
	}
	p, err := goja.CompileAST(prg, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rt.RunProgram(p); err != nil {
		t.Fatal(err)
	}
	if a, g := kindsMade(t, rt); a || g {
		t.Fatalf("after plain code: AsyncFunction made %v, GeneratorFunction made %v", a, g)
	}
}

// TestFunctionKinds_FirstTouch: every way code can first make an async function or a generator in a realm meets a
// guarded constructor, each in a fresh realm.
func TestFunctionKinds_FirstTouch(t *testing.T) {
	const af, gf = "Object.getPrototypeOf(async function () {}).constructor", "Object.getPrototypeOf(function* () {}).constructor"
	cases := []struct{ name, src string }{
		{"async function", af},
		{"generator", gf},
		{"async arrow", "Object.getPrototypeOf(async () => 1).constructor"},
		{"nested async arrow", `"use strict"; (function () { return (function () { return Object.getPrototypeOf(async () => 1).constructor })() })()`},
		{"generator method", "Object.getPrototypeOf(class { *g() {} }.prototype.g).constructor"},
		{"hoisted declaration", "Object.getPrototypeOf(g).constructor; function* g() {}"},
		{"direct eval", `eval("` + af + `")`},
		{"direct eval in eval", `eval("eval('` + gf + `')")`},
		{"indirect eval", `(0, eval)("` + gf + `")`},
		{"eval spread", `eval(...["` + af + `"])`},
		{"new Function", `new Function("return ` + af + `")()`},
		{"Function", `Function("return ` + gf + `")()`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rt := newGuarded(t)
			prg, err := Compile("t.js", c.src, false)
			if err != nil {
				t.Fatal(err)
			}
			ctor, err := rt.RunProgram(prg)
			if err != nil {
				t.Fatal(err)
			}
			if ok, err := guardedAnswer(t, rt, ctor); !ok || err != nil {
				t.Fatalf("%s: the constructor's recursion was not a catchable RangeError: %v, %v", c.src, ok, err)
			}
		})
	}
}

// TestFunctionKinds_Go: Go code running unrewritten text that makes either kind ensures first: RunScript does itself,
// others call EnsureFunctionKinds. Without it (the control), the constructor is goja's, unguarded: the check can fail.
func TestFunctionKinds_Go(t *testing.T) {
	src := "[Object.getPrototypeOf(async function () {}).constructor, Object.getPrototypeOf(function* () {}).constructor]"
	check := func(t *testing.T, rt *goja.Runtime, pair goja.Value, want bool) {
		t.Helper()
		for _, i := range []string{"0", "1"} {
			ok, err := guardedAnswer(t, rt, pair.(*goja.Object).Get(i))
			if ok != want {
				t.Errorf("constructor %s: answer %v (%v), want %v", i, ok, err, want)
			}
		}
	}
	t.Run("RunScript", func(t *testing.T) {
		rt := newGuarded(t)
		v, err := RunScript(rt, "t.js", src)
		if err != nil {
			t.Fatal(err)
		}
		check(t, rt, v, true)
	})
	t.Run("EnsureFunctionKinds", func(t *testing.T) {
		rt := newGuarded(t)
		if err := EnsureFunctionKinds(rt); err != nil {
			t.Fatal(err)
		}
		if a, g := kindsMade(t, rt); !a || !g {
			t.Fatalf("after EnsureFunctionKinds: made %v, %v", a, g)
		}
		if err := EnsureFunctionKinds(rt); err != nil { // the second call does nothing
			t.Fatal(err)
		}
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		check(t, rt, v, true)
	})
	t.Run("unguarded realm", func(t *testing.T) {
		rt := goja.New()
		if err := EnsureFunctionKinds(rt); err != nil { // nothing to do, no error
			t.Fatal(err)
		}
	})
	t.Run("control", func(t *testing.T) {
		rt := newGuarded(t)
		v, err := rt.RunString(src) // unrewritten, no ensure: goja's own constructors
		if err != nil {
			t.Fatal(err)
		}
		check(t, rt, v, false)
	})
}

// TestFunctionKinds_RewriteOnce: rewriting a program twice inserts the ensure call once, after the directive
// prologue, which keeps its meaning.
func TestFunctionKinds_RewriteOnce(t *testing.T) {
	prg, err := Parse("t.js", `"use strict"; var g = function* () {}; (function () { return this })() === undefined`)
	if err != nil {
		t.Fatal(err)
	}
	Rewrite(prg)
	Rewrite(prg)
	if len(prg.Body) != 4 || !isDirective(prg.Body[0]) || !isEnsure(prg.Body[1]) || isEnsure(prg.Body[2]) {
		t.Fatalf("want directive, ensure, statements: %d statements", len(prg.Body))
	}
	rt := newGuarded(t)
	p, err := goja.CompileAST(prg, false)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := rt.RunProgram(p); err != nil || !v.ToBoolean() {
		t.Fatalf("the program is not strict any more: %v, %v", v, err)
	}
	if _, g := kindsMade(t, rt); !g {
		t.Fatal("GeneratorFunction not made")
	}
}

// TestFunctionKinds_CompletionValue: the statement Rewrite inserts is a declaration, so a script's completion value
// is goja's (and Node's: node -p '"use strict"; function* g(){}' prints use strict).
func TestFunctionKinds_CompletionValue(t *testing.T) {
	for _, src := range []string{`"use strict"; function* g(){}`, `1; function* g(){}`, `function* g(){}`,
		`"x"; var a = async () => 1;`, `"use strict"; (async () => 2, 3)`} {
		want, err := goja.New().RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		rt := newGuarded(t)
		prg, err := Compile("t.js", src, false)
		if err != nil {
			t.Fatal(err)
		}
		got, err := rt.RunProgram(prg)
		if err != nil || !got.SameAs(want) {
			t.Errorf("%s: completion %v (%v), want %v", src, got, err, want)
		}
	}
}
