package capi

import "testing"

// JSObjectMakeFunction compiles its body unrewritten: a body that makes a generator has the realm's depth guard
// guard GeneratorFunction first (internal/depthguard, ensure.go), so that a function GeneratorFunction compiles
// catches its own recursion as a RangeError.
func TestMakeFunctionGeneratorGuarded(t *testing.T) {
	ctx := newCtx(t)
	body := `return Object.getPrototypeOf(function* () {}).constructor(` +
		`"function f(){return f()+1} try { f() } catch (e) { return e instanceof RangeError }")().next().value`
	if got := callBody(t, ctx, body); got != "true" {
		t.Fatalf("got %q, want true", got)
	}
}
