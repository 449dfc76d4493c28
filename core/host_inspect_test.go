package core_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/jsworker/jsworker/internal/testsupport"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
)

// hostClient is a CDP client of a host realm's session that may run on any
// goroutine: it reports failures as errors, not through t.
type hostClient struct {
	s  *inspector.Session
	id int
}

func (c *hostClient) dispatch(method, params string) (int, error) {
	c.id++
	if params == "" {
		params = "{}"
	}
	return c.id, c.s.Dispatch(fmt.Appendf(nil, `{"id":%d,"method":%q,"params":%s}`, c.id, method, params))
}

// wait returns the next message that matches, skipping others.
func (c *hostClient) wait(match func(map[string]any) bool) (map[string]any, error) {
	deadline := time.Now().Add(long)
	for time.Now().Before(deadline) {
		msg, r := c.s.Next(time.Second)
		switch r {
		case inspector.PumpClosed:
			return nil, errors.New("session closed while waiting")
		case inspector.PumpMessage:
			var m map[string]any
			if err := json.Unmarshal(msg, &m); err != nil {
				return nil, fmt.Errorf("bad JSON %s", msg)
			}
			if match(m) {
				return m, nil
			}
		}
	}
	return nil, errors.New("timed out waiting for a message")
}

// call dispatches a command and waits for its result; the owner must be
// serving the realm (paused, or in RunPending) unless serve is given, which
// runs the queued command on the calling goroutine (the owner's).
func (c *hostClient) call(method, params string, serve func()) (map[string]any, error) {
	id, err := c.dispatch(method, params)
	if err != nil {
		return nil, err
	}
	if serve != nil {
		serve()
	}
	m, err := c.wait(response(float64(id)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	r, _ := m["result"].(map[string]any)
	if r == nil {
		return nil, fmt.Errorf("%s failed: %v", method, m)
	}
	return r, nil
}

// TestHostRealm_DebugThroughGoAPI: a Go host debugs its own realm with the Go
// API only — a session, a breakpoint, a pause inside RunScript, an
// evaluation on the paused frame that changes a local, a resume — and the
// realm is listed for DevTools endpoints while inspectable.
func TestHostRealm_DebugThroughGoAPI(t *testing.T) {
	h, err := core.OpenHostRealm(core.HostRealmOptions{Stdout: &testsupport.SyncBuffer{}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.SetInspectable(true); err != nil {
		t.Fatal(err)
	}
	if !h.Inspectable() {
		t.Fatal("not inspectable after SetInspectable(true)")
	}
	if _, ok := core.LookupHostRealm(h.TargetID()); !ok {
		t.Fatal("an inspectable host realm is not listed")
	}
	s, err := h.InspectorSession()
	if err != nil {
		t.Fatal(err)
	}
	defer h.DetachInspectorSession(s)
	c := &hostClient{s: s}

	// Set-up on the owner's goroutine: each command runs in ServeInspector.
	if _, err := c.call("Runtime.enable", "", h.ServeInspector); err != nil {
		t.Fatal(err)
	}
	if _, err := c.call("Debugger.enable", "", h.ServeInspector); err != nil {
		t.Fatal(err)
	}
	bp, err := c.call("Debugger.setBreakpointByUrl", `{"url":"host.js","lineNumber":2}`, h.ServeInspector)
	if err != nil {
		t.Fatal(err)
	}
	if bp["breakpointId"] == nil {
		t.Fatalf("no breakpointId: %v", bp)
	}

	// The client runs on its own goroutine, as DevTools would: it waits for the
	// pause, evaluates on the top frame, writes a local and resumes.
	type result struct {
		line  float64
		value any
		err   error
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() { done <- res }()
		m, err := c.wait(event("Debugger.paused"))
		if err != nil {
			res.err = err
			return
		}
		top := m["params"].(map[string]any)["callFrames"].([]any)[0].(map[string]any)
		res.line = top["location"].(map[string]any)["lineNumber"].(float64)
		frame := top["callFrameId"].(string)
		r, err := c.call("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":"x * 10","returnByValue":true}`, frame), nil)
		if err != nil {
			res.err = err
			return
		}
		res.value = r["result"].(map[string]any)["value"]
		if _, err := c.call("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":"x = 7"}`, frame), nil); err != nil {
			res.err = err
			return
		}
		if _, err := c.call("Debugger.resume", "", nil); err != nil {
			res.err = err
		}
	}()
	v, err := h.RunScript("host.js", "function f(a) {\n  var x = a + 1;\n  return x * 2;\n}\nf(4);")
	if err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.line != 2 {
		t.Fatalf("paused at line %v, want 2", res.line)
	}
	if res.value != float64(50) {
		t.Fatalf("x * 10 on the paused frame = %v, want 50", res.value)
	}
	if v.ToInteger() != 14 {
		t.Fatalf("the script returned %v, want 14 (the evaluation wrote x = 7)", v)
	}

	// A command from another goroutine while the owner waits in RunPending
	// runs there.
	h.Runtime().Set("secret", 41)
	mustRun(t, h, `var tick = setInterval(function () {}, 5);`) // keeps RunPending waiting
	answered := make(chan error, 1)
	go func() {
		r, err := c.call("Runtime.evaluate", `{"expression":"secret + 1","returnByValue":true}`, nil)
		if err == nil && r["result"].(map[string]any)["value"] != float64(42) {
			err = fmt.Errorf("evaluate = %v", r)
		}
		answered <- err
	}()
	deadline := time.Now().Add(long)
	for waiting := true; waiting; {
		h.RunPending(50 * time.Millisecond)
		select {
		case err := <-answered:
			if err != nil {
				t.Fatal(err)
			}
			waiting = false
		default:
			if time.Now().After(deadline) {
				t.Fatal("the command never ran in RunPending")
			}
		}
	}
	mustRun(t, h, `clearInterval(tick)`)

	// Uninspectable: unlisted, scripts run plain, the session stays.
	if err := h.SetInspectable(false); err != nil {
		t.Fatal(err)
	}
	if _, ok := core.LookupHostRealm(h.TargetID()); ok {
		t.Fatal("still listed after SetInspectable(false)")
	}
	if v := mustRun(t, h, "debugger; 3"); v != "3" {
		t.Fatalf("plain script = %v", v)
	}

	// Close tells the session and unlists the realm for good.
	h.Close()
	if _, err := c.wait(event("Inspector.detached")); err != nil {
		t.Fatal(err)
	}
	if _, err := h.InspectorSession(); !errors.Is(err, core.ErrClosed) {
		t.Fatalf("InspectorSession after Close: %v", err)
	}
	if err := h.SetInspectable(true); !errors.Is(err, core.ErrClosed) {
		t.Fatalf("SetInspectable after Close: %v", err)
	}
	for _, info := range core.LiveHostRealms() {
		if info.Realm == h {
			t.Fatal("a closed realm is listed")
		}
	}
}

func mustRun(t *testing.T, h *core.HostRealm, src string) string {
	t.Helper()
	v, err := h.RunScript("run.js", src)
	if err != nil {
		t.Fatal(err)
	}
	return v.String()
}

// TestHostRealm_ConsoleToSessions: console calls of a host realm reach its
// sessions (Runtime.consoleAPICalled) and then HostRealmOptions.OnConsole.
func TestHostRealm_ConsoleToSessions(t *testing.T) {
	var seen []string
	h, err := core.OpenHostRealm(core.HostRealmOptions{
		Stdout:    &testsupport.SyncBuffer{},
		Stderr:    &testsupport.SyncBuffer{},
		OnConsole: func(level string, args []goja.Value) { seen = append(seen, level) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s, err := h.InspectorSession()
	if err != nil {
		t.Fatal(err)
	}
	c := &hostClient{s: s}
	if _, err := c.call("Runtime.enable", "", h.ServeInspector); err != nil {
		t.Fatal(err)
	}
	mustRun(t, h, `console.warn("to the session", 1)`)
	m, err := c.wait(event("Runtime.consoleAPICalled"))
	if err != nil {
		t.Fatal(err)
	}
	if p := m["params"].(map[string]any); p["type"] != "warning" || !strings.Contains(fmt.Sprint(p["args"]), "to the session") {
		t.Fatalf("consoleAPICalled = %v", p)
	}
	if len(seen) != 1 || seen[0] != "warn" {
		t.Fatalf("OnConsole saw %v", seen)
	}
	h.DetachInspectorSession(s)
	mustRun(t, h, `console.log("after detach")`)
	if msg, r := s.Next(0); r == inspector.PumpMessage && strings.Contains(string(msg), "after detach") {
		t.Fatal("a detached session still gets console calls")
	}
}

// TestHostRealm_NoStateOnGlobal: HostRealmOf finds the realm from its
// runtime without a property a script could list or call.
func TestHostRealm_NoStateOnGlobal(t *testing.T) {
	h, err := core.OpenHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if core.HostRealmOf(h.Runtime()) != h || core.HostLoopOf(h.Runtime()) != h {
		t.Fatal("HostRealmOf does not find the realm")
	}
	if core.HostRealmOf(goja.New()) != nil {
		t.Fatal("HostRealmOf found a realm for a plain runtime")
	}
	// No own property of the global object (symbol-keyed ones included) is
	// the realm: nothing a script lists has the realm's methods.
	got := mustRun(t, h, `Reflect.ownKeys(globalThis).filter(function (k) {
		var v = globalThis[k];
		return v !== null && typeof v === "object" && (typeof v.RunPending === "function" || typeof v.Close === "function");
	}).map(String).join()`)
	if got != "" {
		t.Fatalf("the global object exposes the host realm under %s", got)
	}
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	old := core.HostLoopOf(rt)
	if old == nil || old.Runtime() != rt {
		t.Fatal("HostLoopOf does not find a NewHostRealm realm")
	}
	old.Close()
}
