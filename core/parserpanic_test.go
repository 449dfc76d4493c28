package core_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// panicSource is text on which goja's parser panics (found by inspector.FuzzInstrument).
const panicSource = "function e,b,p={f r)on* take(it, n) { for (const v of it) { if (n-- <= 0) return; yield v; } }\n" +
	"function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }\n" +
	"console.log([...range(0, 10, 3)], [...take("

// Through the Go API, text goja's parser panics on is a SyntaxError wherever a host or a script compiles it:
// HostRealm.RunScript (plain and inspectable) returns goja's SyntaxError exception and the realm goes on; eval,
// indirect eval and Function inside it throw a catchable SyntaxError; a worker's script catches the same and
// importScripts of such a file throws one; Spawn refuses such a main script with a syntax error.
func TestParserPanicIsASyntaxError(t *testing.T) {
	for _, inspectable := range []bool{false, true} {
		t.Run("inspectable="+strconv.FormatBool(inspectable), func(t *testing.T) {
			rt, h := hostRealmFor(t, inspectable)
			_, err := h.RunScript("panic.js", panicSource)
			var ex *goja.Exception
			if !errors.As(err, &ex) {
				t.Fatalf("RunScript: %T %v, want a *goja.Exception", err, err)
			}
			rt.Set("thrown", ex.Value())
			rt.Set("src", panicSource)
			v, err := h.RunScript("check.js", `[thrown instanceof SyntaxError, String(thrown.message).includes("the parser failed"),
				...[() => eval(src), () => (0, eval)(src), () => Function(src)].map(f => {
					try { f(); return "none" } catch (e) { return e instanceof SyntaxError } })].join()`)
			if err != nil {
				t.Fatal(err)
			}
			if got := v.String(); got != "true,true,true,true,true" {
				t.Fatalf("got %s", got)
			}
		})
	}

	t.Run("web worker", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "bad.js"), []byte(panicSource), 0o644); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "w.js")
		if err := os.WriteFile(file, []byte(`var src = `+strconv.Quote(panicSource)+`;
			var r = [];
			try { eval(src); r.push("none") } catch (e) { r.push(e instanceof SyntaxError) }
			try { importScripts("bad.js"); r.push("none") } catch (e) { r.push(e.name) }
			postMessage(r.join())`), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := webWorkerAnswer(t, file); got != "true,SyntaxError" {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("main script", func(t *testing.T) {
		_, err := core.Spawn(panicSource, core.Options{})
		var se *goja.CompilerSyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("Spawn: %T %v, want a *goja.CompilerSyntaxError", err, err)
		}
	})
}

// webWorkerAnswer starts the web Worker of file from a host realm and runs the realm's loop until it is dry (within a
// minute): the worker's first message, or "error " and the message of its uncaught error.
func webWorkerAnswer(t *testing.T, file string) string {
	t.Helper()
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loop := core.HostLoopOf(rt)
	defer loop.Close()
	rt.Set("file", file)
	if _, err := rt.RunString(`var got = ""; var w = new Worker(file);
		w.onmessage = function (e) { got = e.data; w.terminate(); };
		w.onerror = function (e) { got = "error " + e.message; w.terminate(); };`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for loop.RunPending(time.Second) {
		if time.Now().After(deadline) {
			t.Fatal("the loop never ran dry")
		}
	}
	return rt.Get("got").String()
}

// hostRealmFor makes a host realm, inspectable (scripts compiled by the debugger's instrumenter) or plain, whose
// loop is closed when the test ends.
func hostRealmFor(t *testing.T, inspectable bool) (*goja.Runtime, *core.HostRealm) {
	t.Helper()
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.HostLoopOf(rt).Close() })
	h := core.HostRealmOf(rt)
	if inspectable {
		if err := h.SetInspectable(true); err != nil {
			t.Fatal(err)
		}
	}
	return rt, h
}
