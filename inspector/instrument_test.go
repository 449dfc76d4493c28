package inspector

import (
	"testing"

	"github.com/dop251/goja"
)

// TestInstrument_Syntax: instrumented scripts of many shapes compile and
// compute what the plain ones compute.
func TestInstrument_Syntax(t *testing.T) {
	srcs := []string{
		`outer: for (var i = 0; i < 3; i++) { for (var j = 0; j < 3; j++) { if (j == 1) continue outer; if (i == 2) break outer; } } i`,
		`var r = 0; lbl: while (r < 5) r++; r`,
		`if (true) function ff() { return 7 } ; typeof ff`,
		`(function(){ "use strict"; try { undeclared = 1 } catch (e) { return e.name } })()`,
		`class A { static x = 1; static { this.y = 2; } #p = 3; get p() { return this.#p } } new A().p + A.y`,
		`async function f() { await null; return 5 } var out; f().then(v => out = v); 1`,
		`function* g() { yield 1; yield 2 } [...g()].length`,
		`switch (2) { case 1: 'a'; case 2: var s = 'b'; break; default: s = 'c' } s`,
		`do x = 1; while (false); x`,
		`for (const k in {a:1}) k; for (const v of [1]) v; with ({q: 9}) q`,
		`(function(){ var f = () => { return 1 }; return f() })()`,
		`var o = { m() { return 3 }, get g() { return 4 } }; o.m() + o.g`,
		`label1: { break label1; } 5`,
		`try { throw 1 } catch { 2 } finally { 3 }`,
		`var f = (n) => { var s = 0; for (var i = 0; i < n; i++) { s += i; } return s; }; f(10)`,
		`class S { static { var s = 0; for (var i = 0; i < 4; i++) s += i; this.s = s; } } S.s`,
		`function* g(n) { var i = 0; while (i < n) { i++; yield i; } } [...g(3)].join()`,
		`function t(x) { var y = x; if (y) { throw y + 1; } } try { t(1) } catch (e) { e }`,
		`function w(o) { with (o) { var k = 0; for (var i = 0; i < 3; i++) k += i; } return k; } w({})`,
	}
	for _, src := range srcs {
		d := NewDebugger()
		rt := goja.New()
		if err := d.Install(rt, nil); err != nil {
			t.Fatal(err)
		}
		prg, err := d.Compile("x.js", src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		got, err := rt.RunProgram(prg)
		if err != nil {
			t.Errorf("%s: run: %v", src, err)
			continue
		}
		want, err := goja.New().RunString(src)
		if err != nil {
			t.Errorf("%s: plain: %v", src, err)
			continue
		}
		if !got.StrictEquals(want) {
			t.Errorf("%s: instrumented %v, plain %v", src, got, want)
		}
	}
}
