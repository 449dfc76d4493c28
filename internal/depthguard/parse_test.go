package depthguard

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
)

// TestCompileParserPanic: source on which goja's parser panics (found by inspector.FuzzInstrument) is a syntax
// error from Compile, as from the runtime, never a panic.
func TestCompileParserPanic(t *testing.T) {
	const src = "function e,b,p={f r)on* take(it, n) { for (const v of it) { if (n-- <= 0) return; yield v; } }\n" +
		"function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }\n" +
		"console.log([...range(0, 10, 3)], [...take("
	_, err := Compile("f.js", src, false)
	var se *goja.CompilerSyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("Compile: %T %v, want a *goja.CompilerSyntaxError", err, err)
	}
}

// TestFunctionParserPanic: the same source given to the guarded Function constructors throws a catchable
// SyntaxError, as in Node, instead of ending the realm's thread with goja's parser panic.
func TestFunctionParserPanic(t *testing.T) {
	const src = "function e,b,p={f r)on* take(it, n) { for (const v of it) { if (n-- <= 0) return; yield v; } }\n" +
		"function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }\n" +
		"console.log([...range(0, 10, 3)], [...take("
	rt := goja.New()
	if err := Install(rt, 1000); err != nil {
		t.Fatal(err)
	}
	rt.Set("src", src)
	prg, err := Compile("test.js", `[
		(() => { try { new Function(src); return "none" } catch (e) { return e instanceof SyntaxError && e.message.includes("the parser failed") } })(),
		(() => { try { Function("a", src); return "none" } catch (e) { return e instanceof SyntaxError } })(),
		(() => { try { new (Object.getPrototypeOf(async function () {}).constructor)(src); return "none" } catch (e) { return e instanceof SyntaxError } })(),
	].join()`, false)
	if err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunProgram(prg) // rewritten, as every script of a realm: AsyncFunction is guarded before it runs
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "true,true,true" {
		t.Fatalf("got %s, want true,true,true", got)
	}
}
