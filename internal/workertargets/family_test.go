package workertargets_test

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/inspector/devtools"
	"github.com/jsworker/jsworker/internal/workertargets"
)

// until reads s until a message satisfies match.
func until(t *testing.T, s devtools.Session, match func(m map[string]any) bool) map[string]any {
	t.Helper()
	for {
		msg, r := s.Next(20 * time.Second)
		if r != inspector.PumpMessage {
			t.Fatalf("Next: %v", r)
		}
		var m map[string]any
		if err := json.Unmarshal(msg, &m); err != nil {
			t.Fatalf("bad JSON %s", msg)
		}
		if match(m) {
			return m
		}
	}
}

// attachedProgram spawns a worker running src and returns a session attached to it as its program's target; the
// session is closed and the worker ended when the test ends.
func attachedProgram(t *testing.T, src string) devtools.Session {
	t.Helper()
	w, err := core.Spawn(src, core.Options{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		w.Terminate()
		_ = w.Join(20 * time.Second)
		w.Release()
	})
	s, err := workertargets.Provider{Main: w.ID()}.Attach(workertargets.Key(w.ID()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func isID(id float64) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["id"] == id }
}

// A program's session holds its new workers while Target auto-attach asks to; closing the session releases the
// worker it held and drops the hold (the next worker runs at once), and leaves no goroutine behind (goleak).
func TestFamily_CloseReleasesHeldChild(t *testing.T) {
	kid := filepath.Join(t.TempDir(), "kid.js")
	if err := os.WriteFile(kid, []byte("postMessage('ran');\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parent, err := core.Spawn("globalThis.start = (u) => { const w = new Worker(u); w.onmessage = (e) => console.log(e.data); };\n"+
		"setInterval(() => {}, 1000);\n", core.Options{Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		parent.Terminate()
		_ = parent.Join(20 * time.Second)
		parent.Release()
	}()
	logged := make(chan string, 4)
	stop := parent.Observe(&core.Observer{Console: func(_ *goja.Runtime, _ string, args []goja.Value) {
		logged <- args[0].String()
	}})
	defer stop()

	p := workertargets.Provider{Main: parent.ID()}
	s, err := p.Attach(workertargets.Key(parent.ID()))
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Dispatch([]byte(`{"id":1,"method":"Target.setAutoAttach","params":{"autoAttach":true,"waitForDebuggerOnStart":true}}`))
	until(t, s, isID(1))
	url, _ := json.Marshal("file://" + kid)
	_ = s.Dispatch([]byte(`{"id":2,"method":"Runtime.evaluate","params":{"expression":"start(` + strings.ReplaceAll(string(url), `"`, `\"`) + `)"}}`))
	att := until(t, s, func(m map[string]any) bool { return m["method"] == "Target.attachedToTarget" })
	if att["params"].(map[string]any)["waitingForDebugger"] != true {
		t.Fatalf("attached: %v", att)
	}
	select {
	case m := <-logged:
		t.Fatalf("a held worker ran: %q", m)
	default:
	}
	s.Close()
	for {
		if _, r := s.Next(20 * time.Second); r == inspector.PumpClosed {
			break
		} else if r == inspector.PumpTimeout {
			t.Fatal("the closed session never reported PumpClosed")
		}
	}
	select {
	case m := <-logged:
		if m != "ran" {
			t.Fatalf("logged %q", m)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the held worker was not released when its session closed")
	}

	// No hold is left: a session that never asked for one sees the next worker run.
	s2, err := p.Attach(workertargets.Key(parent.ID()))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	_ = s2.Dispatch([]byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"start(` + strings.ReplaceAll(string(url), `"`, `\"`) + `)"}}`))
	until(t, s2, isID(1))
	select {
	case m := <-logged:
		if m != "ran" {
			t.Fatalf("logged %q", m)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a worker started after the session closed is still held")
	}
}

// The family answers bad parameters with -32602 and unknown flat sessions with -32001, and lists its child
// protocol's methods.
func TestFamily_Errors(t *testing.T) {
	s := attachedProgram(t, "setInterval(() => {}, 1000);")
	for i, c := range []struct{ msg, want string }{
		{`{"id":1,"method":"Target.setAutoAttach","params":{}}`, `-32602`},
		{`{"id":2,"method":"Target.setAutoAttach","params":{"autoAttach":"yes"}}`, `-32602`},
		{`{"id":3,"method":"Target.detachFromTarget","params":{"sessionId":"X"}}`, `No session with given id`},
		{`{"id":4,"method":"Target.attachToTarget","params":{"targetId":"worker-0"}}`, `No target with given id found`},
		{`{"id":5,"sessionId":"X","method":"Runtime.evaluate","params":{"expression":"1"}}`, `-32001`},
		{`{"id":6,"method":"Target.getTargets"}`, `"targetInfos":[]`},
		{`{"id":7,"method":"NodeWorker.detach","params":{"sessionId":"9"}}`, `"result":{}`},
	} {
		_ = s.Dispatch([]byte(c.msg))
		m := until(t, s, isID(float64(i+1)))
		b, _ := json.Marshal(m)
		if !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %s, want %s", c.msg, b, c.want)
		}
	}
	if len(workertargets.ChildMethods) != 11 || len(workertargets.ChildEvents) != 7 {
		t.Errorf("ChildMethods %v, ChildEvents %v", workertargets.ChildMethods, workertargets.ChildEvents)
	}
}
