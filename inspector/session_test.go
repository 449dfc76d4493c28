package inspector

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// next returns the next message within 5s or fails.
func next(t testing.TB, s *Session) map[string]any {
	t.Helper()
	msg, r := s.Next(5 * time.Second)
	if r != PumpMessage {
		t.Fatalf("Next = %v, want a message", r)
	}
	var m map[string]any
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("message is not JSON: %s", msg)
	}
	return m
}

// answerTo returns the message answering id, skipping events.
func answerTo(t testing.TB, s *Session, id int) map[string]any {
	t.Helper()
	for {
		m := next(t, s)
		if v, ok := m["id"]; ok && v == float64(id) {
			return m
		}
		if _, isEvent := m["method"]; !isEvent {
			t.Fatalf("got %v while waiting for response %d", m, id)
		}
	}
}

func dispatch(t testing.TB, s *Session, format string, args ...any) {
	t.Helper()
	if err := s.Dispatch([]byte(fmt.Sprintf(format, args...))); err != nil {
		t.Fatalf("Dispatch: %v", err)
	}
}

// field walks a decoded message: field(m, "result", "result", "objectId").
func field(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[p]
	}
	return v
}

// drainClosed takes every message left and checks the session ends with
// PumpClosed.
func drainClosed(t testing.TB, s *Session) []map[string]any {
	t.Helper()
	var out []map[string]any
	for {
		msg, r := s.Next(5 * time.Second)
		switch r {
		case PumpClosed:
			return out
		case PumpTimeout:
			t.Fatal("no PumpClosed within 5s")
		}
		var m map[string]any
		_ = json.Unmarshal(msg, &m)
		out = append(out, m)
	}
}

// requireReleased waits until s dropped its objects and checks that every
// objectId it ever created was dropped exactly once.
func requireReleased(t testing.TB, s *Session) {
	t.Helper()
	select {
	case <-s.Dropped():
	case <-time.After(5 * time.Second):
		t.Fatal("Dropped not closed within 5s")
	}
	if n := s.HeldObjects(); n != 0 {
		t.Errorf("HeldObjects = %d after the session ended, want 0", n)
	}
	if created, released := s.counts(); created != released {
		t.Errorf("created %d objectIds, released %d: want each released exactly once", created, released)
	}
}

func TestNewSession_FirstNextIsMessage(t *testing.T) {
	s := newLoopTarget(t, 0).attach()
	defer s.Close()
	if m := next(t, s); m["method"] != evContextsCleared {
		t.Fatalf("first message = %v, want %s", m, evContextsCleared)
	}
	if _, r := s.Next(0); r != PumpTimeout {
		t.Fatalf("Next(0) on an empty queue = %v, want Timeout", r)
	}
	start := time.Now()
	if _, r := s.Next(20 * time.Millisecond); r != PumpTimeout || time.Since(start) < 20*time.Millisecond {
		t.Fatalf("Next(20ms) = %v after %v, want Timeout after 20ms", r, time.Since(start))
	}
}

func TestSession_Close(t *testing.T) {
	s := newLoopTarget(t, 0).attach()
	dispatch(t, s, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"({})"}}`)
	next(t, s) // the initial event
	answerTo(t, s, 1)
	dispatch(t, s, `{"id":2,"method":"Schema.getDomains"}`)
	if m := answerTo(t, s, 2); m["result"] == nil {
		t.Fatalf("getDomains: %v", m)
	}
	dispatch(t, s, `{"id":3,"method":"Runtime.nope"}`) // queued at once, before Close
	s.Close()
	s.Close() // idempotent
	if err := s.Dispatch([]byte(`{"id":4,"method":"Schema.getDomains"}`)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Dispatch after Close = %v, want ErrClosed", err)
	}
	left := drainClosed(t, s)
	if len(left) != 1 || field(left[0], "error", "code") != float64(codeMethodNotFound) {
		t.Fatalf("after Close Next returned %v, want the one queued error", left)
	}
	if _, r := s.Next(-1); r != PumpClosed {
		t.Fatalf("Next after PumpClosed = %v", r)
	}
	requireReleased(t, s)
}

// TestSession_CloseWhileCommandRuns closes a session from another goroutine
// while one of its commands runs on the target and holds objects: nothing the
// command creates afterwards survives, and nothing is answered.
func TestSession_CloseWhileCommandRuns(t *testing.T) {
	lt := newLoopTarget(t, 0)
	running, closed := make(chan struct{}), make(chan struct{})
	lt.do(func(rt *goja.Runtime) {
		rt.Set("pause", func() { close(running); <-closed })
	})
	s := lt.attach()
	next(t, s)
	dispatch(t, s, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"({ a: {} })","objectGroup":"g"}}`)
	id := field(answerTo(t, s, 1), "result", "result", "objectId")
	dispatch(t, s, `{"id":2,"method":"Runtime.callFunctionOn","params":{"objectId":%q,"functionDeclaration":"function () { pause(); return { b: this.a }; }"}}`, id)
	dispatch(t, s, `{"id":3,"method":"Runtime.getProperties","params":{"objectId":%q}}`, id)
	<-running
	go func() { s.Close(); close(closed) }()
	if left := drainClosed(t, s); len(left) != 0 {
		t.Fatalf("messages after Close: %v", left)
	}
	requireReleased(t, s)
}

// TestSession_CloseInsideCommand closes the session from code a command runs,
// on a synchronous target: the drop happens at once, nested in the command.
func TestSession_CloseInsideCommand(t *testing.T) {
	st := newSyncTarget()
	s := st.attach()
	st.rt.Set("detach", func() { s.Close() })
	next(t, s)
	dispatch(t, s, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"({ before: 1 })"}}`)
	answerTo(t, s, 1)
	dispatch(t, s, `{"id":2,"method":"Runtime.evaluate","params":{"expression":"detach(); ({ after: 2 })"}}`)
	if left := drainClosed(t, s); len(left) != 0 {
		t.Fatalf("messages after Close: %v", left)
	}
	requireReleased(t, s)
}

// dropTarget accepts tasks and never runs them, like a worker terminated
// right after accepting; its owner then calls TargetClosed.
type dropTarget struct{ ctx ContextInfo }

func (d *dropTarget) Run(func(*goja.Runtime)) bool { return true }
func (d *dropTarget) Context() ContextInfo         { return d.ctx }

func TestSession_TargetClosedAnswersDroppedCommands(t *testing.T) {
	s := NewSession(&dropTarget{ctx: testContext(0)})
	next(t, s)
	dispatch(t, s, `{"id":7,"method":"Runtime.enable"}`)
	dispatch(t, s, `{"id":8,"method":"Runtime.evaluate","params":{"expression":"1"}}`)
	s.TargetClosed()
	s.TargetClosed() // idempotent
	if err := s.Dispatch([]byte(`{"id":9,"method":"Runtime.enable"}`)); !errors.Is(err, ErrClosed) {
		t.Fatalf("Dispatch after TargetClosed = %v, want ErrClosed", err)
	}
	left := drainClosed(t, s)
	if len(left) != 3 || field(left[0], "id") != float64(7) || field(left[1], "id") != float64(8) ||
		field(left[0], "error", "message") != msgTargetGone || field(left[2], "method") != evDetached {
		t.Fatalf("after TargetClosed: %v, want errors for 7 and 8, then %s", left, evDetached)
	}
	s.Close()
	requireReleased(t, s)
}

// TestSession_RunRefused: a target whose Run returns false has ended; the
// command is answered with an error and the session closes.
func TestSession_RunRefused(t *testing.T) {
	st := newSyncTarget()
	s := st.attach()
	next(t, s)
	dispatch(t, s, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"({})"}}`)
	answerTo(t, s, 1)
	st.closed.Store(true) // gone without TargetClosed
	dispatch(t, s, `{"id":2,"method":"Runtime.evaluate","params":{"expression":"1"}}`)
	left := drainClosed(t, s)
	if len(left) != 2 || field(left[0], "error", "message") != msgTargetGone || field(left[1], "method") != evDetached {
		t.Fatalf("got %v", left)
	}
	requireReleased(t, s)
}

// TestSyncTarget_AwaitPromise: on a synchronous target a pending promise is
// answered whenever the host next runs JavaScript.
func TestSyncTarget_AwaitPromise(t *testing.T) {
	st := newSyncTarget()
	s := st.attach()
	defer func() { s.Close(); requireReleased(t, s) }()
	next(t, s)
	dispatch(t, s, `{"id":1,"method":"Runtime.evaluate","params":{"expression":"6 * 7"}}`)
	if v := field(answerTo(t, s, 1), "result", "result", "value"); v != float64(42) {
		t.Fatalf("evaluate = %v", v)
	}
	dispatch(t, s, `{"id":2,"method":"Runtime.evaluate","params":{"expression":"new Promise(r => { globalThis.settle = r; })","awaitPromise":true}}`)
	if msg, r := s.Next(0); r != PumpTimeout {
		t.Fatalf("a pending promise was answered at once: %s", msg)
	}
	if err := st.exec(`settle("done")`); err != nil {
		t.Fatal(err)
	}
	if v := field(answerTo(t, s, 2), "result", "result", "value"); v != "done" {
		t.Fatalf("awaited value = %v", v)
	}
	// A promise still pending when the context ends is answered with an error.
	dispatch(t, s, `{"id":3,"method":"Runtime.evaluate","params":{"expression":"new Promise(() => {})","awaitPromise":true}}`)
	st.end()
	left := drainClosed(t, s)
	if len(left) != 2 || field(left[0], "id") != float64(3) || field(left[0], "error", "message") != msgTargetGone {
		t.Fatalf("after the end: %v", left)
	}
}

// TestHammerSessions attaches, uses and closes sessions from P goroutines on
// one target while commands are in flight; every session ends with nothing
// held and every objectId released exactly once.
func TestHammerSessions(t *testing.T) {
	P, N := 4, 30
	if testing.Short() {
		N = 10
	}
	lt := newLoopTarget(t, 0)
	var wg sync.WaitGroup
	errs := make(chan string, P*N)
	for p := 0; p < P; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < N; i++ {
				s := lt.attach()
				s.Dispatch([]byte(`{"id":1,"method":"Runtime.enable"}`))
				s.Dispatch([]byte(`{"id":2,"method":"Runtime.evaluate","params":{"expression":"console.log({ p: 1 }); ({ a: [1, 2], m: new Map([[1, {}]]) })","objectGroup":"g"}}`))
				if i%3 == 0 { // wait for the object, then inspect it
					var id string
					for id == "" {
						msg, r := s.Next(5 * time.Second)
						if r != PumpMessage {
							errs <- fmt.Sprintf("Next = %v", r)
							break
						}
						if strings.HasPrefix(string(msg), `{"id":2,`) {
							var m map[string]any
							json.Unmarshal(msg, &m)
							id, _ = field(m, "result", "result", "objectId").(string)
						}
					}
					s.Dispatch([]byte(`{"id":3,"method":"Runtime.getProperties","params":{"objectId":"` + id + `"}}`))
				}
				if i%2 == 0 {
					go s.Close() // from another goroutine, maybe mid-command
				} else {
					s.Close()
				}
				for {
					if _, r := s.Next(5 * time.Second); r == PumpClosed {
						break
					} else if r == PumpTimeout {
						errs <- "no PumpClosed"
						break
					}
				}
				<-s.Dropped()
				if created, released := s.counts(); s.HeldObjects() != 0 || created != released {
					errs <- fmt.Sprintf("held %d, created %d, released %d", s.HeldObjects(), created, released)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
