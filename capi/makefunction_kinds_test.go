package capi

import "testing"

// JSObjectMakeFunction compiles its body unrewritten: a body that makes a generator has the realm's depth guard
// guard GeneratorFunction first (internal/depthguard, ensure.go), so that a function GeneratorFunction compiles
// catches its own recursion as a RangeError.
func TestMakeFunctionGeneratorGuarded(t *testing.T) {
	ctx := newCtx(t)
	body := mkString(t, `return Object.getPrototypeOf(function* () {}).constructor(`+
		`"function f(){return f()+1} try { f() } catch (e) { return e instanceof RangeError }")().next().value`)
	var exc uintptr
	f := JSObjectMakeFunction(ctx, 0, 0, nil, body, 0, 1, &exc)
	if f == 0 {
		t.Fatalf("JSObjectMakeFunction threw %s", excText(t, ctx, exc))
	}
	v := JSObjectCallAsFunction(ctx, f, 0, 0, nil, &exc)
	if v == 0 {
		t.Fatalf("the call threw %s", excText(t, ctx, exc))
	}
	if got := goString(t, JSValueToStringCopy(ctx, v, &exc)); got != "true" {
		t.Fatalf("got %q, want true", got)
	}
}
