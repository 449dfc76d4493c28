package core_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
)

// omitExt is the smallest Extension: it delivers nothing, ends the worker when its loop runs dry, and says whether
// the realm gets the web worker's own globals (core.WebGlobalsOmitter).
type omitExt struct{ omit bool }

func (omitExt) Setup(*core.Worker, *goja.Runtime) error { return nil }
func (omitExt) Accepting() bool                         { return false }
func (omitExt) Deliver(*clone.Frame) error              { return nil }
func (omitExt) Idle() bool                              { return false }
func (omitExt) Uncaught(core.ErrorRecord) bool          { return false }
func (omitExt) Builtin(string) (*goja.Object, bool)     { return nil, false }
func (omitExt) End()                                    {}
func (e omitExt) OmitWebGlobals() bool                  { return e.omit }

// TestWebGlobalsOmitter: an Extension that omits the web worker's own globals gets a realm without any of them
// (not even as names: the global's own names have none), and the rest of the globals in the order a web worker's
// realm has them less those; one that answers false gets them all, as a worker without an Extension does.
func TestWebGlobalsOmitter(t *testing.T) {
	const src = `const own = Object.getOwnPropertyNames(globalThis);
const web = ["self", "name", "postMessage", "close", "addEventListener", "removeEventListener", "onmessage", "onmessageerror"];
report(JSON.stringify({ have: web.filter((n) => own.includes(n) || n in globalThis),
	rest: own.filter((n) => !web.includes(n)).join() }));`
	run := func(ext core.Extension) (have []string, rest string) {
		t.Helper()
		got := make(chan string, 1)
		opts := core.Options{Extension: ext, Setup: func(w *core.Worker, rt *goja.Runtime) error {
			return rt.Set("report", func(s string) { got <- s })
		}}
		w := spawn(t, src, opts)
		var s string
		select {
		case s = <-got:
		case <-time.After(30 * time.Second):
			t.Fatal("the worker did not report")
		}
		var r struct {
			Have []string
			Rest string
		}
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatalf("report %q: %v", s, err)
		}
		w.Terminate()
		<-w.Done()
		return r.Have, r.Rest
	}
	haveOmit, restOmit := run(omitExt{omit: true})
	if len(haveOmit) != 0 {
		t.Errorf("omitting: the realm has %v", haveOmit)
	}
	haveKeep, restKeep := run(omitExt{omit: false})
	haveWeb, restWeb := run(nil)
	if len(haveKeep) != 8 || len(haveWeb) != 8 {
		t.Errorf("not omitting: the realm has %v; a web worker's %v; want all 8", haveKeep, haveWeb)
	}
	if restOmit != restWeb || restKeep != restWeb {
		t.Errorf("the other globals differ:\nomitting %s\nkeeping  %s\nweb      %s", restOmit, restKeep, restWeb)
	}
}
