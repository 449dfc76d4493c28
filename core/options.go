package core

import (
	"io"
	"time"

	"github.com/dop251/goja"
)

// DefaultMaxCallStackSize is the call-stack depth a worker allows when
// Options.MaxCallStackSize is zero. goja's own default is unbounded, which
// lets runaway recursion eat the heap; Node allows roughly 10,000 frames.
const DefaultMaxCallStackSize = 10000

// Options configure a worker. The zero value is ready to use.
type Options struct {
	// Name is the worker's name, visible in the worker as the global `name`
	// and in error records.
	Name string

	// Filename names the script in stack traces and error positions. The
	// default is "worker-<id>.js".
	Filename string

	// Inbox limits the main→worker channel, Outbox the worker→main one.
	// Zero fields take the defaults (see ChannelLimits).
	Inbox, Outbox ChannelLimits

	// MaxCallStackSize bounds the JavaScript call-stack depth; exceeding it
	// throws a RangeError. Zero means DefaultMaxCallStackSize.
	MaxCallStackSize int

	// ExecutionTimeLimit bounds each task of the worker — its script, each
	// message delivery, each timer or immediate callback, each host task —
	// to this long; a task that runs longer terminates the worker, which
	// reports an ErrorTimeLimit record and Join returns ErrTimeLimit. Zero
	// means no limit. See docs/limits.md.
	ExecutionTimeLimit time.Duration

	// MaxHeapBytes is the worker's memory budget, in bytes: a worker whose
	// realm is measured above it is terminated, reports an ErrorOutOfMemory
	// record, and Join returns ErrWorkerOutOfMemory; the host and the other
	// workers go on. The measurement is an estimate made at checkpoints
	// (docs/limits.md, "Memory budgets"): a worker may overshoot its budget
	// briefly before it is stopped. Zero means no budget.
	MaxHeapBytes int64

	// DedicatedThread runs the worker on its own OS thread for its whole
	// life (runtime.LockOSThread), for hosts whose callbacks need a stable
	// thread. The default, a plain goroutine, starts faster and answers
	// messages many times faster; see docs/benchmarks.md.
	DedicatedThread bool

	// OnError receives every uncaught exception and unhandled rejection of
	// the worker, on the worker's thread, from the very first statement on.
	// With no handler (here or through SetErrorHandler) records are written
	// to Stderr.
	OnError func(ErrorRecord)

	// Stdout and Stderr receive console output and unhandled error reports.
	// Nil means os.Stdout and os.Stderr.
	Stdout, Stderr io.Writer

	// Inspectable compiles the worker's script instrumented for the
	// inspector's Debugger domain (breakpoints, pauses, stepping; see
	// docs/inspector.md). It costs time on every statement even with no
	// debugger attached, so it is off by default; JSWORKER_INSPECT=1 in the
	// environment the process starts with turns it on for every worker.
	// Other workers still serve the Runtime domain, and their
	// Debugger.enable answers an error naming this option.
	Inspectable bool

	// WaitForDebugger holds the worker after its globals are set up and
	// before its script runs, until an inspector session sends
	// Runtime.runIfWaitingForDebugger (Node's --inspect-brk). Meanwhile the
	// worker serves inspector commands only; messages and timers wait, and
	// Terminate still ends it. If the releasing session has the Debugger
	// domain enabled on an inspectable worker, the script then pauses at its
	// first statement (reason "Break on start").
	WaitForDebugger bool

	// WaitForDisconnect keeps a worker whose program ended — its loop ran
	// out of work — alive while an inspector session is attached, as Node
	// does: it prints "Waiting for the debugger to disconnect..." on Stderr
	// and serves inspector commands (the realm stays inspectable: Console
	// evaluations, object properties) until every session has detached or
	// Terminate is called. `jsworker run --inspect` sets it.
	WaitForDisconnect bool

	// ImportMetaURL, if not nil, makes a module worker's import.meta.url
	// from each module's resolved path (SpawnModule); nil keeps the resolved
	// path itself. StartProgram and worker_threads pass modules.FileURL, so
	// that `jsworker run` modules see file: URLs as in Node.
	ImportMetaURL func(resolved string) string

	// Extension, if not nil, adapts the worker's realm and loop for a layer
	// above core (see Extension); the Node layer sets it for Node-style
	// workers. It is used by this worker only.
	Extension Extension

	// Setup, if not nil, runs on the worker's thread after the worker
	// globals are installed and before the script runs. Embedders use it to
	// add host functions. A host function that blocks must also return
	// when the worker's Terminating channel is closed. An error from Setup
	// ends the worker before its script runs and is returned by Join.
	Setup func(w *Worker, rt *goja.Runtime) error

	// ConsoleWrite, if not nil, is offered every console line of the worker
	// first, on the worker's thread (see web.Config.ConsoleWrite); a line it
	// takes is not written to Stdout or Stderr.
	ConsoleWrite func(level, line string) bool

	// NoProcessSetup skips the process-wide setup (SetProcessSetup) for this
	// worker: its creator gave a setup of its own. Workers it creates from
	// JavaScript still run the process-wide setup.
	NoProcessSetup bool

	// ChildHook, if not nil, adjusts the options of every worker this
	// worker's JavaScript creates (Worker, worker_threads), once
	// Realm.ChildOptions has filled them in; the child inherits it unless
	// the hook sets another. The C API uses it to send a JavaScript-created
	// worker's console to its creator's console callback.
	ChildHook func(child *Options)

	// Set by Realm.ChildOptions for a worker created from JavaScript (childtargets.go): the target ID of the realm
	// that created it, and whether it waits for a debugger without breaking on start (a debugging session of the
	// creator asked for its new workers to be held, Node's NodeWorker.enable waitForDebuggerOnStart).
	parent    uint64
	childHold bool
}

// Kind tells how a worker was started.
type Kind uint8

// Worker kinds.
const (
	KindScript Kind = iota + 1 // started from a classic script
	KindModule                 // started from an ES module graph
)

func (k Kind) String() string {
	switch k {
	case KindScript:
		return "script"
	case KindModule:
		return "module"
	}
	return "unknown"
}

// State is a worker's life-cycle stage. It only moves forward.
type State int32

// Worker states.
const (
	StateStarting State = iota + 1 // created; the script has not finished its first run
	StateRunning                   // the script ran; the worker serves its event loop
	StateClosing                   // close or terminate was requested; the loop is ending
	StateClosed                    // the loop ended and the outbox is closed
)

func (s State) String() string {
	switch s {
	case StateStarting:
		return "starting"
	case StateRunning:
		return "running"
	case StateClosing:
		return "closing"
	case StateClosed:
		return "closed"
	}
	return "unknown"
}
