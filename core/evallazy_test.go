package core_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// A realm's eval is guarded when goja makes it (the global template's hook, depthguard.EvalMade), whatever touches
// it first: after each first touch of the allocation guard's tests, eval keeps goja's own profile and identity, and
// direct eval, indirect eval and eval reached through the touch throw a catchable SyntaxError for parser-panic text.
func TestEval_GuardedOnFirstTouch(t *testing.T) {
	const checks = `var got = [];
		function report(f) { try { f(); got.push("none") } catch (e) { got.push(e instanceof SyntaxError) } }
		report(function () { eval(SRC) });
		report(function () { (0, eval)(SRC) });
		report(function () { TOUCHED(SRC) });
		got.push(eval("6 * 7"), (0, eval)("typeof globalThis"), eval === globalThis.eval);
		got.join()`
	for touch, src := range firstTouches {
		t.Run(touch, func(t *testing.T) {
			h, _ := openRealm(t, core.HostRealmOptions{})
			profileSrc := touchSource(src, "globalThis", "eval")
			got, err := h.RunScript("touch.js", profileSrc)
			want, werr := goja.New().RunString(profileSrc)
			if (err == nil) != (werr == nil) || err == nil && got.String() != want.String() {
				t.Fatalf("eval first touched by %s:\n got %v %v\nwant %v %v (plain goja)", touch, got, err, want, werr)
			}
			touched := strings.NewReplacer("REF", "eval", "WITH", "{}", "HOLDER", "globalThis", "NAME", "eval").Replace(src)
			v, err := h.RunScript("check.js", strings.NewReplacer("SRC", strconv.Quote(panicSource),
				"TOUCHED", "("+touched+")").Replace(checks))
			if err != nil {
				t.Fatal(err)
			}
			if v.String() != "true,true,true,42,object,true" {
				t.Fatalf("got %s", v)
			}
		})
	}
}

// In a worker whose first touch of eval is a direct eval inside a function, that eval is checked.
func TestEval_GuardedInWorker(t *testing.T) {
	w := spawn(t, `function f(s) { try { return eval(s) } catch (e) { return e.name } }
		postMessage(f(`+strconv.Quote(panicSource)+`) + " " + f("1 + 1"))`, core.Options{})
	if got := recv(t, w, goja.New()).String(); got != "SyntaxError 2" {
		t.Fatalf("got %q", got)
	}
}
