package depthguard

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// The Function constructors make guarded functions: recursion inside them is a catchable RangeError.
func TestFunctionConstructorsAreGuarded(t *testing.T) { testGuarded(t) }

func testGuarded(t *testing.T) {
	const want = "caught Maximum call stack size exceeded"
	for name, src := range map[string]string{
		"Function":          `new Function("function r(){ return r() + 1 } return r()")()`,
		"Function call":     `Function("function r(){ return r() + 1 } return r()")()`,
		"calls itself":      `var again = Function("return again() + 1"); again()`,
		"arrow body":        `Function("const r = () => r() + 1; return r()")()`,
		"strict body":       `Function("'use strict'; function r(){ return r() + 1 } return r()")()`,
		"GeneratorFunction": `Object.getPrototypeOf(function*(){}).constructor("function r(){ return r() + 1 } yield r()")().next()`,
		"subclass":          `class F extends Function {}; new F("function r(){ return r() + 1 } return r()")()`,
		"via constructor":   `(function(){}).constructor("function r(){ return r() + 1 } return r()")()`,
	} {
		t.Run(name, func(t *testing.T) {
			_, v, err := run(t, 200, `try { `+src+`; "not caught" } catch (e) { "caught " + e.message }`)
			if err != nil || v.String() != want {
				t.Fatalf("got %v, %v", v, err)
			}
		})
	}
}

// The guarded constructors keep what a script can observe of goja's: identity, descriptors, the functions' name,
// source text, scope, strictness and prototype, the order and count of argument conversions, and goja's own
// errors.
func TestFunctionConstructorsKeepIdentity(t *testing.T) { testIdentity(t) }

func testIdentity(t *testing.T) {
	checks := map[string]string{
		"constructor":          `(function(){}).constructor === Function && Function.prototype.constructor === Function`,
		"instanceof":           `new Function("") instanceof Function && Function("") instanceof Function`,
		"prototype":            `Function.prototype === Object.getPrototypeOf(function(){}) && Object.getPrototypeOf(Function) === Function.prototype`,
		"name and length":      `Function.name === "Function" && Function.length === 1 && String(Function) === "function Function() { [native code] }"`,
		"own keys":             `Object.getOwnPropertyNames(Function).sort().join() === "length,name,prototype"`,
		"prototype descriptor": `var d = Object.getOwnPropertyDescriptor(Function, "prototype"); !d.writable && !d.enumerable && !d.configurable`,
		"global descriptor":    `var d = Object.getOwnPropertyDescriptor(globalThis, "Function"); d.writable && !d.enumerable && d.configurable`,
		"constructor descriptor": `var d = Object.getOwnPropertyDescriptor(Function.prototype, "constructor"); d.writable && !d.enumerable && d.configurable` +
			` && !Object.getOwnPropertyDescriptor(Object.getPrototypeOf(function*(){}), "constructor").writable`,
		"anonymous":    `new Function("a", "b", "return a + b").name === "anonymous"`,
		"source":       `String(new Function("a", "b", "return a + b")) === "function anonymous(a,b\n) {\nreturn a + b\n}"`,
		"parameters":   `new Function("a, b", "c", "return a + b + c")(1, 2, 3) === 6`,
		"global scope": `var x = "global"; (function(){ var x = "local"; return new Function("return x")() })() === "global"`,
		"sloppy this":  `new Function("return this")() === globalThis && Function("'use strict'; return this")() === undefined`,
		"async":        `var AF = (async function(){}).constructor; AF.name === "AsyncFunction" && Object.getPrototypeOf(AF) === Function && AF("return 1")() instanceof Promise && AF("") instanceof AF`,
		"generator":    `var GF = (function*(){}).constructor; GF.name === "GeneratorFunction" && GF("yield 5")().next().value === 5 && Object.getPrototypeOf(GF("")) === GF.prototype`,
		"subclass":     `class F extends Function {}; var f = new F("return 7"); f instanceof F && f() === 7 && Object.getPrototypeOf(f) === F.prototype`,
		"new.target": `function X() {}; X.prototype = Object.create(Function.prototype); function Y() {}; Y.prototype = 5;` +
			`var AF = (async function(){}).constructor, GF = (function*(){}).constructor;` +
			`Object.getPrototypeOf(Reflect.construct(Function, ["return 3"], X)) === X.prototype && Reflect.construct(Function, ["return 3"], X)() === 3` +
			` && Object.getPrototypeOf(Reflect.construct(Function, [""], Y)) === Function.prototype && Object.getPrototypeOf(Reflect.construct(AF, [""], X)) === X.prototype` +
			` && Object.getPrototypeOf(Reflect.construct(GF, [""], Y)) === GF.prototype && Object.getPrototypeOf(new AF("")) === AF.prototype && Object.getPrototypeOf(GF) === Function`,
		"method call":    `var o = {F: Function}; Object.getPrototypeOf(o.F("return 1")) === Function.prototype && Object.getPrototypeOf(Function.call({}, "")) === Function.prototype`,
		"one toString":   `var n = 0; var p = {toString(){ n++; return "a" }}; Function(p, "return a")(4) === 4 && n === 1`,
		"syntax error":   `try { Function("}"); false } catch (e) { e instanceof SyntaxError }`,
		"injection":      `try { Function("a){}, (function(", "return 1"); false } catch (e) { e instanceof SyntaxError }`,
		"symbol":         `try { Function(Symbol()); false } catch (e) { e instanceof TypeError }`,
		"lone surrogate": `Function("return '\ud800'")().charCodeAt(0) === 0xd800`,
		"stack name":     `try { new Function("throw new Error('x')")() } catch (e) { /at anonymous \(<eval>:3:/.test(e.stack) }`,
	}
	for name, src := range checks {
		t.Run(name, func(t *testing.T) {
			_, v, err := run(t, 200, src)
			if err != nil || !v.ToBoolean() {
				t.Fatalf("%s: %v, %v", src, v, err)
			}
		})
	}
}

// The guard changes goja's own constructors in place: the same objects, guarded, in calls and constructions.
func TestFunctionConstructorsInPlace(t *testing.T) {
	rt := goja.New()
	fn := rt.Get("Function")
	async, err := rt.RunString(`Object.getPrototypeOf(async function () {}).constructor`)
	if err != nil {
		t.Fatal(err)
	}
	if err := Install(rt, 100); err != nil {
		t.Fatal(err)
	}
	if rt.Get("Function") != fn {
		t.Error("Install replaced goja's Function")
	}
	if v, err := rt.RunString(`Object.getPrototypeOf(async function () {}).constructor`); err != nil || v != async {
		t.Errorf("Install replaced goja's AsyncFunction: %v, %v", v, err)
	}
	for _, src := range []string{
		`new Function("function r(){ return r() + 1 } return r()")()`,
		`Reflect.construct(Function, ["function r(){ return r() + 1 } return r()"], class X {})()`,
		`new (Object.getPrototypeOf(async function(){}).constructor)("function r(){ return r() + 1 } return r()")()`,
	} {
		prg, err := Compile("test.js", `try { `+src+`; "not caught" } catch (e) { e instanceof RangeError }`, false)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := rt.RunProgram(prg); err != nil || !v.ToBoolean() {
			t.Errorf("%s: %v, %v", src, v, err)
		}
	}
}

// Where goja's internals cannot be read (LazyGuard fails), wrapper constructors guard and keep identity as well.
func TestFunctionConstructorsWrapped(t *testing.T) {
	restore := gojainternal.SimulateChange(errors.New("test"))
	defer restore()
	rt := goja.New()
	orig := rt.Get("Function")
	if err := Install(rt, 100); err != nil {
		t.Fatal(err)
	}
	if rt.Get("Function") == orig {
		t.Fatal("with goja's internals unread, Install kept goja's Function unwrapped")
	}
	t.Run("guarded", testGuarded)
	t.Run("identity", testIdentity)
}

// BenchmarkInstall: what the guard costs a fresh realm, time and allocations (goja.New outside the timing).
func BenchmarkInstall(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		rt := goja.New()
		b.StartTimer()
		if err := Install(rt, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAsyncAndGeneratorEager: what guarding AsyncFunction and GeneratorFunction when the realm is made costs
// (goja builds both, their prototypes and %GeneratorPrototype%, on the first async function or generator): the
// materialization alone (ctorsProgram) and the in-place guards on top.
func BenchmarkAsyncAndGeneratorEager(b *testing.B) {
	prg, err := ctorsProgram()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("materialize", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			b.StopTimer()
			rt := goja.New()
			b.StartTimer()
			if _, err := rt.RunProgram(prg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("materialize+guard", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			b.StopTimer()
			rt := goja.New()
			fn := rt.Get("Function").(*goja.Object)
			b.StartTimer()
			async, gen, err := asyncAndGenerator(rt)
			if err != nil {
				b.Fatal(err)
			}
			if !guardInPlace(rt, async, kindAsync) || !guardInPlace(rt, gen, kindGenerator) {
				b.Skip("gojainternal cannot guard in place")
			}
			_ = async.SetPrototype(fn)
			_ = gen.SetPrototype(fn)
		}
	})
}
