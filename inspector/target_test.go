package inspector

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dop251/goja"
)

// Test targets. loopTarget is a worker in miniature: one goroutine owns a
// goja.Runtime and serves a task queue (asynchronous Run). syncTarget is a
// host main context: Run calls fn at once on the caller's goroutine. Both
// forward console.* and uncaught exceptions of `exec` to their sessions the
// way core does.

var lastContextID atomic.Int64

func testContext(fixedID int) ContextInfo {
	id := fixedID
	if id == 0 {
		id = int(lastContextID.Add(1)) + 1000
	}
	return ContextInfo{ID: id, Name: "test", Origin: "", UniqueID: "test-context"}
}

// hub holds the sessions of a test target and installs the realm's console.
type hub struct {
	mu       sync.Mutex
	sessions []*Session
}

func (h *hub) add(s *Session) {
	h.mu.Lock()
	h.sessions = append(h.sessions, s)
	h.mu.Unlock()
}

func (h *hub) each(fn func(*Session)) {
	h.mu.Lock()
	ss := append([]*Session(nil), h.sessions...)
	h.mu.Unlock()
	for _, s := range ss {
		fn(s)
	}
}

func (h *hub) installConsole(rt *goja.Runtime) {
	console := rt.NewObject()
	for _, level := range []string{"log", "info", "debug", "warn", "error"} {
		console.Set(level, func(call goja.FunctionCall) goja.Value {
			h.each(func(s *Session) { s.ConsoleAPICalled(rt, level, call.Arguments) })
			return goja.Undefined()
		})
	}
	rt.Set("console", console)
}

// exec runs src as the program would (not as a command) and reports what it
// throws as an uncaught exception.
func (h *hub) exec(rt *goja.Runtime, src string) error {
	_, err := rt.RunScript("test.js", src)
	var ex *goja.Exception
	if errors.As(err, &ex) {
		line, col := 0, 0
		if st := ex.Stack(); len(st) > 0 {
			line, col = st[0].Position().Line, st[0].Position().Column
		}
		h.each(func(s *Session) { s.ExceptionThrown(rt, ex.Value(), "Uncaught", "test.js", line, col) })
	}
	return err
}

type loopTarget struct {
	hub
	ctx  ContextInfo
	dbg  *Debugger     // the loop target is inspectable: scripts run with `run` are instrumented
	rt   *goja.Runtime // owned by the loop goroutine
	mu   sync.Mutex
	jobs []func(*goja.Runtime)
	stop bool
	wake chan struct{}
	done chan struct{}
}

// newLoopTarget starts a target whose loop ends with the test (or end()).
func newLoopTarget(t testing.TB, fixedID int) *loopTarget {
	lt := &loopTarget{ctx: testContext(fixedID), dbg: NewDebugger(), rt: goja.New(), wake: make(chan struct{}, 1), done: make(chan struct{})}
	go lt.loop()
	t.Cleanup(lt.end)
	return lt
}

func (lt *loopTarget) Context() ContextInfo { return lt.ctx }

func (lt *loopTarget) Run(fn func(*goja.Runtime)) bool {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.stop {
		return false
	}
	lt.jobs = append(lt.jobs, fn)
	select {
	case lt.wake <- struct{}{}:
	default:
	}
	return true
}

func (lt *loopTarget) loop() {
	defer close(lt.done)
	rt := lt.rt
	lt.installConsole(rt)
	if err := lt.dbg.Install(rt, lt); err != nil {
		panic(err)
	}
	for {
		fn, stop := lt.pop()
		if stop {
			// Queued jobs are dropped, as a terminated worker may drop them.
			lt.each(func(s *Session) { s.TargetClosed() })
			return
		}
		if fn != nil {
			fn(rt)
		} else {
			<-lt.wake
		}
	}
}

// pop takes the oldest job, one at a time: a job that pauses in the debugger
// serves the later ones from ServePaused.
func (lt *loopTarget) pop() (func(*goja.Runtime), bool) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.stop {
		return nil, true
	}
	if len(lt.jobs) == 0 {
		return nil, false
	}
	fn := lt.jobs[0]
	lt.jobs = lt.jobs[1:]
	return fn, false
}

func (lt *loopTarget) Debugger() *Debugger { return lt.dbg }

// ServePaused runs jobs until resumed, or returns when the target ends.
func (lt *loopTarget) ServePaused(resumed func() bool) {
	for !resumed() {
		fn, stop := lt.pop()
		if stop {
			return
		}
		if fn != nil {
			fn(lt.rt)
		} else {
			<-lt.wake
		}
	}
}

// start compiles src instrumented as "test.js" and runs it on the loop,
// without waiting (it may pause).
func (lt *loopTarget) start(t testing.TB, src string) {
	lt.Run(func(rt *goja.Runtime) {
		prg, err := lt.dbg.Compile("test.js", src)
		if err == nil {
			_, err = rt.RunProgram(prg)
		}
		if err != nil {
			t.Errorf("start: %v", err)
		}
	})
}

// attach opens a session on the target.
func (lt *loopTarget) attach() *Session {
	s := NewSession(lt)
	lt.add(s)
	return s
}

// do runs fn on the loop and waits for it.
func (lt *loopTarget) do(fn func(*goja.Runtime)) bool {
	ran := make(chan struct{})
	if !lt.Run(func(rt *goja.Runtime) { defer close(ran); fn(rt) }) {
		return false
	}
	select {
	case <-ran:
		return true
	case <-lt.done:
		return false
	}
}

// exec runs src on the loop as the program would.
func (lt *loopTarget) exec(src string) (err error) {
	lt.do(func(rt *goja.Runtime) { err = lt.hub.exec(rt, src) })
	return err
}

// end stops the loop; the loop calls TargetClosed on every session. Waits.
func (lt *loopTarget) end() {
	lt.mu.Lock()
	lt.stop = true
	lt.mu.Unlock()
	select {
	case lt.wake <- struct{}{}:
	default:
	}
	<-lt.done
}

// syncTarget is a host realm: commands run on the dispatching goroutine.
type syncTarget struct {
	hub
	ctx    ContextInfo
	rt     *goja.Runtime
	closed atomic.Bool
}

func newSyncTarget() *syncTarget {
	st := &syncTarget{ctx: testContext(0), rt: goja.New()}
	st.installConsole(st.rt)
	return st
}

func (st *syncTarget) Context() ContextInfo { return st.ctx }

func (st *syncTarget) Run(fn func(*goja.Runtime)) bool {
	if st.closed.Load() {
		return false
	}
	fn(st.rt)
	return true
}

func (st *syncTarget) attach() *Session {
	s := NewSession(st)
	st.add(s)
	return s
}

func (st *syncTarget) exec(src string) error { return st.hub.exec(st.rt, src) }

func (st *syncTarget) end() {
	st.closed.Store(true)
	st.each(func(s *Session) { s.TargetClosed() })
}
