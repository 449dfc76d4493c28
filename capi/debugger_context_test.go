package capi

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestContextDebugger_ResumeFromTheCallback: an inspectable main context pauses at `debugger;` inside
// JSEvaluateScript; the pause reaches the session callback on the owner thread, which resumes from there, and the
// evaluation returns its result.
func TestContextDebugger_ResumeFromTheCallback(t *testing.T) {
	ctx := newCtx(t)
	JSGlobalContextSetInspectable(ctx, true)
	rec, ud := newRecorder(t)
	h := ZJSInspectorSessionCreate(ctx, fakeCallback, ud)
	if h == 0 {
		t.Fatal("no session")
	}
	defer ZJSInspectorSessionRelease(h)
	cDispatch(h, `{"id":1,"method":"Debugger.enable"}`)
	mustFind(t, rec, response(1))
	owner := gettid()
	rec.onMessage = func(msg string) {
		if m := decodeCDP(msg); m.Method == "Debugger.paused" {
			if !strings.Contains(string(m.Params), `"reason":"other"`) {
				t.Errorf("paused: %s", msg)
			}
			if !cDispatch(h, `{"id":2,"method":"Runtime.evaluate","params":{"expression":"typeof x"}}`) ||
				!cDispatch(h, `{"id":3,"method":"Debugger.resume"}`) {
				t.Error("dispatch from the callback refused")
			}
		}
	}
	var exc uintptr
	v := JSEvaluateScript(ctx, mkString(t, "var x = 1;\ndebugger;\n40 + 2;"), 0, mkString(t, "main.js"), 1, &exc)
	if v == 0 || JSValueToNumber(ctx, v, &exc) != 42 {
		t.Fatalf("evaluation = %#x (exception %s)", v, excText(t, ctx, exc))
	}
	p := mustFind(t, rec, event("Debugger.paused"))
	if !strings.Contains(string(p.Params), `"lineNumber":1`) || !strings.Contains(string(p.Params), `"url":"main.js"`) {
		t.Fatalf("paused at %s", p.raw)
	}
	if m := mustFind(t, rec, response(2)); !strings.Contains(string(m.Result), `"value":"number"`) {
		t.Fatalf("evaluate while paused: %s", m.raw)
	}
	mustFind(t, rec, response(3))
	mustFind(t, rec, event("Debugger.resumed"))
	for _, tid := range rec.threads() {
		if tid != owner {
			t.Fatalf("a callback ran on thread %d, not the owner %d", tid, owner)
		}
	}
	// A context that is no longer inspectable compiles plainly: no pause.
	JSGlobalContextSetInspectable(ctx, false)
	before := len(rec.all())
	eval(t, ctx, "debugger; 1")
	if n := len(rec.all()); n != before {
		t.Fatalf("a plain evaluation sent %d messages", n-before)
	}
}

// TestContextDebugger_ResumeFromAnotherThread: while the context is paused, a command dispatched from another
// thread is run by the paused owner thread, which delivers the answer through the callback. Outside a pause the
// other thread is refused.
func TestContextDebugger_ResumeFromAnotherThread(t *testing.T) {
	ctx := newCtx(t)
	JSGlobalContextSetInspectable(ctx, true)
	rec, ud := newRecorder(t)
	h := ZJSInspectorSessionCreate(ctx, fakeCallback, ud)
	defer ZJSInspectorSessionRelease(h)
	cDispatch(h, `{"id":1,"method":"Debugger.enable"}`)
	pausedCh := make(chan struct{}, 1)
	rec.onMessage = func(msg string) {
		if decodeCDP(msg).Method == "Debugger.paused" {
			pausedCh <- struct{}{}
		}
	}
	refused := make(chan bool)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		refused <- !cDispatch(h, `{"id":9,"method":"Runtime.evaluate","params":{"expression":"1"}}`)
		select {
		case <-pausedCh:
		case <-time.After(30 * time.Second):
			t.Error("no pause")
			return
		}
		cDispatch(h, `{"id":10,"method":"Runtime.evaluate","params":{"expression":"y * 2"}}`)
		cDispatch(h, `{"id":11,"method":"Debugger.resume"}`)
	}()
	if !<-refused {
		t.Fatal("a dispatch from another thread was accepted outside a pause")
	}
	var exc uintptr
	v := JSEvaluateScript(ctx, mkString(t, "var y = 21;\ndebugger;\ny * 2;"), 0, 0, 1, &exc)
	if v == 0 || JSValueToNumber(ctx, v, &exc) != 42 {
		t.Fatalf("evaluation = %#x (exception %s)", v, excText(t, ctx, exc))
	}
	if m := mustFind(t, rec, response(10)); !strings.Contains(string(m.Result), `"value":42`) {
		t.Fatalf("evaluate from another thread: %s", m.raw)
	}
	mustFind(t, rec, response(11))
}
