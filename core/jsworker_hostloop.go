package core

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// A HostLoop is the event loop of a host realm (NewHostRealm): its timers
// (setTimeout, setInterval, setImmediate), and the events the realm's
// JS-created workers, MessagePorts and BroadcastChannels deliver into it —
// their messages, errors and exits — wait in it until the host runs them
// with RunPending on the realm's own goroutine.
//
// RunOnLoop may be called from any goroutine; RunPending and Close only on
// the goroutine that owns the realm.
type HostLoop struct {
	rt     *goja.Runtime
	opts   HostRealmOptions
	stderr io.Writer

	mu     sync.Mutex
	tasks  []func(*goja.Runtime)
	closed bool
	wake   chan struct{} // capacity 1

	js     *Realm   // owner goroutine only
	timers timerSet // owner goroutine only (timers.go, jsworker_hosttimers.go)
}

// hostLoopKey is the private symbol under which a host realm keeps its loop.
var hostLoopKey = goja.NewSymbol("jsworker.core.HostLoop")

func newHostLoop(rt *goja.Runtime, opts HostRealmOptions, stderr io.Writer) *HostLoop {
	l := &HostLoop{rt: rt, opts: opts, stderr: stderr, wake: make(chan struct{}, 1)}
	_ = rt.GlobalObject().DefineDataPropertySymbol(hostLoopKey, rt.ToValue(l), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	return l
}

// HostLoopOf returns the event loop of a realm made by NewHostRealm, or nil
// for any other runtime. It must be called on the goroutine that owns rt.
func HostLoopOf(rt *goja.Runtime) *HostLoop { return hostLoopOf(rt) }

func hostLoopOf(rt *goja.Runtime) *HostLoop {
	v := rt.GlobalObject().GetSymbol(hostLoopKey)
	if v == nil {
		return nil
	}
	l, _ := v.Export().(*HostLoop)
	if l == nil || l.rt != rt {
		return nil
	}
	return l
}

func (l *HostLoop) realm() *Realm {
	if l.js == nil {
		l.js = newRealm(l.rt, l, nil)
	}
	return l.js
}

// RunOnLoop queues fn to run, with the realm's runtime, the next time the
// host calls RunPending. It returns false, and fn will not run, once the
// loop is closed.
func (l *HostLoop) RunOnLoop(fn func(*goja.Runtime)) bool {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return false
	}
	l.tasks = append(l.tasks, fn)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return true
}

// reportErr writes an exception a listener threw to the realm's Stderr.
func (l *HostLoop) reportErr(err error) {
	msg := err.Error()
	var ex *goja.Exception
	if errors.As(err, &ex) {
		msg = strings.TrimRight(ex.String(), "\n")
	}
	fmt.Fprintf(l.stderr, "jsworker: uncaught exception in an event listener: %s\n", msg)
}

// Alive reports whether the realm still has ref'd handles — pending timers,
// JS-created workers that have not exited, started MessagePorts, listening
// BroadcastChannels — which may deliver more events.
func (l *HostLoop) Alive() bool { return (l.js != nil && l.js.refs > 0) || l.timersPending() }

// RunPending runs the realm's pending events on the calling goroutine,
// which must own the realm, in the order they arrived. With timeout 0 it
// runs what is ready and returns. Otherwise it goes on running events as
// they arrive, waiting for them when none is ready, until nothing ref'd is
// left in the realm (Alive is false) or timeout has passed; a negative
// timeout waits as long as something is alive. It returns Alive: true when
// more events may come, so a host can call it again.
//
// An exception a listener throws is written to HostRealmOptions.Stderr
// (os.Stderr by default), as Node reports uncaught errors, and the next
// event runs.
func (l *HostLoop) RunPending(timeout time.Duration) bool {
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	for {
		ran := l.runTasks() + l.runTimers()
		if !l.Alive() && !l.hasTasks() {
			return false
		}
		if ran > 0 || l.hasTasks() {
			if timeout == 0 {
				continue
			}
			select {
			case <-deadline:
				return l.Alive() || l.hasTasks()
			default:
				continue
			}
		}
		if timeout == 0 {
			return true
		}
		var due <-chan time.Time
		var clock *time.Timer
		if d, ok := l.nextTimer(); ok {
			clock = time.NewTimer(d)
			due = clock.C
		}
		expired := false
		select {
		case <-l.wake:
		case <-due:
		case <-deadline:
			expired = true
		}
		if clock != nil {
			clock.Stop()
		}
		if expired {
			l.runTasks()
			l.runTimers()
			return l.Alive() || l.hasTasks()
		}
	}
}

func (l *HostLoop) hasTasks() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.tasks) > 0
}

// runTasks runs the tasks queued when it starts and returns how many ran.
func (l *HostLoop) runTasks() int {
	l.mu.Lock()
	batch := l.tasks
	l.tasks = nil
	l.mu.Unlock()
	for i, fn := range batch {
		l.runTask(fn)
		batch[i] = nil
	}
	return len(batch)
}

func (l *HostLoop) runTask(fn func(*goja.Runtime)) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(l.stderr, "jsworker: internal error in a host realm event: %v\n", p)
		}
	}()
	fn(l.rt)
}

// Close ends the loop: pending events are dropped, workers the realm
// created are terminated and waited for, its MessagePorts are closed (their
// peers get 'close') and its BroadcastChannels closed. Call it on the
// realm's goroutine when the realm is discarded; it is idempotent.
func (l *HostLoop) Close() {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed = true
	l.tasks = nil
	l.mu.Unlock()
	l.timers.reset() // none fires afterwards
	if l.js != nil {
		l.js.end()
	}
}
