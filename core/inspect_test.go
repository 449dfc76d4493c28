package core_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/internal/testsupport"
)

// cdp reads a session's messages until one satisfies match, failing after
// the generous test timeout.
func cdp(t *testing.T, s *inspector.Session, match func(m map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(long)
	for time.Now().Before(deadline) {
		msg, res := s.Next(time.Second)
		switch res {
		case inspector.PumpClosed:
			t.Fatal("session closed while waiting")
		case inspector.PumpMessage:
			var m map[string]any
			if err := json.Unmarshal(msg, &m); err != nil {
				t.Fatalf("bad JSON from the session: %s", msg)
			}
			if match(m) {
				return m
			}
		}
	}
	t.Fatal("no matching message")
	return nil
}

func response(id float64) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["id"] == id }
}

func event(method string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["method"] == method }
}

func TestWorker_InspectorSession(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `var secret = 41;
		onmessage = function (e) {
			console.log("got", e.data);
			if (e.data === "throw") throw new TypeError("inspected");
			postMessage(e.data);
		};`, core.Options{Name: "inspected", OnError: func(core.ErrorRecord) {}, Stdout: &testsupport.SyncBuffer{}})
	s, err := w.InspectorSession()
	if err != nil {
		t.Fatal(err)
	}
	s.Dispatch([]byte(`{"id":1,"method":"Runtime.enable"}`))
	created := cdp(t, s, event("Runtime.executionContextCreated"))
	ctx := created["params"].(map[string]any)["context"].(map[string]any)
	if ctx["id"] != float64(w.ID()) || ctx["name"] != "inspected" {
		t.Fatalf("context = %v", ctx)
	}
	cdp(t, s, response(1))

	s.Dispatch([]byte(`{"id":2,"method":"Runtime.evaluate","params":{"expression":"secret + 1"}}`))
	r := cdp(t, s, response(2))
	if v := r["result"].(map[string]any)["result"].(map[string]any)["value"]; v != float64(42) {
		t.Fatalf("evaluate = %v", r)
	}

	post(t, w, rt, "hello")
	recv(t, w, rt)
	ev := cdp(t, s, event("Runtime.consoleAPICalled"))
	if b, _ := json.Marshal(ev["params"]); !strings.Contains(string(b), `"hello"`) {
		t.Fatalf("consoleAPICalled = %s", b)
	}
	post(t, w, rt, "throw")
	ev = cdp(t, s, event("Runtime.exceptionThrown"))
	if b, _ := json.Marshal(ev["params"]); !strings.Contains(string(b), "inspected") {
		t.Fatalf("exceptionThrown = %s", b)
	}

	w.Terminate()
	join(t, w)
	for {
		if _, res := s.Next(long); res == inspector.PumpClosed {
			break
		}
	}
	<-s.Dropped()
	if n := s.HeldObjects(); n != 0 {
		t.Fatalf("%d objects still held after the worker ended", n)
	}
	if _, err := w.InspectorSession(); err == nil {
		t.Fatal("a session attached to an ended worker")
	}
	w.DetachInspectorSession(s)
}

func TestWorker_InspectorSessionDetach(t *testing.T) {
	w := spawn(t, `onmessage = function () {};`, core.Options{})
	a, _ := w.InspectorSession()
	b, _ := w.InspectorSession()
	a.Dispatch([]byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"({x: 1})","objectGroup":"g"}}`))
	cdp(t, a, response(1))
	if a.HeldObjects() != 1 {
		t.Fatalf("held = %d", a.HeldObjects())
	}
	w.DetachInspectorSession(a)
	select {
	case <-a.Dropped():
	case <-time.After(long):
		t.Fatal("detached session's objects were never dropped")
	}
	b.Dispatch([]byte(`{"id":7,"method":"Runtime.evaluate","params":{"expression":"2 * 21"}}`))
	if v := cdp(t, b, response(7))["result"].(map[string]any)["result"].(map[string]any)["value"]; v != float64(42) {
		t.Fatalf("second session: %v", v)
	}
	w.DetachInspectorSession(b)
	<-b.Dropped()
}
