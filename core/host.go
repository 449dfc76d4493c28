package core

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/sharedmem"
)

// HostRealmOptions configure NewHostRealm. The zero value is ready to use.
type HostRealmOptions struct {
	// Stdout and Stderr receive console output and reports of errors thrown
	// by queueMicrotask callbacks. Nil means os.Stdout and os.Stderr.
	Stdout, Stderr io.Writer

	// MaxCallStackSize bounds the call-stack depth; zero means
	// DefaultMaxCallStackSize.
	MaxCallStackSize int

	// AllowAtomicsWait lets Atomics.wait block the host's thread (as Node's
	// main thread may); by default it throws a TypeError, as on a browser's
	// main thread.
	AllowAtomicsWait bool

	// Interrupt, if not nil, wakes Atomics.wait calls in the realm when it
	// is closed, and ends pending Atomics.waitAsync waiters: close it when
	// the realm is discarded.
	Interrupt <-chan struct{}

	// Schedule, if not nil, runs fn later on the realm's goroutine; it
	// settles Atomics.waitAsync promises. Without it waitAsync throws a
	// TypeError (the realm has no event loop).
	Schedule func(fn func(rt *goja.Runtime)) bool

	// OnConsole, if not nil, observes every console call (level "log",
	// "info", "debug", "warn" or "error", and the arguments) on the thread
	// making it, before it is printed. An inspector uses it.
	OnConsole func(level string, args []goja.Value)
}

// NewHostRealm returns a goja runtime set up as a host's own realm (a "main
// context"): the same standard globals a worker realm has — console,
// performance, queueMicrotask, structuredClone, SharedArrayBuffer, Atomics,
// URL, TextEncoder/TextDecoder, timers — but no postMessage, onmessage or
// close. It also has the Worker, MessageChannel, MessagePort and
// BroadcastChannel globals. A host realm has no thread of its own: its
// timers and what JS-created workers and ports deliver into it wait in its
// HostLoop (HostLoopOf) until the host runs them (RunPending). Values are cloned out of it by Worker.PostMessage and into
// it by Worker.Receive.
//
// Like every goja runtime, the result may be used by one goroutine at a
// time only.
func NewHostRealm(opts HostRealmOptions) (*goja.Runtime, error) {
	rt := goja.New()
	size := opts.MaxCallStackSize
	if size <= 0 {
		size = DefaultMaxCallStackSize
	}
	if err := depthguard.Install(rt, size); err != nil { // catchable RangeError past size (CompileScript)
		return nil, err
	}
	stderr := opts.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	loop := newHostLoop(rt, opts, stderr) // jsworker_hostloop.go: the realm's Worker global and its events
	loop.installHostTimers()              // jsworker_hosttimers.go: timers that fire in RunPending
	err := installStandardGlobals(rt, globalsConfig{
		stdout:     opts.Stdout,
		stderr:     stderr,
		timeOrigin: time.Now(),
		console:    opts.OnConsole,
		js:         loop.jsRealm,
		shared: sharedmem.RealmOptions{
			CanBlock:  opts.AllowAtomicsWait,
			Interrupt: opts.Interrupt,
			Schedule:  opts.Schedule,
		},
		report: func(v goja.Value) {
			msg := "undefined"
			if v != nil {
				rt.Try(func() {
					if o, ok := v.(*goja.Object); ok {
						if st := o.Get("stack"); st != nil && !goja.IsUndefined(st) {
							msg = st.String()
							return
						}
					}
					msg = v.String()
				})
			}
			fmt.Fprintf(stderr, "jsworker: uncaught exception in a queueMicrotask callback: %s\n", msg)
		},
	})
	if err != nil {
		return nil, err
	}
	return rt, nil
}
