package devtools_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector/devtools"
	"github.com/jsworker/jsworker/internal/workertargets"
)

// The endpoint against hostile peers: every test ends by showing that a well-behaved client is still served.

// healthy checks that s still answers /json/list and a WebSocket session on url evaluates.
func healthy(t *testing.T, s *devtools.Server, url string) {
	t.Helper()
	if code, _ := get(t, s, "/json/list", ""); code != http.StatusOK {
		t.Fatalf("/json/list after the attack: %d", code)
	}
	c := dial(t, url)
	c.send(`{"id":77,"method":"Runtime.evaluate","params":{"expression":"6 * 7"}}`)
	if v := c.until(id(77))["result"].(map[string]any)["result"].(map[string]any)["value"]; v != 42.0 {
		t.Fatalf("evaluate after the attack: %v", v)
	}
	_ = c.c.Close(websocket.StatusNormalClosure, "")
}

// raw sends b on a fresh TCP connection and returns what the server answers before it closes (or 5 s pass).
func raw(t *testing.T, s *devtools.Server, b []byte) string {
	t.Helper()
	conn, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write(b); err != nil {
		return "" // the server may close before reading everything
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
	out, _ := io.ReadAll(conn)
	return string(out)
}

func TestHostile_MalformedHTTPAndWebSocket(t *testing.T) {
	w := spawn(t, `1`, "w")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	wsPath := "/" + list[0].ID
	cases := []struct {
		name, req, want string // want: the start of the response ("" = closed without one)
	}{
		{"binary garbage", "\x00\xff\xfe\x16\x03\x01garbage\r\n\r\n", "HTTP/1.1 400"},
		{"not HTTP", "HELLO\r\n\r\n", "HTTP/1.1 400"},
		{"huge header", "GET /json HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + strings.Repeat("a", 1<<20) + "\r\n\r\n", "HTTP/1.1 431"},
		{"bad Host", "GET /json HTTP/1.1\r\nHost: evil.example\r\n\r\n", "HTTP/1.1 403"},
		{"upgrade without key", "GET " + wsPath + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", "HTTP/1.1 400"},
		{"upgrade, bad version", "GET " + wsPath + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
			"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 7\r\n\r\n", "HTTP/1.1 400"},
		{"truncated", "GET /json/li", ""},
	}
	for _, tc := range cases {
		got := raw(t, s, []byte(tc.req))
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: answered %.60q, want %q", tc.name, got, tc.want)
		}
	}
	// A valid upgrade followed by frames that break the protocol: an unmasked frame, a reserved opcode, a
	// control frame longer than 125 bytes, a frame announcing 2^63 bytes and sending more than the message limit
	// (the limit counts what arrives, so the connection ends once MaxMessage bytes came, nothing is allocated up
	// front), a continuation with no message to continue.
	huge := append([]byte{0x81, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0},
		make([]byte, devtools.MaxMessage+1024)...)
	for _, frame := range [][]byte{
		{0x81, 0x05, 'h', 'e', 'l', 'l', 'o'},
		{0x83, 0x80, 1, 2, 3, 4},
		append([]byte{0x89, 0xfe, 0x01, 0x00, 1, 2, 3, 4}, make([]byte, 256)...),
		huge,
		{0x80, 0x82, 1, 2, 3, 4, 'h', 'i'},
	} {
		upgradeThen(t, s.Addr(), wsPath, frame)
	}
	healthy(t, s, list[0].WebSocketDebuggerURL)
}

// upgradeThen opens a WebSocket by hand, sends frame and checks that the server closes the connection.
func upgradeThen(t *testing.T, addr, path string, frame []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(long))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", path, addr)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	if _, err := conn.Write(frame); err != nil {
		return
	}
	// The server answers with a close frame (or just closes); either way the connection ends.
	if _, err := io.Copy(io.Discard, br); err != nil && !isClosedErr(err) {
		t.Fatalf("frame % x: the connection did not end: %v", frame[:2], err)
	}
}

func isClosedErr(err error) bool {
	return strings.Contains(err.Error(), "reset") || strings.Contains(err.Error(), "closed")
}

func TestHostile_OversizedMessage(t *testing.T) {
	w := spawn(t, `1`, "w")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	c := dial(t, list[0].WebSocketDebuggerURL)
	big := `{"id":1,"method":"Runtime.evaluate","params":{"expression":"'` + strings.Repeat("x", devtools.MaxMessage) + `'"}}`
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	_ = c.c.Write(ctx, websocket.MessageText, []byte(big)) // may fail once the server has closed
	var err error
	for err == nil { // the session's first event may come first
		_, _, err = c.c.Read(ctx)
	}
	if st := websocket.CloseStatus(err); st != websocket.StatusMessageTooBig {
		t.Fatalf("a message over %d bytes: %v (status %d), want 1009", devtools.MaxMessage, err, st)
	}
	healthy(t, s, list[0].WebSocketDebuggerURL)
}

func TestHostile_ClientThatNeverReads(t *testing.T) {
	defer devtools.SetWriteTimeout(2 * time.Second)()
	// The worker logs 64 MB when told to: twice what an endpoint session may queue (32 MiB), whatever the socket
	// buffers hold; then it says so.
	w := spawn(t, `onmessage = () => { const s = "y".repeat(1 << 16); for (let i = 0; i < 1024; i++) console.log(s);
		postMessage("done") }`, "w")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	slow := dial(t, list[0].WebSocketDebuggerURL)
	slow.send(`{"id":1,"method":"Runtime.enable"}`)
	slow.until(id(1))
	good := dial(t, list[0].WebSocketDebuggerURL)

	good.send(`{"id":5,"method":"Runtime.evaluate","params":{"expression":"1 + 1"}}`)
	good.until(id(5))
	host := goja.New()
	if err := w.PostMessage(host, host.ToValue(1)); err != nil {
		t.Fatal(err)
	}
	if v, err := w.Receive(host, 2*long); err != nil || v.String() != "done" { // the slow client has not read a byte
		t.Fatalf("the worker's task: %v, %v", v, err)
	}
	// The slow client is cut off: queue full (1008) or its write timed out (the connection just ends).
	ctx, cancel := context.WithTimeout(context.Background(), 2*long)
	defer cancel()
	for {
		_, _, err := slow.c.Read(ctx)
		if err != nil {
			if st := websocket.CloseStatus(err); st != websocket.StatusPolicyViolation && st != -1 {
				t.Fatalf("slow client ended with %v (status %d)", err, st)
			}
			if ctx.Err() != nil {
				t.Fatal("the slow client was never disconnected")
			}
			break
		}
	}
	// The other session lived through it.
	good.send(`{"id":6,"method":"Runtime.evaluate","params":{"expression":"2 + 2"}}`)
	good.until(id(6))
	healthy(t, s, list[0].WebSocketDebuggerURL)
}

func TestHostile_CommandFlood(t *testing.T) {
	w := spawn(t, `1`, "w")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	c := dial(t, list[0].WebSocketDebuggerURL)
	const n = 5000
	go func() { // the flood, without reading
		ctx, cancel := context.WithTimeout(context.Background(), long)
		defer cancel()
		for i := 1; i <= n; i++ {
			msg := fmt.Sprintf(`{"id":%d,"method":"Runtime.evaluate","params":{"expression":"%d"}}`, i, i)
			if c.c.Write(ctx, websocket.MessageText, []byte(msg)) != nil {
				return
			}
		}
	}()
	// Every command is answered (a result, or the refusal past the pending limit), or the session is cut off
	// because its client did not read: never an unbounded queue.
	answered := 0
	ctx, cancel := context.WithTimeout(context.Background(), 2*long)
	defer cancel()
	for answered < n {
		_, _, err := c.c.Read(ctx)
		if err != nil {
			if st := websocket.CloseStatus(err); st != websocket.StatusPolicyViolation {
				t.Fatalf("after %d answers: %v (status %d)", answered, err, st)
			}
			break
		}
		answered++
	}
	t.Logf("%d of %d flooded commands answered before the session ended", answered, n)
	healthy(t, s, list[0].WebSocketDebuggerURL)
}

func TestHostile_ConnectionAndSessionCaps(t *testing.T) {
	w := spawn(t, `1`, "w")
	s := listen(t, workertargets.Provider{Main: w.ID()})
	list := waitListed(t, s, 1)
	var sessions []*client
	for i := 0; i < devtools.MaxSessions; i++ {
		sessions = append(sessions, dial(t, list[0].WebSocketDebuggerURL))
	}
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, list[0].WebSocketDebuggerURL, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("session %d: %v %v, want 503", devtools.MaxSessions+1, resp, err)
	}
	for _, c := range sessions {
		_ = c.c.Close(websocket.StatusNormalClosure, "")
	}
	// Idle connections past the cap are closed at once.
	var conns []net.Conn
	for i := 0; i < devtools.MaxConns+8; i++ {
		conn, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
	}
	// Read every connection at once (a deadline that passed hides an EOF): the ones past the cap see EOF at
	// once, the others time out (the server would close them only at ReadHeaderTimeout, 10 s).
	eofs := make(chan bool, len(conns))
	for _, conn := range conns {
		go func() {
			_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
			_, err := conn.Read(make([]byte, 1))
			eofs <- err == io.EOF
		}()
	}
	closedAtOnce := 0
	for range conns {
		if <-eofs {
			closedAtOnce++
		}
	}
	for _, conn := range conns {
		conn.Close()
	}
	if closedAtOnce < 8 {
		t.Fatalf("%d connections past the cap of %d were closed at once, want 8", closedAtOnce, devtools.MaxConns)
	}
	deadline := time.Now().Add(long)
	for { // the slots come back as the server sees the closes
		conn, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET /json/version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		line, _ := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if strings.HasPrefix(line, "HTTP/1.1 200") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the connection slots never came back")
		}
	}
	healthy(t, s, list[0].WebSocketDebuggerURL)
}

// newRealm is a host realm to post from and receive into.
func newRealm() *goja.Runtime { return goja.New() }
