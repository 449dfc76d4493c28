package core

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// The memory monitor: one goroutine, running while some live worker has a budget or a process cap is set, that
// reads the process heap from runtime/metrics every monitorTick and decides who is measured and who is charged.
// Workers measure themselves (memory.go); the monitor never touches a realm.
//
//   - A worker with a budget is asked for a new measurement once the process heap grew, since its last one, by
//     half of what is left of its budget — but at least an eighth of the heap and 1 MiB, so that the cost of
//     measuring (linear in the worker's size) is amortised over allocation: a worker well below its budget is
//     measured rarely, one nearing it more often.
//   - Fallback: a worker asked for a measurement that stays inside one task for monitorGrace without reaching a
//     checkpoint (a loop that allocates without calling a function, `for(;;) a[i++] = {}`) is charged the growth
//     of the live heap since its last measurement, confirmed by a collection; past its budget it is terminated.
//   - Process cap: when the heap reaches 90 % of SetMemoryLimit's cap, every worker is asked for a measurement;
//     once all answered (or monitorGrace passed: a busy worker that did not answer is charged as in the fallback),
//     and a collection confirms the heap is still at 90 %, the largest is terminated. After a termination the
//     monitor waits for that worker to end and collects before it charges anyone else.
//   - Host realms (hostmemory.go) take part in the cap only while a script runs in them: they are asked for a
//     measurement with the workers and, when one is the largest, its running entry is stopped with
//     ErrExecutionOutOfMemory. The monitor then waits for that entry to end. What the realm keeps (a global) is
//     the host's: while the live heap stays within half the headroom above what it was then, no one else is
//     terminated for it.

const (
	monitorTick  = 10 * time.Millisecond
	monitorGrace = 100 * time.Millisecond
	minTrigger   = 1 << 20
	creditTime   = 10 * time.Second // how long a terminated worker's memory is waited for
)

var monitor memMonitor

type memMonitor struct {
	limit atomic.Int64 // SetMemoryLimit's cap; 0: none
	on    atomic.Bool  // the goroutine runs

	mu       sync.Mutex
	budgeted int   // live workers with a budget
	goLimit  int64 // debug.SetMemoryLimit's value before SetMemoryLimit changed it; -1: not changed

	// The goroutine's own state.
	capSince                     int64   // a near-cap episode began (monoNow); 0: none
	victim                       *Worker // terminated by the monitor, not ended yet
	hostVictim                   *HostRealm
	hostVictimEntry              uint64 // the entry of hostVictim the monitor stopped
	credit, creditAt, creditLive int64  // the last victim's size, when it ended, the live heap then
	creditHost                   bool   // the last victim was a host realm: its memory may stay
	lastGC                       int64
	suspect                      *Worker // the fallback's candidate at the last collection, and its growth then
	suspectGrowth                int64
}

func init() { monitor.goLimit = -1 }

// SetMemoryLimit sets the process-wide memory cap, in bytes (0 or less: none). When the process's Go heap reaches
// 90 % of it, the worker with the largest measured heap is terminated with an ErrorOutOfMemory record (Join:
// ErrWorkerOutOfMemory); the host, its realms and the other workers go on. A host realm or C context running a
// script counts as a contributor too: when it is the largest, its script is stopped as TerminateExecution stops
// it and the entry returns ErrExecutionOutOfMemory; a realm with no script running is never touched. Unless the
// process already has a Go memory limit (GOMEMLIMIT or debug.SetMemoryLimit), SetMemoryLimit also sets Go's soft
// limit to the cap, so that the collector works harder as the heap nears it, and restores it when the cap is
// removed. See docs/limits.md.
func SetMemoryLimit(bytes int64) {
	bytes = max(bytes, 0)
	monitor.mu.Lock()
	defer monitor.mu.Unlock()
	monitor.limit.Store(bytes)
	switch {
	case bytes > 0 && monitor.goLimit >= 0:
		debug.SetMemoryLimit(bytes) // ours already: follow the new cap
	case bytes > 0:
		if cur := debug.SetMemoryLimit(-1); cur == math.MaxInt64 {
			monitor.goLimit = cur
			debug.SetMemoryLimit(bytes)
		}
	case monitor.goLimit >= 0:
		debug.SetMemoryLimit(monitor.goLimit)
		monitor.goLimit = -1
	}
	monitor.startLocked()
}

// MemoryLimit returns the cap SetMemoryLimit set, 0 for none.
func MemoryLimit() int64 { return monitor.limit.Load() }

func (m *memMonitor) addBudget() {
	m.mu.Lock()
	m.budgeted++
	m.startLocked()
	m.mu.Unlock()
}

func (m *memMonitor) dropBudget() {
	m.mu.Lock()
	m.budgeted--
	m.mu.Unlock()
}

// startLocked starts the goroutine if there is something to watch and it does not run.
func (m *memMonitor) startLocked() {
	if m.on.Load() || (m.budgeted == 0 && m.limit.Load() == 0) {
		return
	}
	m.on.Store(true)
	go m.run()
}

// run is the monitor's goroutine; it ends when nothing is left to watch.
func (m *memMonitor) run() {
	t := time.NewTicker(monitorTick)
	defer t.Stop()
	for range t.C {
		m.mu.Lock()
		if m.budgeted == 0 && m.limit.Load() == 0 {
			m.on.Store(false)
			m.capSince, m.victim, m.hostVictim, m.suspect, m.credit = 0, nil, nil, nil, 0
			m.mu.Unlock()
			return
		}
		m.mu.Unlock()
		m.tick()
	}
}

// tick is one look at the heap.
func (m *memMonitor) tick() {
	now := monoNow()
	if m.victim != nil {
		// Until the worker it terminated has ended (a native call it is in may finish first), its memory is still
		// there: charging anyone else now would terminate a second worker for the first one's heap.
		select {
		case <-m.victim.done:
			// Its realm is garbage once its host lets go of the worker (Release, JSWorkerRelease), which may
			// come a little later: until a collection shows the memory gone, or creditTime passed, the cap
			// terminates no one else.
			m.credit, m.creditAt = m.victim.mem.size.Load(), now
			m.victim = nil
			m.lastGC = 0
			m.collect(now)
			m.creditLive = int64(heapLive())
		default:
			return
		}
	}
	if h := m.hostVictim; h != nil {
		if h.mem.entries.Load() == m.hostVictimEntry {
			return // the entry it stopped is still unwinding (or in a native call)
		}
		m.hostVictim = nil
		m.credit, m.creditAt, m.creditHost = h.mem.size.Load(), now, true
		m.lastGC = 0
		m.collect(now)
		m.creditLive = int64(heapLive())
	}
	heap, live := int64(heapObjects()), int64(heapLive())
	ws := accountedWorkers()
	hs := liveHostRealms()
	limit := m.limit.Load()
	for _, w := range ws {
		w.mem.observe(now)
	}
	for _, h := range hs {
		h.mem.observe(heap)
	}
	var stuck []*Worker
	for _, w := range ws {
		a := &w.mem
		if w.opts.MaxHeapBytes <= 0 {
			continue
		}
		if a.wantSince.Load() == 0 {
			if a.measuredAt.Load() == 0 || measureDue(a, w.opts.MaxHeapBytes, heap, live) {
				request(w, now)
			}
			continue
		}
		// Stuck: the request waits, and the task that runs has run, for monitorGrace.
		if a.busyFor >= monitorGrace && time.Duration(now-a.wantSince.Load()) >= monitorGrace {
			stuck = append(stuck, w)
		}
	}
	if len(stuck) == 0 {
		m.suspect = nil
	}
	if len(stuck) > 0 && m.fallback(ws, hs, stuck, now) {
		return
	}
	if limit > 0 {
		m.capCheck(ws, hs, heap, limit, now)
	}
}

// measureDue tells whether a worker with budget b is due a new measurement: the live heap (as the last collection
// found it) grew by half of what is left of the budget since its last one, or the heap with its garbage grew by
// that much and by half of itself or by the whole budget, whichever is less — at least 1 MiB either way. Garbage
// alone thus costs a measurement at most about once per collection cycle or per budget's worth of allocation (a
// walk of a realm within its budget, so the cost per byte allocated stays bounded), and a worker far below its
// budget is measured rarely. Without the budget bound a large heap of other workers' garbage let a small-budget
// worker grow by half the heap before it was measured (an 8 MiB budget overshot to hundreds of MiB in the soak).
func measureDue(a *memAccount, b, heap, live int64) bool {
	step := a.step(b)
	return live-a.liveAt.Load() >= step || heap-a.heapAt.Load() >= max(step, min(heap/2, b))
}

// step is how much the heap may grow before a worker with budget b is measured again: half of what is left of its
// budget, at least minTrigger.
func (a *memAccount) step(b int64) int64 { return max((b-a.size.Load())/2, minTrigger) }

// request asks w for a measurement; a worker between tasks gets an empty task, after which it measures.
func request(w *Worker, now int64) {
	a := &w.mem
	a.wantSince.Store(now)
	a.cp.Want.Store(true)
	if !a.busy() {
		w.ev.Post(func() {})
	}
}

// fallback charges a stuck worker (inside one task, not reaching a checkpoint) with the growth of the live heap
// since its last measurement. The heap has no owner's name on it, so the growth is charged only when that worker
// is the only one inside a task, and only when two collections at least monitorGrace apart both show it past the
// worker's remaining budget and still growing: a host allocating for itself while a worker spins without calling
// a function is the one case this can misjudge (docs/limits.md). It reports whether it terminated the worker.
func (m *memMonitor) fallback(ws []*Worker, hs []*HostRealm, stuck []*Worker, now int64) bool {
	if len(stuck) != 1 {
		m.suspect = nil
		return false
	}
	w := stuck[0]
	for _, o := range ws {
		if o != w && o.mem.busy() {
			m.suspect = nil
			return false // another worker runs too: the growth could be its
		}
	}
	for _, h := range hs {
		if h.mem.busy() {
			m.suspect = nil
			return false // a host realm runs a script: the growth could be its
		}
	}
	if !m.collect(now) {
		return false
	}
	a := &w.mem
	grown := int64(heapLive()) - a.heapAt.Load()
	if grown <= w.opts.MaxHeapBytes-a.size.Load() {
		m.suspect = nil
		return false
	}
	if m.suspect != w || grown <= m.suspectGrowth {
		m.suspect, m.suspectGrowth = w, grown
		return false
	}
	m.suspect = nil
	a.size.Store(a.size.Load() + grown)
	m.kill(w, memHitBudget, now)
	return true
}

// capCheck handles the process cap: at 90 % of it every worker, and every host realm running a script, measures;
// then the largest is terminated (a host realm: its running entry is stopped).
func (m *memMonitor) capCheck(ws []*Worker, hs []*HostRealm, heap, limit int64, now int64) {
	near := limit / 10 * 9
	if m.capSince == 0 {
		if heap < near {
			return
		}
		m.capSince = now
		for _, w := range ws {
			if w.mem.wantSince.Load() == 0 && w.mem.hit.Load() == 0 {
				request(w, now)
			}
		}
		for _, h := range hs {
			if h.mem.busy() {
				h.mem.cp.Want.Store(true) // measured at its next guarded call; never between entries
			}
		}
		return
	}
	fresh := true
	for _, w := range ws {
		if w.mem.measuredAt.Load() < m.capSince && w.mem.hit.Load() == 0 && !w.isTerminating() {
			fresh = false
		}
	}
	for _, h := range hs {
		if h.mem.busy() && h.mem.measuredAt.Load() < m.capSince {
			fresh = false
		}
	}
	if !fresh && time.Duration(now-m.capSince) < monitorGrace {
		return
	}
	since := m.capSince
	m.capSince = 0
	m.lastGC = 0 // the confirmation must collect
	m.collect(now)
	live := int64(heapLive())
	if m.credit > 0 {
		if live >= m.creditLive-m.credit/2 && m.creditHolds(live, limit-near, now) {
			return // the last victim's memory is not gone yet: no second termination for it
		}
		m.credit = 0 // gone, or its host keeps it
	}
	if live < near {
		return // garbage: the collection freed enough
	}
	var pick *Worker
	var pickHost *HostRealm
	var pickEntry uint64
	var best int64
	for _, w := range ws {
		a := &w.mem
		if a.hit.Load() != 0 || w.isTerminating() {
			continue
		}
		score := a.size.Load()
		if a.measuredAt.Load() < since && a.busy() {
			score += max(0, live-a.heapAt.Load()) // it did not answer: charged the growth since its measurement
		}
		if (pick == nil && pickHost == nil) || score > best {
			pick, best = w, score
		}
	}
	for _, h := range hs {
		a := h.mem
		entry := a.entries.Load()
		if entry%2 == 0 || h.entryStopped() {
			continue // no script runs: never charged
		}
		score := a.size.Load()
		if a.measuredAt.Load() < since {
			score += max(0, live-a.base()) // it did not answer: charged the growth since it was last seen
		}
		if (pick == nil && pickHost == nil) || score > best {
			pick, pickHost, pickEntry, best = nil, h, entry, score
		}
	}
	switch {
	case best < limit/100:
	case pickHost != nil:
		pickHost.mem.size.Store(max(best, pickHost.mem.size.Load()))
		if pickHost.memStop(pickEntry) {
			m.hostVictim, m.hostVictimEntry = pickHost, pickEntry
		}
	case pick != nil:
		pick.mem.size.Store(best)
		m.kill(pick, memHitCap, now)
	}
}

// creditHolds reports whether the last victim's credit still spares everyone else: a worker's for creditTime
// after it ended (its host may release it late); a host realm's as long as the live heap has not grown by half
// the headroom above the cap's 90 % since (what the realm keeps is its host's, but growth is someone's).
func (m *memMonitor) creditHolds(live, headroom, now int64) bool {
	if m.creditHost {
		return live < m.creditLive+headroom/2
	}
	return time.Duration(now-m.creditAt) < creditTime
}

func (m *memMonitor) kill(w *Worker, reason int32, now int64) {
	w.memKill(reason)
	m.victim = w
}

// collect runs a collection unless one ran in the last monitorGrace; it reports whether the live heap is fresh.
func (m *memMonitor) collect(now int64) bool {
	if m.lastGC != 0 && time.Duration(now-m.lastGC) < monitorGrace {
		return false
	}
	runtime.GC()
	m.lastGC = monoNow()
	return true
}

// accountedWorkers returns the live workers.
func accountedWorkers() []*Worker {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	ws := make([]*Worker, 0, len(registry.live))
	for _, w := range registry.live {
		ws = append(ws, w)
	}
	return ws
}

// heapObjects is the bytes of the Go heap occupied by objects, live or not yet collected; heapLive the live bytes
// the last collection found.
func heapObjects() uint64 { return readMetric("/memory/classes/heap/objects:bytes") }
func heapLive() uint64    { return readMetric("/gc/heap/live:bytes") }

func readMetric(name string) uint64 {
	s := [1]metrics.Sample{{Name: name}}
	metrics.Read(s[:])
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
