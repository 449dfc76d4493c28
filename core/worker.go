package core

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/internal/loop"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// inspectDefault is the process default of Options.Inspectable, read once
// from the environment at startup.
var inspectDefault = os.Getenv("JSWORKER_INSPECT") == "1"

// lastWorkerID numbers workers process-wide. IDs start at 1 and are never
// reused, so a stale ID can never name a newer worker.
var lastWorkerID atomic.Uint64

// A Worker runs one JavaScript realm (a goja.Runtime with its own heap and
// microtask queue) on its own thread of execution and its own event loop. It
// talks to its creator only through two channels of structured-clone frames:
// the inbox (main→worker) and the outbox (worker→main).
//
// The methods of Worker are safe to call from any goroutine. Those that take
// a *goja.Runtime (PostMessage, Receive) must be called on the goroutine that
// owns that runtime, which is the caller's realm, never the worker's.
//
// # Life cycle
//
// Spawn starts the worker; it runs its script, then serves messages, timers
// and host tasks until Close (graceful: queued messages are still delivered)
// or Terminate (immediate). Either way the loop ends, the outbox closes, and
// the notify hook fires one last time. Join waits for that. Release
// terminates, joins and frees the channels; a released worker may not be
// reused.
type Worker struct {
	id       uint64
	kind     Kind
	name     string
	filename string
	opts     Options
	prg      *goja.Program
	entry    *moduleEntry        // the entry module of a module worker (module.go); nil for a script
	dbg      *inspector.Debugger // nil unless the worker is inspectable
	rt       *goja.Runtime       // used only on the worker's goroutine, except rt.Interrupt

	inbox, outbox *Channel

	state          atomic.Int32
	closeRequested atomic.Bool
	terminated     atomic.Bool // set by Terminate before anything else
	released       atomic.Bool
	notifyHook     atomic.Pointer[func()]
	errorHook      atomic.Pointer[func(ErrorRecord)]
	obs            observers
	insp           inspectorSessions
	childHolds     atomic.Int32 // HoldNewChildren: sessions that want new JS-created workers held (childtargets.go)

	ev          *loop.Loop    // the event loop: tasks (RunOnLoop), timers, immediates, wake-up (loop.go)
	terminating chan struct{} // closed by Terminate
	termOnce    sync.Once
	done        chan struct{} // closed when the loop has ended
	fatal       error         // why the worker ended abnormally; written before done closes

	loopState            // touched only on the worker's goroutine
	clock     taskClock  // Options.ExecutionTimeLimit (tasklimit.go)
	mem       memAccount // Options.MaxHeapBytes, SetMemoryLimit (memory.go)

	// Both touched only on the worker's goroutine: ext is Options.Extension
	// (the Node layer's, for Node-style workers), js is made on first use of
	// the Worker, MessageChannel, MessagePort or BroadcastChannel APIs.
	ext Extension
	js  *Realm

	atEnd []func() // AtEnd (processsetup.go); the worker's thread only
}

// Spawn compiles source and starts a worker that runs it. A syntax error is
// returned at once, as a *goja.CompilerSyntaxError, and no worker is started.
func Spawn(source string, opts Options) (*Worker, error) {
	return spawn(source, opts, opts.Inbox.withDefaults(), opts.Outbox.withDefaults())
}

// spawn starts a worker whose channels have exactly the given limits.
func spawn(source string, opts Options, inbox, outbox ChannelLimits) (*Worker, error) {
	id := lastWorkerID.Add(1)
	filename := opts.Filename
	if filename == "" {
		filename = fmt.Sprintf("worker-%d.js", id)
	}
	var dbg *inspector.Debugger
	var prg *goja.Program
	var err error
	if opts.Inspectable || inspectDefault {
		dbg = inspector.NewDebugger()
		prg, err = dbg.Compile(filename, source)
	} else if opts.Filename != "" {
		prg, err = compileShared(filename, source) // one program for every worker of this text (programcache.go)
	} else {
		prg, err = CompileScript(filename, source, false) // a name of its own: nothing to share
	}
	if err != nil {
		return nil, err
	}
	w := newWorker(id, KindScript, filename, opts, dbg, inbox, outbox)
	w.prg = prg
	w.start()
	return w, nil
}

// newWorker makes a worker ready to run (go w.run()): its realm, channels
// and error hook.
func newWorker(id uint64, kind Kind, filename string, opts Options, dbg *inspector.Debugger, inbox, outbox ChannelLimits) *Worker {
	w := &Worker{
		id:          id,
		kind:        kind,
		name:        opts.Name,
		filename:    filename,
		opts:        opts,
		ext:         opts.Extension,
		dbg:         dbg,
		rt:          goja.New(),
		terminating: make(chan struct{}),
		done:        make(chan struct{}),
	}
	w.ev = w.newLoop()
	w.mem.cp.Run = w.memCheckpoint
	w.mem.cp.Limited = func() bool { return opts.MaxHeapBytes > 0 || MemoryLimit() > 0 }
	if opts.MaxHeapBytes > 0 {
		w.mem.cp.Poll = w.memPoll
	}
	if opts.OnError != nil {
		h := opts.OnError
		w.errorHook.Store(&h)
	}
	w.inbox = newChannel(inbox, w.wakeup)
	w.outbox = newChannel(outbox, w.fireNotify)
	w.state.Store(int32(StateStarting))
	return w
}

// ID returns the worker's process-wide identifier: non-zero, never reused.
func (w *Worker) ID() uint64 { return w.id }

// Kind tells whether the worker runs a script or a module graph.
func (w *Worker) Kind() Kind { return w.kind }

// Name returns Options.Name.
func (w *Worker) Name() string { return w.name }

// State returns the worker's current life-cycle state.
func (w *Worker) State() State { return State(w.state.Load()) }

// Inbox returns the main→worker channel, Outbox the worker→main one. Hosts
// that move raw frames (the C ABI, worker-to-worker forwarding) use them;
// PostMessage and Receive are the usual way in and out.
func (w *Worker) Inbox() *Channel  { return w.inbox }
func (w *Worker) Outbox() *Channel { return w.outbox }

// Terminating returns a channel that is closed when Terminate is called.
// Host functions installed through Options.Setup that block must select on
// it and return promptly when it closes.
func (w *Worker) Terminating() <-chan struct{} { return w.terminating }

// Done returns a channel that is closed when the worker's loop has ended and
// its outbox is closed.
func (w *Worker) Done() <-chan struct{} { return w.done }

// PostMessage clones v out of the caller's realm rt and queues it for the
// worker. ArrayBuffers in transfer are moved, not copied: they are detached
// in rt once the message is queued. It fails, nothing is queued and nothing
// is detached, with ErrClosed (the worker is
// closing or gone), ErrFrameTooLarge, ErrQueueFull, ErrOutOfMemory,
// ErrReleased, a *clone.DataCloneError, or the exception a getter threw.
func (w *Worker) PostMessage(rt *goja.Runtime, v goja.Value, transfer ...goja.Value) error {
	if w.released.Load() {
		return ErrReleased
	}
	if w.inbox.Closed() {
		return ErrClosed
	}
	return PostTo(w.inbox, rt, v, transfer)
}

// PostFrame queues an already serialized frame for the worker. The worker
// owns f afterwards; on error f has been released.
func (w *Worker) PostFrame(f *clone.Frame) error {
	if w.released.Load() {
		f.Release()
		return ErrReleased
	}
	return w.inbox.Push(f)
}

// Receive takes the oldest message the worker posted and deserializes it
// into the caller's realm rt. The timeout works as in Channel.Pop (0 polls,
// WaitForever waits). It returns ErrNoMessage when nothing arrived in time,
// ErrClosed once the worker has ended and every message was received, or the
// deserialization error (the frame is consumed either way).
func (w *Worker) Receive(rt *goja.Runtime, timeout time.Duration) (goja.Value, error) {
	f, err := w.ReceiveFrame(timeout)
	if err != nil {
		return nil, err
	}
	return clone.Deserialize(rt, f)
}

// ReceiveFrame is Receive without the deserialization: the caller owns the
// returned frame.
func (w *Worker) ReceiveFrame(timeout time.Duration) (*clone.Frame, error) {
	if w.released.Load() {
		return nil, ErrReleased
	}
	if f, ok := w.outbox.Pop(timeout); ok {
		return f, nil
	}
	if w.outbox.Closed() {
		if f, ok := w.outbox.Pop(0); ok { // pushed just before the close
			return f, nil
		}
		return nil, ErrClosed
	}
	return nil, ErrNoMessage
}

// SetNotify installs fn as the host hook, replacing any previous one
// atomically; nil removes it. fn is called on the worker's thread once for
// every message the worker posts, after the message can be received, and
// exactly once more when the outbox closes (also after Terminate). Messages
// posted before the hook was installed do not call it, so a host drains the
// outbox once, with Receive(…, 0), right after installing it. fn must not
// block for long: the worker waits for it. A panic in fn is recovered and
// reported as an ErrorInternal record; the worker goes on.
func (w *Worker) SetNotify(fn func()) {
	if fn == nil {
		w.notifyHook.Store(nil)
		return
	}
	w.notifyHook.Store(&fn)
}

func (w *Worker) fireNotify() {
	if fn := w.notifyHook.Load(); fn != nil {
		defer func() {
			if r := recover(); r != nil {
				w.report(ErrorRecord{Kind: ErrorInternal, Message: fmt.Sprintf("jsworker: notify hook panicked: %v", r)})
			}
		}()
		(*fn)()
	}
}

// SetErrorHandler installs fn (nil removes it) to receive the worker's error
// records on the worker's thread, replacing Options.OnError. Records raised
// while no handler is installed go to Options.Stderr.
func (w *Worker) SetErrorHandler(fn func(ErrorRecord)) {
	if fn == nil {
		w.errorHook.Store(nil)
		return
	}
	w.errorHook.Store(&fn)
}

// Terminate stops the worker as soon as possible: running JavaScript throws
// an uncatchable error at its next instruction, blocking waits are woken,
// pending timers and queued messages are dropped, and the inbox is closed.
// It returns without waiting; use Join. Terminate is idempotent and may be
// called from any goroutine, the worker's own included.
//
// Native builtins cannot be interrupted mid-call: a long Array.prototype.sort
// or a backtracking regular expression finishes its current call first (see
// docs/termination.md).
func (w *Worker) Terminate() {
	w.termOnce.Do(func() {
		w.advanceState(StateClosing)
		// The flag first, so the worker never sees the interruption without
		// knowing it was asked for; the interrupt before the channel, so a
		// wait woken by the channel finds the interrupt already set and no
		// further JavaScript runs.
		w.terminated.Store(true)
		w.rt.Interrupt(ErrTerminated)
		close(w.terminating)
		w.inbox.Close()
		w.wakeup()
	})
}

// Close asks the worker to end gracefully: it accepts no more messages,
// delivers those already queued, then ends. Timers do not fire after Close.
// It returns without waiting; use Join.
func (w *Worker) Close() {
	w.requestClose()
}

func (w *Worker) requestClose() {
	w.advanceState(StateClosing)
	w.closeRequested.Store(true)
	w.inbox.Close()
	w.wakeup()
}

// Join waits until the worker has ended, or timeout passes (a negative
// timeout waits forever). It returns nil when the worker ended by Close,
// close() or Terminate; the error that ended it abnormally (a Setup error or
// an internal error); or ErrJoinTimeout when the timeout passed first.
// Uncaught JavaScript exceptions do not end a worker: they are error records.
func (w *Worker) Join(timeout time.Duration) error {
	if timeout < 0 {
		<-w.done
		return w.fatal
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-w.done:
		return w.fatal
	case <-t.C:
		return ErrJoinTimeout
	}
}

// Release terminates the worker, waits for it to end, and releases every
// frame still queued in either direction. Afterwards PostMessage and Receive
// return ErrReleased. Release is idempotent. It must not be called from the
// worker's own thread (it would wait for itself).
func (w *Worker) Release() {
	if w.released.Swap(true) {
		return
	}
	w.Terminate()
	<-w.done
	w.inbox.Destroy()
	w.outbox.Destroy()
}

// advanceState moves the state forward to s; it never moves it back.
func (w *Worker) advanceState(s State) {
	for {
		cur := w.state.Load()
		if cur >= int32(s) || w.state.CompareAndSwap(cur, int32(s)) {
			return
		}
	}
}

// wakeup makes the worker's loop look for work again.
func (w *Worker) wakeup() { w.ev.Wake() }

// RunOnLoop queues fn to run on the worker's thread between macrotasks, with
// the worker's runtime. It returns false, and fn will not run, once the
// worker is terminating or has ended; a task queued just before Terminate
// may be dropped too. Values derived from the runtime must not escape fn.
func (w *Worker) RunOnLoop(fn func(*goja.Runtime)) bool {
	if w.isTerminating() {
		return false
	}
	return w.ev.Post(func() { fn(w.rt) }) // refused once finish closed the loop
}

func (w *Worker) isTerminating() bool { return w.terminated.Load() }

// start lists the worker for DevTools endpoints (registry.go) — before Spawn returns, so that a target printed or
// looked up right after is there — and starts its thread. It is unlisted when its loop ends (finish).
func (w *Worker) start() {
	w.memStart() // memory.go
	registerWorker(w)
	go w.run()
}

// run is the worker's thread.
func (w *Worker) run() {
	if w.opts.DedicatedThread {
		// Never unlocked: the OS thread exits with the goroutine, so no
		// other goroutine ever runs on it.
		runtime.LockOSThread()
	}
	if w.ext != nil {
		presizeStack(int(w.id)) // the 16 KiB the extension's setup needs, in one copy (stackgrow.go)
	}
	defer w.finish()
	if err := w.guard(w.setupRealm); err != nil || w.fatal != nil {
		if err != nil && !w.isTerminating() { // a Terminate during setup is no failure
			w.fatal = err
			w.report(ErrorRecord{Kind: ErrorInternal, Message: err.Error()})
		}
		return
	}
	if w.waitForDebugger(); w.isTerminating() {
		return
	}
	if w.entry != nil {
		if !w.runModules() { // a graph that fails to load or evaluate ends the worker (module.go)
			return
		}
	} else {
		w.macrotask(func() error {
			_, err := w.rt.RunProgram(w.prg)
			return err
		})
	}
	w.state.CompareAndSwap(int32(StateStarting), int32(StateRunning))
	w.loop()
	w.waitForDisconnect()
}

// finish ends the worker: whatever is still queued for it is dropped, the
// state becomes closed, and the outbox closes (firing the notify hook).
func (w *Worker) finish() {
	if r := recover(); r != nil {
		w.fatal = w.internalError(r)
	}
	w.reportTimeLimit()
	w.memEnd() // memory.go
	if w.clock.timer != nil {
		w.clock.timer.Stop()
	}
	w.ev.Close() // RunOnLoop refuses from now on; queued tasks are dropped
	w.ev.StopTimers()
	w.inbox.Destroy()
	if w.ext != nil {
		w.ext.End()
	}
	if w.js != nil {
		w.js.end() // child workers, ports, channels (realm.go)
	}
	w.runAtEnd() // processsetup.go
	realmdata.Drop(w.rt)
	w.endInspectorSessions()
	unregisterWorker(w)
	w.advanceState(StateClosed)
	w.outbox.Close()
	close(w.done)
}
