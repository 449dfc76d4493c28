package core

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/internal/loop"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// A HostRealm is a host's own realm (OpenHostRealm): its runtime, its event
// loop, and its inspector target. The loop holds the realm's timers
// (setTimeout, setInterval, setImmediate) and the events the realm's
// JS-created workers, MessagePorts and BroadcastChannels deliver into it —
// their messages, errors and exits — until the host runs them with
// RunPending on the realm's own goroutine. It runs on the same loop type as a
// worker (package internal/loop): each turn runs the tasks posted, then the
// immediates, then the timers due.
//
// RunOnLoop, InspectorSession and DetachInspectorSession may be called from
// any goroutine; everything else only on the goroutine that owns the realm.
type HostRealm struct {
	rt     *goja.Runtime
	opts   HostRealmOptions
	stderr io.Writer
	ev     *loop.Loop

	js     *Realm // owner goroutine only
	closed bool   // owner goroutine only: Close ran

	guard entryGuard // top-level entries, TerminateExecution, the time limit (hostlimits.go)
	mem   *hostMem   // the process cap's accounting (hostmemory.go)

	hostInspector // host_inspect.go
}

// A HostLoop is the event loop of a host realm, which is the realm itself.
//
// Deprecated: use HostRealm; HostLoop is the name HostLoopOf returned before
// the realm became a type.
type HostLoop = HostRealm

func newHostRealm(rt *goja.Runtime, opts HostRealmOptions, stderr io.Writer, mem *hostMem) *HostRealm {
	h := &HostRealm{rt: rt, opts: opts, stderr: stderr, mem: mem}
	// A turn runs the immediates before the timers due, as host realms always have: the host starts every turn.
	h.ev = loop.New(loop.Config{Macrotask: h.macrotask, ImmediatesFirst: true})
	h.pauseQ.wake = make(chan struct{}, 1)
	rememberHostRealm(h)
	return h
}

// hostRealms finds a host realm from its runtime (HostRealmOf) without any state on the realm's global object,
// where a script could reach it. Both sides are weak: the realm lives as long as its runtime does (the realm's
// globals hold it), and the entry goes when the runtime is collected.
var hostRealms struct {
	mu   sync.Mutex
	byRT map[weak.Pointer[goja.Runtime]]weak.Pointer[HostRealm]
}

func rememberHostRealm(h *HostRealm) {
	k := weak.Make(h.rt)
	hostRealms.mu.Lock()
	if hostRealms.byRT == nil {
		hostRealms.byRT = make(map[weak.Pointer[goja.Runtime]]weak.Pointer[HostRealm])
	}
	hostRealms.byRT[k] = weak.Make(h)
	hostRealms.mu.Unlock()
	runtime.AddCleanup(h.rt, func(k weak.Pointer[goja.Runtime]) {
		hostRealms.mu.Lock()
		delete(hostRealms.byRT, k)
		hostRealms.mu.Unlock()
	}, k)
}

// HostRealmOf returns the host realm whose runtime is rt (OpenHostRealm,
// NewHostRealm), or nil for any other runtime. It may be called from any
// goroutine.
func HostRealmOf(rt *goja.Runtime) *HostRealm { return hostLoopOf(rt) }

// HostLoopOf is HostRealmOf under its original name: the event loop of a
// realm made by NewHostRealm, or nil for any other runtime.
func HostLoopOf(rt *goja.Runtime) *HostLoop { return hostLoopOf(rt) }

func hostLoopOf(rt *goja.Runtime) *HostRealm {
	if rt == nil {
		return nil
	}
	hostRealms.mu.Lock()
	p, ok := hostRealms.byRT[weak.Make(rt)]
	hostRealms.mu.Unlock()
	if !ok {
		return nil
	}
	return p.Value()
}

func (h *HostRealm) realm() *Realm {
	if h.js == nil {
		h.js = newRealm(h.rt, h, nil)
	}
	return h.js
}

// RunOnLoop queues fn to run, with the realm's runtime, the next time the
// host calls RunPending. It may be called from any goroutine. It returns
// false, and fn will not run, once the realm is closed.
func (h *HostRealm) RunOnLoop(fn func(*goja.Runtime)) bool {
	return h.ev.Post(func() { fn(h.rt) })
}

// macrotask runs one callback of the realm's loop: a panic is written to
// Stderr, an exception is reported as a listener's, and a step of the
// debugger does not carry over into the next callback.
func (h *HostRealm) macrotask(fn func() error) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(h.stderr, "jsworker: internal error in a host realm event: %v\n", p)
		}
		if h.dbg != nil {
			h.dbg.TaskDone()
		}
	}()
	if err := h.Enter(fn); err != nil {
		h.reportErr(err)
	}
}

// reportErr writes an exception a listener threw to the realm's Stderr.
func (h *HostRealm) reportErr(err error) {
	if errors.Is(err, ErrExecutionTerminated) {
		fmt.Fprintf(h.stderr, "jsworker: a host realm event was stopped: %v\n", err)
		return
	}
	msg := err.Error()
	var ex *goja.Exception
	if errors.As(err, &ex) {
		msg = strings.TrimRight(ex.String(), "\n")
	}
	fmt.Fprintf(h.stderr, "jsworker: uncaught exception in an event listener: %s\n", msg)
}

// Alive reports whether the realm still has ref'd handles — pending timers,
// JS-created workers that have not exited, started MessagePorts, listening
// BroadcastChannels — which may deliver more events.
func (h *HostRealm) Alive() bool { return (h.js != nil && h.js.refs > 0) || h.ev.TimersPending() }

// RunPending runs the realm's pending events on the calling goroutine,
// which must own the realm, in the order they arrived. With timeout 0 it
// runs what is ready and returns. Otherwise it goes on running events as
// they arrive, waiting for them when none is ready, until nothing ref'd is
// left in the realm (Alive is false) or timeout has passed; a negative
// timeout waits as long as something is alive. It returns Alive: true when
// more events may come, so a host can call it again. Inspector commands that
// other goroutines dispatched to the realm's sessions run here too.
//
// An exception a listener throws is written to HostRealmOptions.Stderr
// (os.Stderr by default), as Node reports uncaught errors, and the next
// event runs.
func (h *HostRealm) RunPending(timeout time.Duration) bool {
	return h.ev.RunPending(timeout, h.Alive)
}

// Close ends the realm: pending events are dropped, workers the realm
// created are terminated and waited for, its MessagePorts are closed (their
// peers get 'close') and its BroadcastChannels closed; it is no longer
// listed for DevTools endpoints and every inspector session is told that its
// target ended. Call it on the realm's goroutine when the realm is
// discarded; it is idempotent.
func (h *HostRealm) Close() {
	if h.closed {
		return
	}
	h.closed = true
	h.ev.Close()
	h.ev.StopTimers() // none fires afterwards
	if h.js != nil {
		h.js.end()
	}
	h.endInspector()
	realmdata.Drop(h.rt) // the realm's per-realm state (its Realm, URL exports …) goes with it
}

var _ inspector.DebugTarget = hostTarget{}
