package devtools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector/devtools"
	"github.com/jsworker/jsworker/internal/testsupport"
	"github.com/jsworker/jsworker/internal/workertargets"
)

// long bounds every wait in these tests; none of them should come close.
const long = 20 * time.Second

// TestMain fails the run if a test leaves a goroutine behind: every worker
// ended, every server closed, every WebSocket handler returned.
func TestMain(m *testing.M) { testsupport.Main(m) }

// spawn starts an inspectable worker that the test releases.
func spawn(t *testing.T, src string, name string) *core.Worker {
	t.Helper()
	w, err := core.Spawn(src, core.Options{Name: name, Filename: "/srv/app/" + name + ".js", Inspectable: true,
		Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Release)
	return w
}

// listen starts an endpoint on a free loopback port for p.
func listen(t *testing.T, p devtools.Provider) *devtools.Server {
	t.Helper()
	s, err := devtools.Listen(devtools.Config{Addr: "127.0.0.1:0", Provider: p, Browser: "jsworker/test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// get fetches path from s with the given Host header ("" keeps the default).
func get(t *testing.T, s *devtools.Server, path, host string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+s.Addr()+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	c := &http.Client{Timeout: long}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	c.CloseIdleConnections()
	return resp.StatusCode, b
}

type entry struct {
	Description, DevtoolsFrontendURL, ID, Title, Type, URL, WebSocketDebuggerURL string
}

func (e *entry) UnmarshalJSON(b []byte) error {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*e = entry{m["description"], m["devtoolsFrontendUrl"], m["id"], m["title"], m["type"], m["url"],
		m["webSocketDebuggerUrl"]}
	return nil
}

// waitListed polls /json/list until it has n entries: a worker is listed once
// its thread starts, just after Spawn returns.
func waitListed(t *testing.T, s *devtools.Server, n int) []entry {
	t.Helper()
	deadline := time.Now().Add(long)
	for {
		code, body := get(t, s, "/json/list", "")
		if code != http.StatusOK {
			t.Fatalf("/json/list: %d %s", code, body)
		}
		var list []entry
		if err := json.Unmarshal(body, &list); err != nil {
			t.Fatalf("/json/list: %v in %s", err, body)
		}
		if len(list) == n {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("/json/list has %d entries, want %d: %s", len(list), n, body)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestListen_RefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", "192.0.2.1:0", "example.com:0", ":0x"} {
		_, err := devtools.Listen(devtools.Config{Addr: addr, Provider: workertargets.Provider{}})
		if err == nil {
			t.Errorf("Listen(%q) succeeded", addr)
		}
	}
	_, err := devtools.Listen(devtools.Config{Addr: "0.0.0.0:0", Provider: workertargets.Provider{}})
	if err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("Listen(0.0.0.0) = %v, want an error naming loopback", err)
	}
	for _, addr := range []string{"localhost:0", ":0", "127.0.0.2:0"} {
		s, err := devtools.Listen(devtools.Config{Addr: addr, Provider: workertargets.Provider{}})
		if err != nil {
			t.Errorf("Listen(%q): %v", addr, err)
			continue
		}
		if !strings.HasPrefix(s.Addr(), "127.") {
			t.Errorf("Listen(%q) listens on %s", addr, s.Addr())
		}
		_ = s.Close()
	}
}

func TestJSONList(t *testing.T) {
	main := spawn(t, `var x = 1;`, "main")
	other := spawn(t, `var y = 2;`, "helper")
	s := listen(t, workertargets.Provider{Main: main.ID()})
	list := waitListed(t, s, 2)

	m, o := list[0], list[1]
	if m.Type != "node" || m.Title != "main.js" || m.URL != "file:///srv/app/main.js" {
		t.Errorf("main entry %+v", m)
	}
	if want := s.WebSocketURL(workertargets.Key(main.ID())); m.WebSocketDebuggerURL != want {
		t.Errorf("main webSocketDebuggerUrl %q, want %q", m.WebSocketDebuggerURL, want)
	}
	if o.Title != fmt.Sprintf("worker %d: helper", other.ID()) || o.Type != "node" {
		t.Errorf("worker entry %+v", o)
	}
	if len(m.ID) != 36 || m.ID == o.ID || !strings.HasSuffix(m.WebSocketDebuggerURL, "/"+m.ID) {
		t.Errorf("ids %q %q", m.ID, o.ID)
	}
	wantFront := "devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=" + s.Addr() + "/" + m.ID
	if m.DevtoolsFrontendURL != wantFront {
		t.Errorf("devtoolsFrontendUrl %q, want %q", m.DevtoolsFrontendURL, wantFront)
	}

	// /json is /json/list; the ids are stable.
	_, body := get(t, s, "/json", "")
	var again []entry
	if err := json.Unmarshal(body, &again); err != nil || len(again) != 2 || again[0].ID != m.ID {
		t.Errorf("/json: %v %s", err, body)
	}

	// A non-inspectable worker is not listed.
	plain, err := core.Spawn(`1`, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Release()
	if _, ok := core.LookupWorker(plain.ID()); ok {
		waitListed(t, s, 2)
	}

	// An ended worker leaves the list.
	other.Release()
	waitListed(t, s, 1)
}

func TestJSONVersionAndProtocol(t *testing.T) {
	s := listen(t, workertargets.Provider{})
	code, body := get(t, s, "/json/version", "")
	var v map[string]string
	if err := json.Unmarshal(body, &v); code != 200 || err != nil {
		t.Fatalf("/json/version: %d %v %s", code, err, body)
	}
	if v["Browser"] != "jsworker/test" || v["Protocol-Version"] != "1.1" {
		t.Errorf("/json/version: %s", body)
	}

	code, body = get(t, s, "/json/protocol", "")
	var p struct {
		Version struct{ Major, Minor string }
		Domains []struct {
			Domain   string
			Commands []struct{ Name string }
			Events   []struct{ Name string }
		}
	}
	if err := json.Unmarshal(body, &p); code != 200 || err != nil {
		t.Fatalf("/json/protocol: %d %v", code, err)
	}
	has := map[string]bool{}
	for _, d := range p.Domains {
		for _, c := range d.Commands {
			has[d.Domain+"."+c.Name] = true
		}
		for _, e := range d.Events {
			has[d.Domain+"."+e.Name] = true
		}
	}
	for _, name := range []string{"Runtime.evaluate", "Debugger.setBreakpointByUrl", "Debugger.paused",
		"Runtime.runIfWaitingForDebugger", "Inspector.detached", "HeapProfiler.takeHeapSnapshot"} {
		if !has[name] {
			t.Errorf("/json/protocol lacks %s", name)
		}
	}
	if has["Page.navigate"] {
		t.Errorf("/json/protocol lists an unimplemented method")
	}
}

func TestHostHeader(t *testing.T) {
	s := listen(t, workertargets.Provider{})
	port := s.Port()
	for host, want := range map[string]int{
		fmt.Sprintf("127.0.0.1:%d", port):        200,
		fmt.Sprintf("localhost:%d", port):        200,
		"LOCALHOST":                              200,
		fmt.Sprintf("[::1]:%d", port):            200,
		"10.1.2.3":                               200, // an IP address cannot be rebound
		fmt.Sprintf("evil.example:%d", port):     403,
		"localhost.evil.example":                 403,
		fmt.Sprintf("127.0.0.1.nip.io:%d", port): 403,
	} {
		if code, body := get(t, s, "/json/list", host); code != want {
			t.Errorf("Host %q: %d %s, want %d", host, code, body, want)
		}
	}
}

func TestBadRequests(t *testing.T) {
	w := spawn(t, `1`, "w")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	if code, _ := get(t, s, "/00000000-0000-4000-8000-000000000000", ""); code != http.StatusNotFound {
		t.Errorf("unknown id: %d", code)
	}
	if code, body := get(t, s, "/"+list[0].ID, ""); code != http.StatusBadRequest {
		t.Errorf("GET without upgrade: %d %s", code, body)
	}
	if code, _ := get(t, s, "/json/nope", ""); code != http.StatusNotFound {
		t.Errorf("/json/nope: %d", code)
	}
	resp, err := http.Post("http://"+s.Addr()+"/json/list", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", resp.StatusCode)
	}
}

// client is the shared CDP test client (internal/testsupport) with the short names these tests use; c is its
// connection, for the tests of the transport itself.
type client struct {
	*testsupport.CDPClient
	c *websocket.Conn
}

func dial(t *testing.T, url string) *client {
	t.Helper()
	tc := testsupport.DialCDP(t, url)
	return &client{tc, tc.Conn()}
}

func (c *client) send(msg string) { c.Send(msg) }

// until reads messages until one satisfies match.
func (c *client) until(match func(m map[string]any) bool) map[string]any {
	return c.Until(func(m testsupport.Message) bool { return match(m) })
}

func id(n float64) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["id"] == n }
}

func method(name string) func(map[string]any) bool {
	return func(m map[string]any) bool { return m["method"] == name }
}

func TestWebSocketSession(t *testing.T) {
	w := spawn(t, `var secret = 41; onmessage = (e) => console.log("got", e.data);`, "ws")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	c := dial(t, list[0].WebSocketDebuggerURL)

	c.send(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"secret + 1"}}`)
	r := c.until(id(1))
	res := r["result"].(map[string]any)["result"].(map[string]any)
	if res["value"] != 42.0 {
		t.Errorf("evaluate: %v", r)
	}

	// Events flow: Runtime.enable, then a console call in the worker.
	c.send(`{"id":2,"method":"Runtime.enable"}`)
	c.until(id(2))
	host := goja.New()
	if err := w.PostMessage(host, host.ToValue("hello")); err != nil {
		t.Fatal(err)
	}
	ev := c.until(method("Runtime.consoleAPICalled"))
	args := ev["params"].(map[string]any)["args"].([]any)
	if args[1].(map[string]any)["value"] != "hello" {
		t.Errorf("console event %v", ev)
	}

	// Errors are answered, the session goes on.
	c.send(`not json`)
	c.until(func(m map[string]any) bool { return m["error"] != nil })
	c.send(`{"id":3,"method":"Page.navigate"}`)
	if e := c.until(id(3)); e["error"].(map[string]any)["code"] != -32601.0 {
		t.Errorf("unknown method: %v", e)
	}

	// Two clients at once, each its own session.
	c2 := dial(t, list[0].WebSocketDebuggerURL)
	c2.send(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"secret = 1"}}`)
	c2.until(id(1))
	c.send(`{"id":4,"method":"Runtime.evaluate","params":{"expression":"secret"}}`)
	if v := c.until(id(4))["result"].(map[string]any)["result"].(map[string]any)["value"]; v != 1.0 {
		t.Errorf("secret = %v", v)
	}
}

func TestWebSocket_TargetEnds(t *testing.T) {
	w := spawn(t, `1`, "ending")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	c := dial(t, list[0].WebSocketDebuggerURL)
	c.send(`{"id":1,"method":"Runtime.enable"}`)
	c.until(id(1))
	w.Terminate()
	c.until(method("Runtime.executionContextDestroyed"))
	d := c.until(method("Inspector.detached"))
	if d["params"].(map[string]any)["reason"] != "target_closed" {
		t.Errorf("detached %v", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	_, _, err := c.c.Read(ctx)
	if st := websocket.CloseStatus(err); st != websocket.StatusNormalClosure {
		t.Errorf("after the target ended: %v (status %d), want a normal closure", err, st)
	}
	// The ended target's id no longer attaches.
	ctx2, cancel2 := context.WithTimeout(context.Background(), long)
	defer cancel2()
	_, resp, err := websocket.Dial(ctx2, list[0].WebSocketDebuggerURL, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("dial an ended target: %v", err)
	}
}

func TestWebSocket_ClientGoesAndServerCloses(t *testing.T) {
	w := spawn(t, `1`, "w")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)

	// A client that goes away: its session is detached (the worker keeps
	// serving others).
	c := dial(t, list[0].WebSocketDebuggerURL)
	c.send(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"({a: 1})"}}`)
	c.until(id(1))
	_ = c.c.Close(websocket.StatusNormalClosure, "")

	// Server.Close ends a session still open and returns once its handler has.
	c2 := dial(t, list[0].WebSocketDebuggerURL)
	c2.send(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"1"}}`)
	c2.until(id(1))
	done := make(chan error, 1)
	go func() { done <- s.Close() }()
	select {
	case <-done:
	case <-time.After(long):
		t.Fatal("Server.Close did not return")
	}
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	for {
		if _, _, err := c2.c.Read(ctx); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatal("the connection stayed open after Server.Close")
			}
			break
		}
	}
	if _, err := http.Get("http://" + s.Addr() + "/json/list"); err == nil {
		t.Error("the server still answers after Close")
	}
	// The worker is still there and serves new sessions.
	sess, err := w.InspectorSession()
	if err != nil {
		t.Fatal(err)
	}
	w.DetachInspectorSession(sess)
}
