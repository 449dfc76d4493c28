package core

import (
	"fmt"
	"sync/atomic"

	"github.com/jsworker/jsworker/internal/depthguard"
)

// Host realms under the process cap (SetMemoryLimit): a host realm — OpenHostRealm, a C main context — is measured
// as a worker is (gojainternal.ReachableBytes), but only while a script runs in it: the monitor asks, and the realm
// measures at its next checkpoint (the depth guard every compiled function enters), on its own goroutine. When the
// process reaches 90 % of the cap and a running host realm is the largest contributor, the monitor stops its
// running script as TerminateExecution does, with ErrExecutionOutOfMemory; the realm stays usable. A host realm
// with no script running is never measured, stopped or charged by the monitor. See docs/limits.md ("Memory
// budgets").

// ErrExecutionOutOfMemory is what a host realm's entry (RunScript, Enter, a RunPending callback) returns when the
// process neared the cap of SetMemoryLimit while the entry ran and the realm was the largest contributor.
// errors.Is(err, ErrExecutionTerminated) holds too. The C API's exception says "script execution terminated:
// JavaScript heap out of memory" (V8's "JavaScript heap out of memory").
var ErrExecutionOutOfMemory = fmt.Errorf("%w: JavaScript heap out of memory", ErrExecutionTerminated)

// A hostMem is a host realm's side of the memory accounting. The atomics are shared with the monitor.
type hostMem struct {
	cp depthguard.Checkpoint // Want: the monitor asks for a measurement; Run: measure (the realm's goroutine)

	size       atomic.Int64  // the last measurement, in bytes; 0 before the first
	heapAt     atomic.Int64  // the process heap (heapObjects) when it was made
	measuredAt atomic.Int64  // when, in monoNow units; 0: never
	entries    atomic.Uint64 // incremented as an outermost entry begins and as it ends: odd while one runs
	kills      atomic.Int64  // entries the monitor stopped for memory

	// The monitor goroutine's own: the entry it saw running at its last look, and the process heap then.
	seenEntry uint64
	seenHeap  int64
}

// newHostMem makes the accounting of the realm whose runtime measure measures.
func newHostMem(measure func() int64) *hostMem {
	m := &hostMem{}
	m.cp.Limited = func() bool { return MemoryLimit() > 0 } // (a host realm answers to the process's cap only)
	m.cp.Run = func() {
		if !m.cp.Want.Swap(false) {
			return
		}
		size := measure() + m.cp.Building // with what a running native call has made so far (memory.go)
		m.size.Store(size)
		m.heapAt.Store(int64(heapObjects()))
		m.measuredAt.Store(monoNow())
	}
	return m
}

// busy reports whether a script runs in the realm (an outermost entry).
func (m *hostMem) busy() bool { return m.entries.Load()%2 == 1 }

// observe records, at the monitor's look, the process heap as an entry it had not seen before runs: what the
// entry grows past it is charged to the realm if it does not answer a measurement.
func (m *hostMem) observe(heap int64) {
	e := m.entries.Load()
	if e%2 == 1 && e != m.seenEntry {
		m.seenEntry, m.seenHeap = e, heap
	}
}

// base is the process heap a busy realm's unanswered growth is counted from: its last measurement, or the moment
// the monitor first saw its entry run, whichever is later.
func (m *hostMem) base() int64 {
	if m.seenEntry == m.entries.Load() {
		return max(m.heapAt.Load(), m.seenHeap)
	}
	return m.heapAt.Load()
}

// memStop stops the realm's running entry for memory, if it is still the entry the monitor saw (entry), and
// reports whether it did.
func (h *HostRealm) memStop(entry uint64) bool {
	g := &h.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	if h.mem.entries.Load() != entry || g.depth == 0 || g.stopped != nil {
		return false
	}
	h.stopLocked(ErrExecutionOutOfMemory)
	h.mem.kills.Add(1)
	return true
}

// HeapEstimate returns the realm's size as last measured (or charged, for a script that reached no checkpoint) for
// the process cap, in bytes, and whether it was measured or charged at all: only while a cap is set and the process
// neared it with a script running in the realm.
func (h *HostRealm) HeapEstimate() (int64, bool) {
	n := h.mem.size.Load()
	return n, n != 0 || h.mem.measuredAt.Load() != 0
}

// MeasureHeap measures the realm now — the estimate the process cap uses (gojainternal.ReachableBytes of its
// graph) — records it for HeapEstimate and returns it. It costs a walk of the realm's graph (docs/limits.md).
// Owner goroutine only, between entries or from a host function.
func (h *HostRealm) MeasureHeap() int64 {
	h.mem.cp.Want.Store(true)
	h.mem.cp.Run()
	return h.mem.size.Load()
}

// liveHostRealms returns the host realms still in memory.
func liveHostRealms() []*HostRealm {
	hostRealms.mu.Lock()
	defer hostRealms.mu.Unlock()
	hs := make([]*HostRealm, 0, len(hostRealms.byRT))
	for _, p := range hostRealms.byRT {
		if h := p.Value(); h != nil {
			hs = append(hs, h)
		}
	}
	return hs
}
