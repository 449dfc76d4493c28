package core_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// jsonWork are JSON calls that run for seconds inside one native call, each after a setup that builds its input
// (and then calls ready()): a 100 MB text, a 10-million-element array written with space = 10, and a replacer list
// over a million objects. The checks are done by the builtins of internal/jsonbuiltin, which look at the realm's
// interrupt flag every few thousand steps.
var jsonWork = map[string]struct{ setup, call string }{
	"parse 100 MB":     {`var big = "[" + ('"' + "x".repeat(1000) + '",').repeat(100000) + "1]"`, `JSON.parse(big)`},
	"stringify spaced": {`var big = new Array(1e7)`, `JSON.stringify(big, null, 10)`},
	"replacer list":    {`var big = JSON.parse("[" + '{"a":1,"b":[1,2,3],"c":"x"},'.repeat(1e6) + "0]")`, `JSON.stringify(big, ["a", "b"])`},
}

// TerminateExecution and the time limit stop a host realm in the middle of a long JSON call: the entry reports the
// stop, no catch or finally runs, and the realm runs the next script.
func TestHostRealm_TerminateLongJSON(t *testing.T) {
	h, started := openRealm(t, core.HostRealmOptions{})
	for name, w := range jsonWork {
		t.Run(name, func(t *testing.T) {
			if _, err := h.RunScript("setup.js", w.setup); err != nil {
				t.Fatal(err)
			}
			runTerminated(t, h, started, name, `try { started(); `+w.call+`; globalThis.after = "returned" } catch (e) { globalThis.after = "caught" } finally { globalThis.fin = true }`)
			v, err := h.RunScript("next.js", `String(globalThis.after) + String(globalThis.fin) + JSON.stringify(JSON.parse("[6,7]"))`)
			if err != nil || v.String() != "undefinedundefined[6,7]" {
				t.Fatalf("the next script = %v, %v", v, err)
			}
		})
	}
	t.Run("time limit", func(t *testing.T) {
		if _, err := h.RunScript("setup.js", jsonWork["parse 100 MB"].setup); err != nil {
			t.Fatal(err)
		}
		h.SetExecutionTimeLimit(50*time.Millisecond, nil)
		defer h.ClearExecutionTimeLimit()
		start := time.Now()
		_, err := h.RunScript("limit.js", `JSON.parse(big); JSON.parse(big); JSON.parse(big)`)
		if !errors.Is(err, core.ErrExecutionTimeLimit) {
			t.Fatalf("RunScript = %v, want ErrExecutionTimeLimit", err)
		}
		t.Logf("a 50 ms limit stopped the parses after %v", time.Since(start))
	})
}

// runTerminated runs src in h, which calls started() when it is to be stopped, and stops it then from another
// goroutine: RunScript must report ErrExecutionTerminated within stopBound.
func runTerminated(t *testing.T, h *core.HostRealm, started <-chan struct{}, name, src string) {
	t.Helper()
	at := terminateWhenStarted(h, started)
	_, err := h.RunScript(name+".js", src)
	took := time.Since(<-at)
	if !errors.Is(err, core.ErrExecutionTerminated) {
		t.Fatalf("RunScript = %v, want ErrExecutionTerminated", err)
	}
	if took > stopBound {
		t.Fatalf("stopping took %v", took)
	}
	t.Logf("stopped %v after TerminateExecution", took)
}

// terminateWhenReady waits (up to ready) for wk's "ready", terminates it, and checks that it ended within stopBound
// without posting anything more.
func terminateWhenReady(t *testing.T, wk *core.Worker, ready time.Duration) {
	t.Helper()
	rt := goja.New()
	if v, err := wk.Receive(rt, ready); err != nil || v.String() != "ready" {
		t.Fatalf("got %v, %v", v, err)
	}
	at := time.Now()
	wk.Terminate()
	join(t, wk)
	took := time.Since(at)
	if took > stopBound {
		t.Fatalf("stopping took %v", took)
	}
	t.Logf("ended %v after Terminate", took)
	if v, err := wk.Receive(rt, 0); err == nil {
		t.Fatalf("the worker went on and posted %v", v)
	}
}

// Worker.Terminate stops a worker in the middle of a long JSON call.
func TestWorker_TerminateLongJSON(t *testing.T) {
	for name, w := range jsonWork {
		t.Run(name, func(t *testing.T) {
			// Building the input takes seconds, a minute under -race on a loaded machine: it is not what is measured.
			terminateWhenReady(t, spawn(t, w.setup+`; postMessage("ready"); `+w.call+`; postMessage("returned")`, core.Options{}), 5*time.Minute)
		})
	}
}

// A value nested too deeply for JSON.stringify (here 200,000 levels, which goja's own stringify took minutes over)
// throws the catchable RangeError at once, in a worker, and the worker goes on.
func TestWorker_DeepStringifyThrows(t *testing.T) {
	wk := spawn(t, `let o = {}; for (let i = 0; i < 2e5; i++) o = {o};
		let r; try { JSON.stringify(o); r = "returned" } catch (e) { r = e instanceof RangeError && e.message }
		postMessage(r + "|" + JSON.stringify({a: [1]}))`, core.Options{})
	rt := goja.New()
	v, err := wk.Receive(rt, 5*time.Minute) // building the chain is most of the time: seconds under load
	if err != nil || v.String() != "Maximum call stack size exceeded|{\"a\":[1]}" {
		t.Fatalf("got %v, %v", v, err)
	}
	wk.Terminate()
	join(t, wk)
}
