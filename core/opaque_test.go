package core_test

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
)

// globalSymbolsJS lists what a script sees of globalThis's symbol keys and of names of the library's own (any name
// with "jsworker" in it, such as the stack-depth guard once was), after touching every lazy global (so that the
// state they make on first use exists).
const globalSymbolsJS = `(function () {
	for (const k of Object.getOwnPropertyNames(globalThis)) { try { void globalThis[k]; } catch (e) {} }
	new MessageChannel(); new BroadcastChannel("opaque").close(); new TextDecoder(); new URL("file:///x");
	structuredClone(new SharedArrayBuffer(8));
	const wellKnown = (s) => Object.getOwnPropertyNames(Symbol).some((n) => Symbol[n] === s); // as Node's Symbol.toStringTag
	return Object.getOwnPropertySymbols(globalThis).concat(Reflect.ownKeys(globalThis).filter((k) => typeof k === "symbol"))
		.filter((s) => !wellKnown(s)).map(String)
		.concat(Object.getOwnPropertyNames(globalThis).filter((k) => /jsworker/i.test(k))).join(",");
})()`

// TestOpaqueState_Worker: a worker realm shows scripts no state of the library: no symbol-keyed global, and no Go
// object of the library reachable from globalThis.
func TestOpaqueState_Worker(t *testing.T) {
	var found []string
	w := spawn(t, `postMessage(`+globalSymbolsJS+`);`, core.Options{})
	rt := goja.New()
	if v := recv(t, w, rt); v.String() != "" {
		t.Fatalf("symbol-keyed or library-named globals visible to the worker's script: %s", v)
	}
	done := make(chan struct{})
	w.RunOnLoop(func(rt *goja.Runtime) { found = testsupport.LibraryState(rt); close(done) })
	<-done
	if len(found) > 0 {
		t.Fatalf("library state reachable from the worker's globalThis:\n%s", strings.Join(found, "\n"))
	}
}

// TestOpaqueState_HostRealm: the same for a host's own realm (a main context).
func TestOpaqueState_HostRealm(t *testing.T) {
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer core.HostLoopOf(rt).Close()
	v, err := rt.RunString(globalSymbolsJS)
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != "" {
		t.Fatalf("symbol-keyed or library-named globals visible to a host realm's script: %s", v)
	}
	if found := testsupport.LibraryState(rt); len(found) > 0 {
		t.Fatalf("library state reachable from a host realm's globalThis:\n%s", strings.Join(found, "\n"))
	}
}
