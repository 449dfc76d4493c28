package depthguard

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// FuzzEvalText: whatever text a script evaluates, directly or indirectly, no Go panic escapes the realm (goja's
// parser panics on some malformed text: the eval check turns that into a SyntaxError), and where goja's parser does
// panic on the text both evals throw a SyntaxError saying so. Each input runs in a fresh guarded realm, stopped
// after 40 ms (a looping text).
func FuzzEvalText(f *testing.F) {
	for _, s := range []string{panicSource, "1 + 1", "var v = 1; v", "function f() { return f() } f()", "a b", "(",
		"`${", "'\\uD800'", "0``", "A=[];const B=(\"\")", "eval('(')", "class { }", "async () => { await 1 }"} {
		f.Add(s)
	}
	const prog = `[() => eval(text), () => (0, eval)(text)].map(function (f) {
		try { f(); return "ok" } catch (e) { return e instanceof SyntaxError ? "syntax:" + e.message : "other" } }).join("|")`
	prg, err := Compile("fuzz.js", prog, false)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rt := goja.New()
		defer realmdata.Drop(rt) // the guard's per-realm state holds the realm (internal/realmdata)
		if err := Install(rt, 500); err != nil {
			t.Fatal(err)
		}
		rt.Set("text", text)
		timer := time.AfterFunc(40*time.Millisecond, func() { rt.Interrupt("budget") })
		defer timer.Stop()
		v, err := rt.RunProgram(prg) // a Go panic here fails the input
		if err != nil {
			return // interrupted, or an uncatchable overflow of direct eval (docs/limits.md)
		}
		if parserPanics(evalSource(rt.Get("text").(goja.String))) { // the text as goja's eval parses it
			want := "syntax:SyntaxError: <eval>: " + parserFailed
			for _, r := range strings.Split(v.String(), "|") {
				if !strings.HasPrefix(r, want) {
					t.Fatalf("eval of a text goja's parser panics on gave %q", v.String())
				}
			}
		}
	})
}

// parserPanics reports whether goja's parser panics on text, as goja's eval would parse it.
func parserPanics(text string) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	_, _ = goja.Parse("x", text)
	return false
}
