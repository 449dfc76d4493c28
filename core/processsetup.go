package core

import (
	"fmt"
	"sync/atomic"

	"github.com/dop251/goja"
)

// processSetup is the process-wide setup (SetProcessSetup), or nil.
var processSetup atomic.Pointer[func(*Worker, *goja.Runtime) error]

// SetProcessSetup sets a setup that runs for every worker started afterwards
// whose options do not say NoProcessSetup, after Options.Setup: workers
// created from JavaScript (Worker, worker_threads, nested workers) included.
// It runs on the worker's thread before its script; an error ends the worker
// as an error from Options.Setup does (a JavaScript creator sees an 'error'
// event). Nil removes it. It may be called from any goroutine.
func SetProcessSetup(fn func(w *Worker, rt *goja.Runtime) error) {
	if fn == nil {
		processSetup.Store(nil)
		return
	}
	processSetup.Store(&fn)
}

// runProcessSetup runs the process-wide setup for w, unless w opted out.
func (w *Worker) runProcessSetup(rt *goja.Runtime) error {
	if w.opts.NoProcessSetup {
		return nil
	}
	p := processSetup.Load()
	if p == nil {
		return nil
	}
	if err := (*p)(w, rt); err != nil {
		return fmt.Errorf("jsworker: setup of worker %d: %w", w.id, err)
	}
	return nil
}

// AtEnd registers fn to run on the worker's thread when the worker ends:
// after its loop stopped and its child workers and ports were closed, before
// its realm is dropped, in the reverse order of registration. No JavaScript
// runs in the realm any more, but fn may still use its runtime. It must be
// called on the worker's thread (from a setup or a host function); a panic
// in fn is recovered and ignored.
func (w *Worker) AtEnd(fn func()) { w.atEnd = append(w.atEnd, fn) }

// runAtEnd runs the AtEnd functions.
func (w *Worker) runAtEnd() {
	for i := len(w.atEnd) - 1; i >= 0; i-- {
		func() {
			defer func() { _ = recover() }()
			w.atEnd[i]()
		}()
	}
	w.atEnd = nil
}
