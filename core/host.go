package core

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/sharedmem"
	"github.com/jsworker/jsworker/web"
)

// HostRealmOptions configure OpenHostRealm and NewHostRealm. The zero value
// is ready to use.
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
	// making it, before it is printed, and after the realm's inspector
	// sessions were sent the call (Runtime.consoleAPICalled).
	OnConsole func(level string, args []goja.Value)

	// ConsoleWrite, if not nil, is offered every console line first (see
	// web.Config.ConsoleWrite); a line it takes is not written to Stdout or
	// Stderr.
	ConsoleWrite func(level, line string) bool

	// ChildHook, if not nil, adjusts the options of every worker the
	// realm's JavaScript creates (see Options.ChildHook).
	ChildHook func(child *Options)

	// IsOwner, if not nil, reports whether the caller runs on the thread
	// that owns the realm. An inspector command dispatched there runs at
	// once, inside Session.Dispatch (a synchronous transport: the C ABI's
	// sessions); commands from anywhere else wait for the owner (see
	// HostRealm.InspectorSession). Nil: every command waits.
	IsOwner func() bool

	// OnInspectorIdle, if not nil, is called on the owner's thread while
	// the realm is paused in the debugger: before it waits for a command,
	// after each command it ran, and as the pause ends. A synchronous
	// transport hands the sessions' queued messages out there.
	OnInspectorIdle func()
}

// NewHostRealm is OpenHostRealm for callers that need only the runtime: the
// realm's loop is HostLoopOf(rt). It is the original form of the API and
// stays for them.
func NewHostRealm(opts HostRealmOptions) (*goja.Runtime, error) {
	h, err := OpenHostRealm(opts)
	if err != nil {
		return nil, err
	}
	return h.rt, nil
}

// OpenHostRealm makes a host's own realm (a "main context"): a goja runtime
// with the same standard globals a worker realm has — console, performance,
// queueMicrotask, structuredClone, SharedArrayBuffer, Atomics, URL,
// TextEncoder/TextDecoder, timers — but no postMessage, onmessage or close.
// It also has the Worker, MessageChannel, MessagePort and BroadcastChannel
// globals. A host realm has no thread of its own: its timers and what
// JS-created workers and ports deliver into it wait in its event loop until
// the host runs them (RunPending). Values are cloned out of it by
// Worker.PostMessage and into it by Worker.Receive. It can be inspected and
// debugged like a worker (SetInspectable, InspectorSession).
//
// Like every goja runtime, the realm may be used by one goroutine at a time
// only: the owner. Close it when it is discarded.
func OpenHostRealm(opts HostRealmOptions) (*HostRealm, error) {
	rt := goja.New()
	size := opts.MaxCallStackSize
	if size <= 0 {
		size = DefaultMaxCallStackSize
	}
	mem := newHostMem(func() int64 { return gojainternal.ReachableBytes(rt) })
	// Catchable RangeError past size (CompileScript); the process cap's measurements (hostmemory.go).
	if err := installDepthGuard(rt, size, &mem.cp); err != nil { // allocguard.go
		return nil, err
	}
	stderr := opts.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	h := newHostRealm(rt, opts, stderr, mem) // jsworker_hostloop.go: the realm's loop, its Worker global and its events
	web.InstallTimers(rt, rt.GlobalObject(), h.ev)
	err := web.Install(rt, web.Config{
		Stdout:       opts.Stdout,
		Stderr:       stderr,
		TimeOrigin:   time.Now(),
		Console:      h.onConsole, // host_inspect.go
		ConsoleWrite: opts.ConsoleWrite,
		Shared: sharedmem.RealmOptions{
			CanBlock:  opts.AllowAtomicsWait,
			Interrupt: opts.Interrupt,
			Schedule:  opts.Schedule,
			Abort:     h.entryAbort, // TerminateExecution ends a wait (hostlimits.go)
			// allocguard.go: sharedmem refuses the SharedArrayBuffer lengths the guard refuses
			MaxAllocation: MaxAllocationBytes,
		},
		Report: func(v goja.Value) {
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
	if err := installAllocGuard(rt); err != nil { // allocguard.go
		return nil, err
	}
	if err := installAPIGlobals(rt, h.realm); err != nil {
		return nil, err
	}
	return h, nil
}

// Runtime returns the realm's goja runtime. Use it on the owner's goroutine
// only.
func (h *HostRealm) Runtime() *goja.Runtime { return h.rt }

// RunScript runs src as a classic script named name in the realm and
// returns its completion value. While the realm is inspectable
// (SetInspectable) the script is compiled for the Debugger domain, so its
// breakpoints, steps and debugger statements pause here, on the calling
// goroutine, which serves the inspector until a session resumes. A syntax
// error is the SyntaxError exception goja's RunScript returns. Afterwards
// the inspector commands that arrived meanwhile from other goroutines run.
// Owner goroutine only.
//
// The script is a top-level entry (Enter): TerminateExecution and the
// execution time limit stop it, and it then returns ErrExecutionTerminated
// or ErrExecutionTimeLimit.
func (h *HostRealm) RunScript(name, src string) (v goja.Value, err error) {
	defer h.ServeInspector()
	err = h.Enter(func() error {
		v, err = h.runScript(name, src)
		return err
	})
	return v, err
}

func (h *HostRealm) runScript(name, src string) (goja.Value, error) {
	if !h.inspectable || h.dbg == nil {
		prg, err := CompileScript(name, src, false) // functions guarded: catchable stack overflow
		if err != nil {
			return depthguard.RunScript(h.rt, name, src) // a syntax error, reported as RunScript reports it
		}
		return h.rt.RunProgram(prg)
	}
	prg, err := h.dbg.Compile(name, src)
	if err != nil {
		// A syntax error: reported exactly as for a plain realm.
		return depthguard.RunScript(h.rt, name, src)
	}
	defer h.dbg.TaskDone()
	return h.rt.RunProgram(prg)
}
