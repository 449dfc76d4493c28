package core_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// deepParens is source nested 100,000 parentheses deep: goja's parser overflowed the Go stack on it and ended the
// process.
var deepParens = strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000)

// A worker whose script is nested too deeply is refused at Spawn, as a script that does not compile is, and the
// error says why (depthguard.IsTooDeep); nothing reached goja's parser.
func TestWorker_DeepSourceFailsSpawn(t *testing.T) {
	_, err := core.Spawn(deepParens, core.Options{})
	var syn *goja.CompilerSyntaxError
	if !errors.As(err, &syn) || !depthguard.IsTooDeep(err) {
		t.Fatalf("Spawn = %v, want the too-deep *goja.CompilerSyntaxError", err)
	}
}

// Inside a worker, eval, indirect eval and the Function constructors of source nested too deeply throw the catchable
// RangeError V8 throws, and the worker goes on.
func TestWorker_DeepSourceInScriptIsRangeError(t *testing.T) {
	w := spawn(t, `var src = "[".repeat(1e5) + "]".repeat(1e5);
		postMessage([() => eval(src), () => (0, eval)(src), () => new Function(src),
		             () => Object.getPrototypeOf(async function () {}).constructor(src)].map(function (f) {
			try { f(); return "none" } catch (e) { return e.name + ": " + e.message } }).join("|") + " " + (6 * 7));`,
		core.Options{})
	rt := goja.New()
	const want = "RangeError: Maximum call stack size exceeded"
	if got := recv(t, w, rt).String(); got != strings.Repeat(want+"|", 3)+want+" 42" {
		t.Fatalf("got %q", got)
	}
}

// A host realm's RunScript answers source nested too deeply with the realm's RangeError, and the realm goes on.
func TestHostRealm_DeepSourceIsRangeError(t *testing.T) {
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := core.HostRealmOf(rt)
	_, err = h.RunScript("deep.js", deepParens)
	var ex *goja.Exception
	if !errors.As(err, &ex) {
		t.Fatalf("RunScript = %v, want an exception", err)
	}
	isRange, _ := rt.RunString("(function (e) { return e instanceof RangeError && e.message })")
	f, _ := goja.AssertFunction(isRange)
	if v, _ := f(nil, ex.Value()); v == nil || v.String() != depthguard.Message {
		t.Fatalf("RunScript's exception is %v, want the RangeError %q", ex.Value(), depthguard.Message)
	}
	if v, err := h.RunScript("after.js", "6 * 7"); err != nil || v.ToInteger() != 42 {
		t.Fatalf("after: %v, %v", v, err)
	}
}
