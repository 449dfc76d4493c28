package core_test

import (
	"os"
	"testing"
	"time"

	"github.com/jsworker/jsworker/core"
)

// listed reports whether the worker with the given ID is in core.LiveWorkers.
func listed(id uint64) (core.WorkerInfo, bool) {
	for _, w := range core.LiveWorkers() {
		if w.ID == id {
			return w, true
		}
	}
	return core.WorkerInfo{}, false
}

func TestLiveWorkers(t *testing.T) {
	a := spawn(t, `1`, core.Options{Name: "listed", Filename: "/srv/a.js", Inspectable: true})
	b := spawn(t, `1`, core.Options{})

	// A worker is listed once its thread has started: a moment after Spawn.
	deadline := time.Now().Add(long)
	for {
		_, okA := listed(a.ID())
		_, okB := listed(b.ID())
		if okA && okB {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("workers %d and %d are not listed: %+v", a.ID(), b.ID(), core.LiveWorkers())
		}
		time.Sleep(time.Millisecond)
	}
	info, _ := listed(a.ID())
	if info.Name != "listed" || info.Filename != "/srv/a.js" || !info.Inspectable || info.Kind != core.KindScript ||
		info.Worker != a {
		t.Errorf("info %+v", info)
	}
	if info, _ := listed(b.ID()); info.Inspectable && os.Getenv("JSWORKER_INSPECT") != "1" {
		t.Errorf("a plain worker reports Inspectable %v", info.Inspectable)
	}
	if got, ok := core.LookupWorker(a.ID()); !ok || got.Worker != a {
		t.Errorf("LookupWorker(%d) = %+v, %v", a.ID(), got, ok)
	}
	// In spawn order.
	list := core.LiveWorkers()
	for i := 1; i < len(list); i++ {
		if list[i-1].ID >= list[i].ID {
			t.Fatalf("not in ID order: %+v", list)
		}
	}

	// An ended worker is gone by the time Join returns.
	a.Terminate()
	if err := a.Join(long); err != nil {
		t.Fatal(err)
	}
	if _, ok := listed(a.ID()); ok {
		t.Error("an ended worker is still listed")
	}
	if _, ok := core.LookupWorker(a.ID()); ok {
		t.Error("LookupWorker finds an ended worker")
	}
}
