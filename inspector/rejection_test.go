package inspector

import (
	"testing"

	"github.com/dop251/goja"
)

// TestDebugger_Rejected: with pause on uncaught exceptions, Promise.reject()
// and an executor's reject() pause with reason "promiseRejection" in the
// function that rejected; the rejection of an async function whose throw
// already paused does not pause again; with "none" nothing pauses.
func TestDebugger_Rejected(t *testing.T) {
	lt := newLoopTarget(t, 0)
	lt.do(func(rt *goja.Runtime) {
		rt.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
			if op == goja.PromiseRejectionReject {
				lt.dbg.Rejected(p)
			}
		})
	})
	s := lt.attach()
	next(t, s)
	lt.start(t, `function viaStatic() {
  Promise.reject(new Error("static"));
}
function viaExecutor() {
  return new Promise(function exec(res, rej) {
    rej(7);
  });
}
async function viaAsync() {
  throw new Error("async");
}`)
	dispatch(t, s, `{"id":1,"method":"Debugger.enable"}`)
	answerTo(t, s, 1)
	dispatch(t, s, `{"id":2,"method":"Debugger.setPauseOnExceptions","params":{"state":"uncaught"}}`)
	answerTo(t, s, 2)

	for i, c := range []struct{ call, fn, data string }{
		{"viaStatic()", "viaStatic", "Error"},
		{"viaExecutor()", "exec", "7"},
	} {
		lt.Run(func(rt *goja.Runtime) { _, _ = rt.RunString(c.call) })
		p := nextPaused(t, s)
		frame := field(p, "params", "callFrames").([]any)[0].(map[string]any)
		data := field(p, "params", "data").(map[string]any)
		got := data["className"]
		if got == nil {
			got = data["description"]
		}
		if field(p, "params", "reason") != "promiseRejection" || frame["functionName"] != c.fn || got != c.data {
			t.Fatalf("%s: paused %v", c.call, p)
		}
		dispatch(t, s, `{"id":%d,"method":"Debugger.resume"}`, 10+i)
		answerTo(t, s, 10+i)
	}

	// The async function's throw pauses once, at the throw statement.
	lt.Run(func(rt *goja.Runtime) { _, _ = rt.RunString("viaAsync()") })
	p := nextPaused(t, s)
	if field(p, "params", "reason") != "promiseRejection" || field(p, "params", "data", "className") != "Error" {
		t.Fatalf("viaAsync: paused %v", p)
	}
	if line := field(p, "params", "callFrames").([]any)[0].(map[string]any)["location"].(map[string]any)["lineNumber"]; line != float64(9) {
		t.Fatalf("viaAsync paused at line %v, want 9 (the throw)", line)
	}
	dispatch(t, s, `{"id":20,"method":"Debugger.resume"}`)
	answerTo(t, s, 20)
	dispatch(t, s, `{"id":21,"method":"Runtime.evaluate","params":{"expression":"1"}}`)
	for m := next(t, s); m["id"] != float64(21); m = next(t, s) {
		if m["method"] == "Debugger.paused" {
			t.Fatalf("second pause for the async rejection: %v", m)
		}
	}

	dispatch(t, s, `{"id":22,"method":"Debugger.setPauseOnExceptions","params":{"state":"none"}}`)
	answerTo(t, s, 22)
	dispatch(t, s, `{"id":23,"method":"Runtime.evaluate","params":{"expression":"viaStatic(), viaExecutor(), 2"}}`)
	for m := next(t, s); m["id"] != float64(23); m = next(t, s) {
		if m["method"] == "Debugger.paused" {
			t.Fatalf("paused with state none: %v", m)
		}
	}
}
