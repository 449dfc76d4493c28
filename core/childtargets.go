package core

import (
	"sync"

	"github.com/dop251/goja"
)

// Child targets: what a debugging session of a worker needs to follow the program into the workers it creates
// (Node's NodeWorker domain, Chrome's Target auto-attach; package internal/workertargets). WorkerInfo.Parent names
// the creator, WatchWorkers reports workers as they start and end, and HoldNewChildren makes new workers wait for
// a debugger before their script runs.

var watchers struct {
	mu   sync.Mutex
	next int
	fns  map[int]func(WorkerInfo, bool)
}

// WatchWorkers calls fn(info, true) for every worker that starts from now on, as it is listed (before its script
// runs; on the goroutine that spawned it), and fn(info, false) as a listed worker ends (on its thread). fn must not
// block and must not call WatchWorkers or its stop function. The returned stop function ends the watch: once it has
// returned, fn is not called again.
func WatchWorkers(fn func(info WorkerInfo, started bool)) (stop func()) {
	watchers.mu.Lock()
	defer watchers.mu.Unlock()
	if watchers.fns == nil {
		watchers.fns = make(map[int]func(WorkerInfo, bool))
	}
	watchers.next++
	id := watchers.next
	watchers.fns[id] = fn
	return func() {
		watchers.mu.Lock()
		delete(watchers.fns, id)
		watchers.mu.Unlock()
	}
}

// notifyWatchers tells the watchers that w started or ended. The lock is held while they run, so that a stopped
// watch is never called after stop returned.
func notifyWatchers(w *Worker, started bool) {
	watchers.mu.Lock()
	defer watchers.mu.Unlock()
	if len(watchers.fns) == 0 {
		return
	}
	info := w.info()
	for _, fn := range watchers.fns {
		fn(info, started)
	}
}

// HoldNewChildren makes the workers that w's JavaScript creates from now on (web Worker, worker_threads) wait for
// a debugger before their script runs, as Options.WaitForDebugger does but without a break on start, while at least
// one hold is in force: on adds one, off removes one. It may be called from any goroutine.
func (w *Worker) HoldNewChildren(on bool) {
	if on {
		w.childHolds.Add(1)
	} else {
		w.childHolds.Add(-1)
	}
}

// ReleaseHeld releases w if it waits for a debugger because its creator's session held it (HoldNewChildren) — the
// session that was to release it detached — as Runtime.runIfWaitingForDebugger would, without a break on start. A
// worker not held that way is unaffected. It may be called from any goroutine and returns at once.
func (w *Worker) ReleaseHeld() {
	if !w.opts.childHold {
		return
	}
	w.RunOnLoop(func(*goja.Runtime) { w.debuggerReleased = true })
}
