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
