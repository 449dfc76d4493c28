package inspector

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

func TestSessionLimits_OverflowEndsTheSession(t *testing.T) {
	lt := newLoopTarget(t, 1)
	s := lt.attach()
	s.SetLimits(QueueLimits{MaxQueued: 50, MaxQueuedBytes: 1 << 20})
	next(t, s) // executionContextsCleared
	dispatch(t, s, `{"id":1,"method":"Runtime.enable"}`)
	answerTo(t, s, 1)
	// The client stops reading; the target logs far more than the limit allows.
	if err := lt.exec(`for (let i = 0; i < 1000; i++) console.log("line " + i)`); err != nil {
		t.Fatal(err)
	}
	if !s.Overflowed() {
		t.Fatal("1000 events queued for a client that never reads, and the session did not overflow")
	}
	if msg, r := s.Next(time.Second); r != PumpClosed {
		t.Fatalf("after the overflow: Next = %v %s, want PumpClosed (the queue is discarded)", r, msg)
	}
	if err := s.Dispatch([]byte(`{"id":2,"method":"Runtime.evaluate","params":{"expression":"1"}}`)); err != ErrClosed {
		t.Fatalf("Dispatch after the overflow: %v, want ErrClosed", err)
	}
	select {
	case <-s.Dropped():
	case <-time.After(5 * time.Second):
		t.Fatal("the overflowed session's objects were not dropped")
	}
	// The target keeps serving other sessions.
	other := lt.attach()
	next(t, other)
	dispatch(t, other, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"6*7"}}`)
	if v := field(answerTo(t, other, 1), "result", "result", "value"); v != float64(42) {
		t.Fatalf("another session after the overflow: %v", v)
	}
}

func TestSessionLimits_PendingCommandsAreBounded(t *testing.T) {
	lt := newLoopTarget(t, 1)
	s := lt.attach()
	s.SetLimits(QueueLimits{MaxPending: 3})
	next(t, s)
	// Hold the target so that nothing is answered while the flood arrives.
	release := make(chan struct{})
	held := make(chan struct{})
	lt.Run(func(*goja.Runtime) { close(held); <-release })
	<-held
	for i := 1; i <= 10; i++ {
		dispatch(t, s, `{"id":%d,"method":"Runtime.evaluate","params":{"expression":"%d"}}`, i, i)
	}
	refused := 0
	for i := 0; i < 7; i++ { // the refusals are queued at once
		m := next(t, s)
		if strings.Contains(field(m, "error", "message").(string), "Too many pending commands") {
			refused++
		}
	}
	close(release)
	for i := 1; i <= 3; i++ {
		if v := field(answerTo(t, s, i), "result", "result", "value"); v != float64(i) {
			t.Fatalf("command %d: %v", i, v)
		}
	}
	if refused != 7 {
		t.Fatalf("%d of 7 commands past the limit were refused", refused)
	}
	dispatch(t, s, `{"id":11,"method":"Runtime.evaluate","params":{"expression":"11"}}`)
	if v := field(answerTo(t, s, 11), "result", "result", "value"); v != float64(11) {
		t.Fatalf("after the flood: %v", v)
	}
}

func TestSessionLimits_LargeResponseIsAnError(t *testing.T) {
	lt := newLoopTarget(t, 1)
	s := lt.attach()
	s.SetLimits(QueueLimits{MaxMessageBytes: 64 << 10})
	next(t, s)
	dispatch(t, s, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"'x'.repeat(1e6)","returnByValue":true}}`)
	m := answerTo(t, s, 1)
	if msg, _ := field(m, "error", "message").(string); msg != msgResponseTooBig {
		t.Fatalf("a 1 MB response under a 64 KiB limit: %v", m)
	}
	dispatch(t, s, `{"id":2,"method":"Runtime.evaluate","params":{"expression":"'ok'"}}`)
	if v := field(answerTo(t, s, 2), "result", "result", "value"); v != "ok" {
		t.Fatalf("after the refused response: %v", v)
	}
}
