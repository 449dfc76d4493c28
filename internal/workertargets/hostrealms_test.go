package workertargets_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/inspector/devtools"
	"github.com/jsworker/jsworker/internal/workertargets"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func listed(key string) bool {
	for _, t := range (workertargets.HostRealms{}).Targets() {
		if t.Key == key {
			return true
		}
	}
	return false
}

// An inspectable host realm is a target while inspectable; an endpoint
// session's command runs when the owner serves the realm; Close ends the
// session and the listing.
func TestHostRealms_ListAttachClose(t *testing.T) {
	h, err := core.OpenHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	key := workertargets.HostKey(h.TargetID())
	if listed(key) {
		t.Fatal("listed before SetInspectable(true)")
	}
	if _, err := (workertargets.HostRealms{}).Attach(key); !errors.Is(err, devtools.ErrNoTarget) {
		t.Fatalf("Attach to an uninspectable realm: %v", err)
	}
	if err := h.SetInspectable(true); err != nil {
		t.Fatal(err)
	}
	if !listed(key) {
		t.Fatalf("%s not among %v", key, (workertargets.HostRealms{}).Targets())
	}
	for _, bad := range []string{"context-x", "worker-1", "context-999999999"} {
		if _, err := (workertargets.HostRealms{}).Attach(bad); !errors.Is(err, devtools.ErrNoTarget) {
			t.Fatalf("Attach(%q): %v", bad, err)
		}
	}
	s, err := (workertargets.HostRealms{}).Attach(key)
	if err != nil {
		t.Fatal(err)
	}
	h.Runtime().Set("answer", 42)
	if err := s.Dispatch([]byte(`{"id":1,"method":"Runtime.evaluate","params":{"expression":"answer","returnByValue":true}}`)); err != nil {
		t.Fatal(err)
	}
	h.ServeInspector() // the owner runs what the endpoint queued
	found := false
	for !found {
		msg, r := s.Next(10 * time.Second)
		if r != inspector.PumpMessage {
			t.Fatalf("no answer: %v", r)
		}
		found = strings.Contains(string(msg), `"id":1`)
		if found && !strings.Contains(string(msg), `"value":42`) {
			t.Fatalf("answer = %s", msg)
		}
	}
	h.Close()
	if listed(key) {
		t.Fatal("a closed realm is listed")
	}
	for {
		_, r := s.Next(10 * time.Second)
		if r == inspector.PumpClosed {
			break
		}
		if r == inspector.PumpTimeout {
			t.Fatal("the session was not told that the realm ended")
		}
	}
	s.Close()
}
