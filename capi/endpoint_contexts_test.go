package capi

import (
	"bytes"
	stdctx "context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// listTargets returns the endpoint's /json/list.
func listTargets(t *testing.T, port int) []map[string]string {
	t.Helper()
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/json/list")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var list []map[string]string
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return list
}

// TestEndpoint_MainContexts: an inspectable main context is listed by the endpoint (a plain one is not); a
// WebSocket session's commands run on the owner thread when the host pumps ZJSContextRunPendingEvents, console
// calls reach it, it can pause the context inside JSEvaluateScript, evaluate in the paused frame and resume it from
// the client, and the context is unlisted when released.
func TestEndpoint_MainContexts(t *testing.T) {
	port := startEndpointT(t)
	ctx := newCtx(t)
	plain := JSGlobalContextCreate(0)
	defer JSGlobalContextRelease(plain)
	JSGlobalContextSetInspectable(ctx, true)
	var target map[string]string
	for _, e := range listTargets(t, port) {
		if strings.HasPrefix(e["url"], "jsworker://context-") {
			if target != nil {
				t.Fatalf("two contexts listed: %v", listTargets(t, port))
			}
			target = e
		}
	}
	if target == nil || !strings.HasPrefix(target["title"], "main context ") {
		t.Fatalf("the inspectable context is not listed: %v", listTargets(t, port))
	}

	wctx, cancel := stdctx.WithTimeout(stdctx.Background(), 20*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(wctx, target["webSocketDebuggerUrl"], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	msgs := make(chan []byte, 64)
	go func() {
		for {
			_, m, err := ws.Read(wctx)
			if err != nil {
				close(msgs)
				return
			}
			msgs <- m
		}
	}()
	send := func(m string) {
		if err := ws.Write(wctx, websocket.MessageText, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	// await waits for a message containing want, pumping the context's events meanwhile (the owner thread runs the
	// endpoint's commands there).
	await := func(want string) []byte {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			select {
			case m, ok := <-msgs:
				if !ok {
					t.Fatalf("the WebSocket closed while waiting for %s", want)
				}
				if bytes.Contains(m, []byte(want)) {
					return m
				}
			default:
				ZJSContextRunPendingEvents(ctx, 10)
			}
		}
		t.Fatalf("no message with %s", want)
		return nil
	}
	send(`{"id":1,"method":"Runtime.enable"}`)
	await(`"id":1,`)
	eval(t, ctx, "var answer = 42; console.log('hello', answer)")
	if m := await(`Runtime.consoleAPICalled`); !bytes.Contains(m, []byte(`"hello"`)) {
		t.Fatalf("console: %s", m)
	}
	send(`{"id":2,"method":"Runtime.evaluate","params":{"expression":"answer + 1"}}`)
	if m := await(`"id":2,`); !bytes.Contains(m, []byte(`"value":43`)) {
		t.Fatalf("evaluate: %s", m)
	}

	// A pause inside JSEvaluateScript is served to the endpoint, which resumes it.
	send(`{"id":3,"method":"Debugger.enable"}`)
	await(`"id":3,`)
	go func() {
		for m := range msgs {
			if bytes.Contains(m, []byte(`"Debugger.paused"`)) {
				send(`{"id":4,"method":"Debugger.evaluateOnCallFrame","params":{"callFrameId":"` +
					callFrameID(m) + `","expression":"answer = 100"}}`)
				send(`{"id":5,"method":"Debugger.resume"}`)
				return
			}
		}
	}()
	if v := eval(t, ctx, "debugger;\nanswer + 1"); JSValueToNumber(ctx, v, nil) != 101 {
		t.Fatalf("the script after the pause = %v", JSValueToNumber(ctx, v, nil))
	}

	// Releasing the context unlists it and ends the session: the client is told.
	JSGlobalContextRelease(ctx) // newCtx's cleanup releases the stale handle again: refused, harmless
	for _, e := range listTargets(t, port) {
		if e["id"] == target["id"] {
			t.Fatal("a released context is still listed")
		}
	}
}

// callFrameID reads the first callFrameId of a Debugger.paused message.
func callFrameID(m []byte) string {
	var p struct {
		Params struct {
			CallFrames []struct {
				CallFrameID string `json:"callFrameId"`
			} `json:"callFrames"`
		} `json:"params"`
	}
	if json.Unmarshal(m, &p) != nil || len(p.Params.CallFrames) == 0 {
		return ""
	}
	return p.Params.CallFrames[0].CallFrameID
}
