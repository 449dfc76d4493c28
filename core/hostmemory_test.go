package core_test

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/jsworker/jsworker/core"
)

// capAbove sets a process cap of the current heap plus extra and removes it when the test ends.
func capAbove(t *testing.T, extra int64) int64 {
	t.Helper()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	limit := int64(ms.HeapAlloc) + extra
	core.SetMemoryLimit(limit)
	t.Cleanup(func() { core.SetMemoryLimit(0) })
	return limit
}

// runWithin runs src in h and fails the test if it takes longer than d (the script would otherwise run until the
// process dies).
func runWithin(t *testing.T, h *core.HostRealm, src string, d time.Duration) error {
	t.Helper()
	stop := time.AfterFunc(d, h.TerminateExecution)
	defer stop.Stop()
	start := time.Now()
	_, err := h.RunScript("grow.js", src)
	if errors.Is(err, core.ErrExecutionTerminated) && !errors.Is(err, core.ErrExecutionOutOfMemory) {
		t.Fatalf("the script ran %v without being stopped for memory: %v", time.Since(start), err)
	}
	return err
}

// A host realm whose script grows without bound under the process cap is the largest contributor: its script is
// stopped with ErrExecutionOutOfMemory (an ErrExecutionTerminated), whether it allocates through native calls
// only (no checkpoint: charged the heap's growth) or through functions (measured at the depth guard). The realm
// stays usable, what it keeps in a global is still there, and another host realm and a worker keep running and
// answer every message.
func TestHostRealm_OutOfMemoryUnderCap(t *testing.T) {
	other, _ := openRealm(t, core.HostRealmOptions{})
	if _, err := other.RunScript("other.js", `var kept = []; for (var i = 0; i < 1000; i++) kept.push({i})`); err != nil {
		t.Fatal(err)
	}
	w, err := core.Spawn(echo, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	roundTrips(t, w, 1)

	limit := capAbove(t, 160<<20)
	for _, tc := range []struct{ name, src string }{
		{"native calls", `let a = []; for (;;) a.push(new Array(1e5).fill(1))`},
		{"functions", `var b = []; function add(i) { b.push("x".repeat(1 << 16) + i) } for (let i = 0; ; i++) add(i)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := openRealm(t, core.HostRealmOptions{})
			err := runWithin(t, h, tc.src, 120*time.Second)
			if !errors.Is(err, core.ErrExecutionOutOfMemory) || !errors.Is(err, core.ErrExecutionTerminated) {
				t.Fatalf("RunScript = %v, want ErrExecutionOutOfMemory", err)
			}
			size, ok := h.HeapEstimate()
			t.Logf("cap %d MiB: stopped at about %d MiB (%v)", limit>>20, size>>20, ok)
			if !ok || size < limit/4 {
				t.Errorf("HeapEstimate = %d, %v", size, ok)
			}
			v, err := h.RunScript("after.js", `typeof a !== "undefined" ? a.length : b.length`)
			if err != nil || v.ToInteger() < 10 {
				t.Fatalf("after the stop: %v, %v", v, err)
			}
			// The host frees what the realm kept; the memory goes with it.
			if _, err := h.RunScript("free.js", `typeof a !== "undefined" ? a = null : b = null`); err != nil {
				t.Fatal(err)
			}
			h.Close()
			runtime.GC()
			roundTrips(t, w, 20)
			if v, err := other.RunScript("check.js", `kept.length`); err != nil || v.ToInteger() != 1000 {
				t.Fatalf("the other realm: %v, %v", v, err)
			}
		})
	}
}

// A host realm with no script running is never stopped, even when it holds the most memory: the process cap
// terminates the worker that grows instead, and the realm's memory stays.
func TestHostRealm_IdleNotTouchedByCap(t *testing.T) {
	h, _ := openRealm(t, core.HostRealmOptions{})
	if _, err := h.RunScript("hold.js", `var held = []; for (let i = 0; i < 80; i++) held.push(new Array(1e5).fill(i))`); err != nil {
		t.Fatal(err)
	}
	capAbove(t, 96<<20)
	var rec recorder
	big, err := core.Spawn(`var a = []; function add(i) { a.push({i: i}) } for (var i = 0; ; i++) add(i)`,
		core.Options{OnError: rec.add})
	if err != nil {
		t.Fatal(err)
	}
	err = big.Join(120 * time.Second)
	big.Release()
	if !errors.Is(err, core.ErrWorkerOutOfMemory) {
		t.Fatalf("Join = %v, want ErrWorkerOutOfMemory", err)
	}
	if _, measured := h.HeapEstimate(); measured {
		t.Error("an idle host realm was measured")
	}
	v, err := h.RunScript("check.js", `held.length + held[79][99999]`)
	if err != nil || v.ToInteger() != 80+79 {
		t.Fatalf("held = %v, %v", v, err)
	}
}

// MeasureHeap measures a host realm on demand: a realm that holds more measures more.
func TestHostRealm_MeasureHeap(t *testing.T) {
	h, _ := openRealm(t, core.HostRealmOptions{})
	if _, measured := h.HeapEstimate(); measured {
		t.Fatal("measured before anyone asked")
	}
	before := h.MeasureHeap()
	if _, err := h.RunScript("hold.js", `var held = []; for (let i = 0; i < 16; i++) held.push("x".repeat(1 << 20) + i)`); err != nil {
		t.Fatal(err)
	}
	after := h.MeasureHeap()
	if got, ok := h.HeapEstimate(); !ok || got != after {
		t.Fatalf("HeapEstimate = %d, %v; MeasureHeap = %d", got, ok, after)
	}
	t.Logf("before %d KiB, after %d KiB", before>>10, after>>10)
	if after-before < 15<<20 { // the estimate is about 0.95 of what strings occupy (TestReachableBytes_Accuracy)
		t.Fatalf("holding 16 MiB of strings measured %d more bytes", after-before)
	}
}
