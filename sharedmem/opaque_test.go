package sharedmem

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// standardGlobals lists the own keys of the global object of a goja realm
// that ran the tests' harness (String of each: symbols are
// "Symbol(Symbol.toStringTag)" and the like).
func standardGlobals(t *testing.T) map[string]bool {
	t.Helper()
	rt := goja.New()
	keys := map[string]bool{}
	// Listed before and after the harness runs: goja lists only the names
	// added since if the global object's builtins were never listed.
	for _, src := range []string{"", harness} {
		v, err := rt.RunString(src + "\n" + `Reflect.ownKeys(globalThis).map(String)`)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range v.Export().([]any) {
			keys[k.(string)] = true
		}
	}
	return keys
}

// Install leaves no trace of its Go state on the global object: only the
// standard names SharedArrayBuffer and Atomics are added, no symbol beyond
// a bare realm's, and the state is still found from Go.
func TestInstallLeavesNoHiddenGlobals(t *testing.T) {
	std := standardGlobals(t)
	rt := newRealm(t, RealmOptions{})
	v := run(t, rt, `[Object.getOwnPropertySymbols(globalThis).map(String), Reflect.ownKeys(globalThis).map(String)]`)
	got := v.Export().([]any)
	for _, k := range got[0].([]any) {
		if !std[k.(string)] {
			t.Errorf("the global object has the symbol key %s", k)
		}
	}
	added := map[string]bool{"SharedArrayBuffer": true, "Atomics": true, "$detach": true} // $detach: newRealm's
	for _, k := range got[1].([]any) {
		if name := k.(string); !std[name] && !added[name] {
			t.Errorf("unexpected global %q", name)
		}
	}
	if realmOf(rt) == nil {
		t.Fatal("the realm's state is not found")
	}
	b, err := NewBlock(8, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if _, err := Wrap(rt, b); err != nil {
		t.Fatal(err)
	}
	// The realm's owner dropping every state of the runtime forgets it.
	realmdata.Drop(rt)
	if _, err := Wrap(rt, b); !errors.Is(err, ErrNotInstalled) {
		t.Fatalf("Wrap after realmdata.Drop: %v", err)
	}
}
