package testsupport

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// Long bounds every wait of a test that uses this package; none should come close to it.
const Long = 20 * time.Second

// A Message is one decoded Chrome DevTools Protocol message: a response (id, result or error) or an event (method,
// params).
type Message map[string]any

// ID returns a matcher for the response to command id.
func ID(id int) func(Message) bool {
	return func(m Message) bool { return m["id"] == float64(id) }
}

// Method returns a matcher for an event (or command) named name.
func Method(name string) func(Message) bool {
	return func(m Message) bool { return m["method"] == name }
}

// Result returns the response's result object, failing the test if the response is an error.
func (m Message) Result(t testing.TB) map[string]any {
	t.Helper()
	if e, ok := m["error"]; ok {
		t.Fatalf("CDP error: %v", e)
	}
	r, _ := m["result"].(map[string]any)
	return r
}

// A CDPClient is a test client of a CDP endpoint over a WebSocket (the DevTools endpoint of `jsworker run
// --inspect` or ZJSInspectorEndpointStart). Every wait is bounded by Long; a failure fails the test.
type CDPClient struct {
	t      testing.TB
	c      *websocket.Conn
	nextID atomic.Int64
	// OnFail, if set, runs before a failed wait fails the test, while the connection is still open (a test of a
	// program sends it SIGQUIT there, to log where its goroutines wait).
	OnFail func()
}

// DialCDP connects to a ws:// URL; the connection is closed when the test ends.
func DialCDP(t testing.TB, url string) *CDPClient {
	t.Helper()
	// The dial's context stays live as long as the connection: cancelling it may close a connection net/http still
	// associates with the request.
	ctx, cancel := context.WithTimeout(context.Background(), Long)
	t.Cleanup(cancel)
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	c.SetReadLimit(64 << 20)
	t.Cleanup(func() { _ = c.CloseNow() })
	return &CDPClient{t: t, c: c}
}

// T returns the test the client reports to (for wrappers that mark themselves t.Helper()).
func (c *CDPClient) T() testing.TB { return c.t }

// Conn returns the underlying connection (for tests of the transport itself).
func (c *CDPClient) Conn() *websocket.Conn { return c.c }

// Send writes one raw message.
func (c *CDPClient) Send(msg string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Long)
	defer cancel()
	if err := c.c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// Call sends a command with a fresh id and returns its response (events before it are skipped).
func (c *CDPClient) Call(method string, params any) Message {
	c.t.Helper()
	id := int(c.nextID.Add(1)) + 1_000_000 // clear of the ids a test writes by hand with Send
	cmd := map[string]any{"id": id, "method": method}
	if params != nil {
		cmd["params"] = params
	}
	b, err := json.Marshal(cmd)
	if err != nil {
		c.t.Fatal(err)
	}
	c.Send(string(b))
	return c.Until(ID(id))
}

// Until reads messages until one satisfies match and returns it.
func (c *CDPClient) Until(match func(Message) bool) Message {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Long)
	defer cancel()
	var skipped []string // the last messages that did not match, for the failure's message
	for {
		_, b, err := c.c.Read(ctx)
		if err != nil {
			if c.OnFail != nil {
				c.OnFail()
			}
			c.t.Fatalf("read: %v (the last %d messages that did not match, oldest first:\n%s)", err, len(skipped),
				strings.Join(skipped, "\n"))
		}
		var m Message
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatalf("bad JSON %s", b)
		}
		if match(m) {
			return m
		}
		if len(skipped) == 8 {
			skipped = skipped[1:]
		}
		skipped = append(skipped, fmt.Sprintf("%.300s", b))
	}
}

// Closed reads until the server closes the connection, which it must do with status 1000.
func (c *CDPClient) Closed() {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Long)
	defer cancel()
	for {
		if _, _, err := c.c.Read(ctx); err != nil {
			if st := websocket.CloseStatus(err); st != websocket.StatusNormalClosure {
				c.t.Errorf("the connection ended with %v, want a close frame with status 1000", err)
			}
			return
		}
	}
}

// String describes the client for failure messages.
func (c *CDPClient) String() string { return fmt.Sprintf("CDP client %p", c) }
