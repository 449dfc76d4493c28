package core

import (
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
)

// An Observer watches a worker's realm: an inspector session uses one to
// report console calls and uncaught errors. Its functions run on the
// worker's thread, in the middle of the event that caused them; the values
// they receive belong to the worker's runtime and must not be used on any
// other goroutine. Either function may be nil.
type Observer struct {
	// Console is called for every console call, before it is printed, with
	// its level ("log", "info", "debug", "warn" or "error").
	Console func(rt *goja.Runtime, level string, args []goja.Value)
	// Error is called for every error record, before the error handler,
	// with the thrown value or rejection reason (nil for internal errors).
	Error func(rt *goja.Runtime, rec ErrorRecord, thrown goja.Value)
}

// observers is a worker's copy-on-write list of observers.
type observers struct {
	mu   sync.Mutex
	list atomic.Pointer[[]*Observer]
}

// Observe adds o to the worker's observers and returns the function that
// removes it. Both may be called from any goroutine; once stop returns, o is
// not called again — except when stop is called from inside one of o's own
// functions, where the current call finishes.
func (w *Worker) Observe(o *Observer) (stop func()) {
	w.obs.mu.Lock()
	defer w.obs.mu.Unlock()
	old := w.obs.list.Load()
	var next []*Observer
	if old != nil {
		next = append(next, *old...)
	}
	next = append(next, o)
	w.obs.list.Store(&next)
	return func() { w.unobserve(o) }
}

func (w *Worker) unobserve(o *Observer) {
	w.obs.mu.Lock()
	defer w.obs.mu.Unlock()
	old := w.obs.list.Load()
	if old == nil {
		return
	}
	next := make([]*Observer, 0, len(*old))
	for _, x := range *old {
		if x != o {
			next = append(next, x)
		}
	}
	w.obs.list.Store(&next)
}

func (w *Worker) observeConsole(level string, args []goja.Value) {
	if l := w.obs.list.Load(); l != nil {
		for _, o := range *l {
			if o.Console != nil {
				o.Console(w.rt, level, args)
			}
		}
	}
}

func (w *Worker) observeError(rec ErrorRecord) {
	if l := w.obs.list.Load(); l != nil {
		for _, o := range *l {
			if o.Error != nil {
				o.Error(w.rt, rec, rec.thrown)
			}
		}
	}
}
