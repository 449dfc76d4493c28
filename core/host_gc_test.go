package core

import (
	"runtime"
	"testing"
	"time"
)

// A host realm that is closed and dropped leaves nothing behind in the
// runtime → realm index once its runtime is collected. (One dropped without
// Close stays: its per-realm state in internal/realmdata references the
// runtime until the owner drops it, which Close does.)
func TestHostRealmIndexForgetsCollectedRealms(t *testing.T) {
	count := func() int {
		hostRealms.mu.Lock()
		defer hostRealms.mu.Unlock()
		return len(hostRealms.byRT)
	}
	before := count()
	func() {
		var realms []*HostRealm
		for range 5 {
			rt, err := NewHostRealm(HostRealmOptions{})
			if err != nil {
				t.Fatal(err)
			}
			realms = append(realms, HostRealmOf(rt))
		}
		if count() < before+5 {
			t.Fatalf("index has %d entries, want at least %d", count(), before+5)
		}
		for _, h := range realms {
			h.Close()
		}
	}()
	deadline := time.Now().Add(20 * time.Second)
	for count() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d entries left after GC, want %d", count(), before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond) // cleanups run on their own goroutine after a GC
	}
}
