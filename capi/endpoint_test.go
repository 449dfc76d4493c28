package capi

import (
	"bytes"
	stdctx "context"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/jsworker/jsworker/core"
)

// startEndpointT starts the endpoint on a free port and stops it at the end of the test.
func startEndpointT(t *testing.T) int {
	t.Helper()
	var port uint16
	buf := make([]byte, 256)
	if r := ZJSInspectorEndpointStart(cstr("127.0.0.1:0"), &port, &buf[0], uintptr(len(buf))); r != endpointOK {
		t.Fatalf("ZJSInspectorEndpointStart = %d: %s", r, cText(buf))
	}
	t.Cleanup(ZJSInspectorEndpointStop)
	if port == 0 {
		t.Fatal("no port reported")
	}
	return int(port)
}

func cText(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

func TestEndpoint_StartRefusesBadInput(t *testing.T) {
	buf := make([]byte, 512)
	for _, tc := range []struct {
		addr string
		want int32
		text string
	}{
		{"0.0.0.0:0", endpointInvalidAddress, "loopback"},
		{"192.0.2.7:9229", endpointInvalidAddress, "loopback"},
		{"no port", endpointInvalidAddress, "bad address"},
		{"127.0.0.1:99999", endpointListenFailed, ""},
	} {
		var port uint16 = 7
		if r := ZJSInspectorEndpointStart(cstr(tc.addr), &port, &buf[0], uintptr(len(buf))); r != tc.want {
			t.Errorf("Start(%q) = %d, want %d (%s)", tc.addr, r, tc.want, cText(buf))
		}
		if msg := cText(buf); !strings.HasPrefix(msg, "ZJSInspectorEndpointStart: ") || !strings.Contains(msg, tc.text) {
			t.Errorf("Start(%q): message %q", tc.addr, msg)
		}
		if port != 7 {
			t.Errorf("Start(%q) changed the port on failure", tc.addr)
		}
	}
	// NULL buffers and a one-byte buffer are fine.
	if r := ZJSInspectorEndpointStart(cstr("0.0.0.0:0"), nil, nil, 0); r != endpointInvalidAddress {
		t.Errorf("Start with NULL outputs = %d", r)
	}
	one := []byte{'x'}
	ZJSInspectorEndpointStart(cstr("0.0.0.0:0"), nil, &one[0], 1)
	if one[0] != 0 {
		t.Errorf("a one-byte buffer holds %q, want the NUL", one)
	}
	ZJSInspectorEndpointStop() // not running: nothing happens
}

func TestEndpoint_ListsInspectableWorkersAndServesSessions(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	port := startEndpointT(t)
	buf := make([]byte, 256)
	if r := ZJSInspectorEndpointStart(nil, nil, &buf[0], uintptr(len(buf))); r != endpointAlreadyRunning {
		t.Errorf("second Start = %d (%s), want already running", r, cText(buf))
	}

	src := mkString(t, `var answer = 42;`)
	insp, err := createWorker("test", src, workerConfig{inspectable: true}, gettid())
	if err != nil {
		t.Fatal(err)
	}
	defer JSWorkerRelease(insp)
	plain := JSWorkerCreate(src)
	defer JSWorkerRelease(plain)
	wr, _ := getWorker("test", insp, gettid())

	// The inspectable worker is listed, the plain one is not.
	var list []map[string]string
	deadline := time.Now().Add(20 * time.Second)
	for len(list) != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("/json/list: %v", list)
		}
		resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/json/list")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		list = nil
		if err := json.Unmarshal(body, &list); err != nil {
			t.Fatalf("%v: %s", err, body)
		}
		if len(list) != 1 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if want := "worker " + strconv.FormatUint(wr.w.ID(), 10) + ": "; !strings.HasPrefix(list[0]["title"], want) {
		t.Errorf("title %q, want prefix %q", list[0]["title"], want)
	}

	ctx, cancel := stdctx.WithTimeout(stdctx.Background(), 20*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, list[0]["webSocketDebuggerUrl"], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText,
		[]byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"answer"}}`)); err != nil {
		t.Fatal(err)
	}
	for {
		_, msg, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(msg, []byte(`"id":1`)) {
			if !bytes.Contains(msg, []byte(`"value":42`)) {
				t.Errorf("evaluate: %s", msg)
			}
			break
		}
	}

	// Stop closes the session's WebSocket; the worker goes on.
	ZJSInspectorEndpointStop()
	if _, _, err := c.Read(ctx); err == nil {
		t.Error("the WebSocket is still open after Stop")
	}
	if wr.w.State() == core.StateClosed {
		t.Error("the worker ended with the endpoint")
	}
}
