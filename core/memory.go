package core

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Memory budgets (Options.MaxHeapBytes) and the process-wide cap (SetMemoryLimit): how a worker's memory is
// measured and when it is charged. The monitor that watches the process heap and decides is in memmonitor.go; the
// design, its accuracy and its cost are in docs/limits.md ("Memory budgets").
//
// A worker's size is the estimate gojainternal.ReachableBytes makes of its realm's graph. It is measured on the
// worker's own thread only, at checkpoints — the end of a task (message delivery, timer, host task, the script),
// and the call-depth guard every compiled function enters (internal/depthguard), so also in the middle of a long
// task — and only when the monitor asked for it (memAccount.cp.Want), because the process heap grew enough since
// the worker's last measurement to make a new one worth its cost. A worker over its budget is terminated there and
// then.

// ErrWorkerOutOfMemory is Join's answer for a worker terminated because it went over Options.MaxHeapBytes, or
// because it was the largest contributor when the process neared the cap of SetMemoryLimit.
var ErrWorkerOutOfMemory = errors.New("jsworker: worker terminated due to reaching memory limit: JS heap out of memory")

// OutOfMemoryMessage is the message of a worker's ErrorOutOfMemory record, and of the 'error' event of a
// worker_threads Worker that went over its resourceLimits: Node's text.
const OutOfMemoryMessage = "Worker terminated due to reaching memory limit: JS heap out of memory"

// Why a worker was charged (memAccount.hit).
const (
	memHitBudget = 1 // its own MaxHeapBytes
	memHitCap    = 2 // the largest contributor near the process cap
)

// A memAccount is a worker's side of the memory accounting. The atomics are shared with the monitor; depth is the
// worker's thread only.
type memAccount struct {
	cp depthguard.Checkpoint // Want: the monitor asks for a measurement; Run: measure (on the worker's thread)

	size       atomic.Int64  // the last measurement, in bytes; 0 before the first
	heapAt     atomic.Int64  // the process heap (heapObjects) when it was made
	liveAt     atomic.Int64  // the live heap the last collection found (heapLive), then
	measuredAt atomic.Int64  // when, in monoNow units; 0: never
	wantSince  atomic.Int64  // when the monitor asked for a measurement not made yet; 0: none pending
	tasks      atomic.Uint64 // incremented as an outermost task begins and as it ends: odd while one runs
	hit        atomic.Int32  // memHitBudget or memHitCap once the accounting terminated the worker
	depth      int           // nested macrotasks, as taskClock.depth
	builtAt    int64         // cp.Building when the last measurement was made (the worker's thread)
	watched    bool          // counted in monitor.budgeted (worker's thread: set in memStart, cleared in memEnd)

	// The monitor goroutine's own: the task it saw running at its last look, and since when.
	seenTask  uint64
	seenSince int64
	busyFor   time.Duration // how long the running task has been seen running; 0 between tasks
}

// memStart enrols the worker as its thread starts: a budget starts the monitor.
func (w *Worker) memStart() {
	if w.opts.MaxHeapBytes > 0 {
		w.mem.watched = true
		monitor.addBudget()
	}
}

// memTaskBegin and memTaskEnd bracket every macrotask: the monitor learns which workers are inside a task, and
// for how long (the fallback for a task that never reaches a checkpoint), and a measurement the monitor asked for
// is made as the outermost task ends. Without budgets or a cap they cost two atomic increments and a load.
func (w *Worker) memTaskBegin() {
	a := &w.mem
	if a.depth++; a.depth == 1 {
		a.tasks.Add(1)
	}
}

func (w *Worker) memTaskEnd() {
	a := &w.mem
	if a.depth--; a.depth > 0 {
		return
	}
	a.tasks.Add(1)
	if a.cp.Want.Load() {
		w.memCheckpoint()
	}
}

// busy reports whether the worker is inside a task; the monitor's look (observe) says for how long.
func (a *memAccount) busy() bool { return a.tasks.Load()%2 == 1 }

// observe updates busyFor at the monitor's look at time now.
func (a *memAccount) observe(now int64) {
	t := a.tasks.Load()
	switch {
	case t%2 == 0:
		a.busyFor = 0
	case t != a.seenTask:
		a.seenTask, a.seenSince, a.busyFor = t, now, 0
	default:
		a.busyFor = time.Duration(now - a.seenSince)
	}
}

// memCheckpoint measures the realm the monitor asked about and charges the result. It runs on the worker's thread
// only: at the end of a task, or inside one from the depth guard or the poll of a long builtin (a native call, so
// the realm is not being changed). What a builtin still running has built (cp.Building: JSON.parse's values so far)
// is not in the realm's graph yet, and is added.
func (w *Worker) memCheckpoint() {
	a := &w.mem
	if !a.cp.Want.Swap(false) || w.isTerminating() {
		return
	}
	size := gojainternal.ReachableBytes(w.rt) + a.cp.Building // with what a running native call has made so far
	a.size.Store(size)
	a.heapAt.Store(int64(heapObjects()))
	a.builtAt = a.cp.Building
	a.liveAt.Store(int64(heapLive()))
	a.measuredAt.Store(monoNow())
	a.wantSince.Store(0)
	if b := w.opts.MaxHeapBytes; b > 0 && size > b {
		w.memKill(memHitBudget)
	}
}

// memPoll runs on the worker's thread every depthguard.PollEvery function calls of a worker with a budget, and at
// the polls of the long builtins: when the process heap grew since its last measurement by as much as would make
// the monitor ask (measureDue's heap rule against the budget), or what the running builtins count as built did, it
// asks itself. A worker allocating fast is then measured at its own pace, not only when the monitor's 10 ms poll
// gets the CPU (under load, an 8 MiB budget overshot to hundreds of MiB waiting for it; a builtin's loop could end
// before the monitor asked, and a spread over the budget went unmeasured).
func (w *Worker) memPoll() {
	a := &w.mem
	if a.cp.Want.Load() {
		return
	}
	step := a.step(w.opts.MaxHeapBytes)
	if int64(heapObjects())-a.heapAt.Load() >= step || a.cp.Building-a.builtAt >= step {
		a.cp.Want.Store(true)
	}
}

// memKill terminates the worker for its memory; the first reason stays.
func (w *Worker) memKill(reason int32) {
	if w.mem.hit.CompareAndSwap(0, reason) {
		w.Terminate()
	}
}

// memEnd runs as the worker ends (finish): it leaves the monitor and reports an ErrorOutOfMemory record when the
// accounting terminated the worker.
func (w *Worker) memEnd() {
	a := &w.mem
	if a.watched {
		a.watched = false
		monitor.dropBudget()
	}
	reason := a.hit.Load()
	if reason == 0 || w.clock.hit.Load() {
		return // the time limit came first: its record stands
	}
	if w.fatal == nil {
		w.fatal = ErrWorkerOutOfMemory
	}
	var why string
	if reason == memHitBudget {
		why = fmt.Sprintf("its heap (about %s) went over its budget of %s", mib(a.size.Load()), mib(w.opts.MaxHeapBytes))
	} else {
		why = fmt.Sprintf("it was the largest contributor (about %s) when the process neared its memory limit of %s",
			mib(a.size.Load()), mib(int64(monitor.limit.Load())))
	}
	w.report(ErrorRecord{Kind: ErrorOutOfMemory, Name: "Error", Message: OutOfMemoryMessage + " (" + why + ")"})
}

// HeapEstimate returns the worker's size as last measured for its memory budget or the process cap, in bytes, and
// whether it was measured at all (only workers with a budget, or every worker while a cap is set, are).
func (w *Worker) HeapEstimate() (int64, bool) {
	return w.mem.size.Load(), w.mem.measuredAt.Load() != 0 || w.mem.hit.Load() != 0
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// epoch anchors monoNow: Go's monotonic clock, as nanoseconds, never 0 after start.
var epoch = time.Now()

func monoNow() int64 { return int64(time.Since(epoch)) + 1 }
