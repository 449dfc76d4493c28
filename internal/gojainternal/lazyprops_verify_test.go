package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

// TestLazyPropsVerify_DetectsDifference: verifyLazyProps compares the lazy runtime (AfterMake hooks and lazy
// properties together) with the eager reference, so a reference that differs in anything the checks read (a global,
// Array.prototype.join's attributes, JSON's names) fails it, as does a lazy runtime whose JSON is no longer pending.
func TestLazyPropsVerify_DetectsDifference(t *testing.T) {
	if err := LazyProps(); err != nil {
		t.Fatal(err)
	}
	c, err := lazyPropsChecks()
	if err != nil {
		t.Fatal(err)
	}
	if err := verifyLazyPropsOn(goja.New(), goja.New(), c); err != nil {
		t.Fatalf("fresh runtimes: %v", err)
	}
	for _, change := range []string{
		`globalThis.extra = 1`,
		`Object.defineProperty(Array.prototype, "join", { writable: false })`,
		`JSON.extra = 1`,
		`Array.prototype.join = function join(s) { return "joined" }`,
	} {
		eager := goja.New()
		if _, err := eager.RunString(change); err != nil {
			t.Fatal(err)
		}
		if err := verifyLazyPropsOn(goja.New(), eager, c); err == nil {
			t.Errorf("a reference changed by %s passes", change)
		}
	}
	made := goja.New()
	made.GlobalObject().Get("JSON")
	if err := verifyLazyPropsOn(made, goja.New(), c); err == nil {
		t.Error("a lazy runtime whose JSON is made passes")
	}
}
