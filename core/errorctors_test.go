package core_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// A worker's own errors (errorctors.go) are made with goja's own Error and RangeError, found when first needed: in a
// handler after the first, with both globals replaced, they are still of goja's classes, and setup has not made the
// global properties.

// ownCtors defines own(name): goja's own Error and RangeError, reached without the globals.
const ownCtors = `function own(name) {
	if (name === "RangeError") { try { new Array(-1) } catch (x) { return x.constructor } }
	return Object.getPrototypeOf(Object.getPrototypeOf(new TypeError("x"))).constructor;
}
function describe(e, name) {
	var C = own(name);
	return [e.constructor === C, e instanceof C, e.name, Object.prototype.toString.call(e), typeof e.message].join("/");
}
`

func TestErrorCtors_LateFirstUse(t *testing.T) {
	var pending [2]bool
	w := spawn(t, ownCtors+`var n = 0;
	onmessage = function () {
		if (++n === 1) {
			globalThis.Error = function Error() {}; globalThis.RangeError = function RangeError() {};
			postMessage("replaced");
			return;
		}
		var r = [];
		try { postMessage("x".repeat(1000)); r.push("sent") }
		catch (e) { r.push(describe(e, "RangeError"), e.message.indexOf("postMessage: ") === 0) }
		try { Atomics.load(new Int32Array(new SharedArrayBuffer(4)), 5); r.push("loaded") }
		catch (e) { r.push(describe(e, "RangeError")) }
		postMessage(r.join());
	}`, core.Options{
		Outbox: core.ChannelLimits{MaxFrameBytes: 256},
		Setup: func(_ *core.Worker, rt *goja.Runtime) error {
			g := rt.GlobalObject()
			pending = [2]bool{gojainternal.Pending(g, "Error"), gojainternal.Pending(g, "RangeError")}
			return nil
		},
	})
	rt := goja.New()
	post(t, w, rt, 1)
	if v := recv(t, w, rt); v.String() != "replaced" {
		t.Fatalf("first answer %v", v)
	}
	post(t, w, rt, 2)
	const want = "true/true/RangeError/[object Error]/string,true,true/true/RangeError/[object Error]/string"
	if v := recv(t, w, rt); v.String() != want {
		t.Errorf("got  %v\nwant %s", v, want)
	}
	if gojainternal.LazyProps() == nil && pending != [2]bool{true, true} {
		t.Errorf("after core's setup, the Error and RangeError globals pending = %v, want both", pending)
	}
}

// TestErrorCtors_ImportScripts: importScripts' NetworkError is an Error of goja's, with the global replaced.
func TestErrorCtors_ImportScripts(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.js")
	src := ownCtors + `globalThis.Error = function Error() {};
	try { importScripts("missing.js"); postMessage("imported") } catch (e) { postMessage(describe(e, "Error")) }`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := webWorkerAnswer(t, file), "true/true/NetworkError/[object Error]/string"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
