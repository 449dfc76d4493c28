package clone_test

import (
	"runtime"
	"testing"
	"time"
	"weak"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// The builtins structured clone captures leave no trace on the global
// object (no symbol-keyed property, nothing Reflect.ownKeys lists beyond a
// bare realm's), are found again by the next clone, and are forgotten by
// ReleaseRealm, after which the runtime can be collected.
func TestRealmStateIsOpaque(t *testing.T) {
	keys := func(rt *goja.Runtime) []any {
		return run(t, rt, `Reflect.ownKeys(globalThis).map(String)`).Export().([]any)
	}
	bare := map[string]bool{}
	for _, k := range keys(goja.New()) {
		bare[k.(string)] = true
	}
	var w weak.Pointer[goja.Runtime]
	func() {
		rt := goja.New()
		if err := clone.InstallStructuredClone(rt); err != nil {
			t.Fatal(err)
		}
		if err := clone.CaptureBuiltins(rt); err != nil {
			t.Fatal(err)
		}
		// Tampering after the capture changes nothing: the record is found
		// again, not captured anew.
		check(t, rt, goja.Undefined(), `Map.prototype.forEach = function () { throw new Error("tampered"); };
			structuredClone(new Map([[1, 2]])).get(1) === 2`)
		for _, k := range run(t, rt, `Object.getOwnPropertySymbols(globalThis).map(String)`).Export().([]any) {
			if !bare[k.(string)] {
				t.Errorf("the global object has the symbol key %s", k)
			}
		}
		for _, k := range keys(rt) {
			if name := k.(string); !bare[name] && name != "structuredClone" && name != "v" { // v: check's
				t.Errorf("unexpected global key %s", name)
			}
		}
		clone.ReleaseRealm(rt)
		clone.ReleaseRealm(rt) // twice: nothing
		w = weak.Make(rt)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for w.Value() != nil {
		if time.Now().After(deadline) {
			t.Fatal("the released runtime was not collected")
		}
		runtime.GC()
		runtime.Gosched()
	}
}
