package core_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
)

// long bounds every wait in these tests; none of them should come close.
const long = 20 * time.Second

func spawn(t *testing.T, src string, opts core.Options) *core.Worker {
	t.Helper()
	w, err := core.Spawn(src, opts)
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	t.Cleanup(w.Release)
	return w
}

func post(t *testing.T, w *core.Worker, rt *goja.Runtime, v any) {
	t.Helper()
	if err := w.PostMessage(rt, rt.ToValue(v)); err != nil {
		t.Fatalf("PostMessage(%v): %v", v, err)
	}
}

func recv(t *testing.T, w *core.Worker, rt *goja.Runtime) goja.Value {
	t.Helper()
	v, err := w.Receive(rt, long)
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	return v
}

func join(t *testing.T, w *core.Worker) {
	t.Helper()
	if err := w.Join(long); err != nil {
		t.Fatalf("Join: %v", err)
	}
	if s := w.State(); s != core.StateClosed {
		t.Fatalf("state after Join = %v", s)
	}
}

// errorSink collects a worker's error records.
type errorSink struct {
	ch chan core.ErrorRecord
}

func newErrorSink() *errorSink { return &errorSink{ch: make(chan core.ErrorRecord, 16)} }

func (s *errorSink) handle(r core.ErrorRecord) { s.ch <- r }

func (s *errorSink) next(t *testing.T) core.ErrorRecord {
	t.Helper()
	select {
	case r := <-s.ch:
		return r
	case <-time.After(long):
		t.Fatal("no error record arrived")
		return core.ErrorRecord{}
	}
}

func TestWorker_FourWorkersReplyAndClose(t *testing.T) {
	rt := goja.New()
	const src = `onmessage = function (e) { postMessage({done: true, got: e.data}); close(); };`
	var ws []*core.Worker
	for i := range 4 {
		w := spawn(t, src, core.Options{Name: "w"})
		post(t, w, rt, i)
		ws = append(ws, w)
	}
	for i, w := range ws {
		v := recv(t, w, rt).(*goja.Object)
		if !v.Get("done").ToBoolean() || v.Get("got").ToInteger() != int64(i) {
			t.Fatalf("worker %d replied %v", i, v.Export())
		}
	}
	for _, w := range ws {
		join(t, w)
		if _, err := w.Receive(rt, 0); !errors.Is(err, core.ErrClosed) {
			t.Fatalf("Receive after the end = %v, want ErrClosed", err)
		}
	}
}

func TestWorker_Identity(t *testing.T) {
	a := spawn(t, "", core.Options{})
	b := spawn(t, "", core.Options{})
	if a.ID() == 0 || b.ID() <= a.ID() {
		t.Fatalf("ids %d, %d: want non-zero and increasing", a.ID(), b.ID())
	}
	if a.Kind() != core.KindScript {
		t.Fatalf("kind = %v", a.Kind())
	}
	a.Close()
	join(t, a)
}

func TestWorker_SyntaxErrorFailsSpawn(t *testing.T) {
	_, err := core.Spawn("let = ;", core.Options{})
	var syn *goja.CompilerSyntaxError
	if !errors.As(err, &syn) {
		t.Fatalf("Spawn = %v, want a *goja.CompilerSyntaxError", err)
	}
}

func TestWorker_TerminateInfiniteLoop(t *testing.T) {
	w := spawn(t, `postMessage("spinning"); for (;;) {}`, core.Options{})
	rt := goja.New()
	if v := recv(t, w, rt); v.String() != "spinning" {
		t.Fatalf("got %v", v)
	}
	w.Terminate()
	join(t, w)
}

func TestWorker_TerminateStopsEveryKindOfWait(t *testing.T) {
	tests := []struct{ name, src string }{
		{"blocked in a host function", `postMessage("in"); block();`},
		{"pending timers", `setInterval(function () {}, 1); setTimeout(function () {}, 1e9); postMessage("in");`},
		{"infinite microtask chain", `postMessage("in"); (function loop() { Promise.resolve().then(loop); })();`},
		{"idle", `postMessage("in");`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := spawn(t, tt.src, core.Options{Setup: func(w *core.Worker, rt *goja.Runtime) error {
				return rt.Set("block", func() { <-w.Terminating() })
			}})
			if v := recv(t, w, goja.New()); v.String() != "in" {
				t.Fatalf("got %v", v)
			}
			w.Terminate()
			join(t, w)
		})
	}
}

func TestWorker_NotifyHook(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = function (e) { postMessage(e.data); if (e.data < 0) close(); };`, core.Options{})
	var calls atomic.Int32
	w.SetNotify(func() { calls.Add(1) })
	for _, n := range []int{1, 2, 3, 4, -1} {
		post(t, w, rt, n)
	}
	join(t, w)
	for _, want := range []int64{1, 2, 3, 4, -1} {
		v, err := w.Receive(rt, 0)
		if err != nil || v.ToInteger() != want {
			t.Fatalf("Receive = %v, %v; want %d", v, err, want)
		}
	}
	if _, err := w.Receive(rt, 0); !errors.Is(err, core.ErrClosed) {
		t.Fatalf("Receive after the replies = %v, want ErrClosed", err)
	}
	if n := calls.Load(); n != 6 {
		t.Fatalf("notify called %d times, want 6 (5 replies + close)", n)
	}
}

func TestWorker_NotifyHookOnTerminate(t *testing.T) {
	w := spawn(t, `for (;;) {}`, core.Options{})
	var calls atomic.Int32
	w.SetNotify(func() { calls.Add(1) })
	w.Terminate()
	join(t, w)
	if n := calls.Load(); n != 1 {
		t.Fatalf("notify called %d times, want 1", n)
	}
	if _, err := w.Receive(goja.New(), 0); !errors.Is(err, core.ErrClosed) {
		t.Fatalf("Receive = %v, want ErrClosed (none)", err)
	}
}

func TestWorker_PostRejections(t *testing.T) {
	rt := goja.New()
	t.Run("closed", func(t *testing.T) {
		w := spawn(t, "", core.Options{})
		w.Close()
		join(t, w)
		if err := w.PostMessage(rt, rt.ToValue(1)); !errors.Is(err, core.ErrClosed) {
			t.Fatalf("got %v, want ErrClosed", err)
		}
		w.Release()
		if err := w.PostMessage(rt, rt.ToValue(1)); !errors.Is(err, core.ErrReleased) {
			t.Fatalf("after Release got %v, want ErrReleased", err)
		}
	})
	t.Run("frame limit", func(t *testing.T) {
		w := spawn(t, "", core.Options{Inbox: core.ChannelLimits{MaxFrameBytes: 64}})
		if err := w.PostMessage(rt, rt.ToValue(strings.Repeat("x", 100))); !errors.Is(err, core.ErrFrameTooLarge) {
			t.Fatalf("got %v, want ErrFrameTooLarge", err)
		}
		post(t, w, rt, "small")
	})
	t.Run("queue limit", func(t *testing.T) {
		w := spawn(t, `for (;;) {}`, core.Options{Inbox: core.ChannelLimits{MaxQueuedMessages: 2}})
		post(t, w, rt, 1)
		post(t, w, rt, 2)
		if err := w.PostMessage(rt, rt.ToValue(3)); !errors.Is(err, core.ErrQueueFull) {
			t.Fatalf("got %v, want ErrQueueFull", err)
		}
	})
	t.Run("uncloneable", func(t *testing.T) {
		w := spawn(t, "", core.Options{})
		fn, _ := rt.RunString("(function f() {})")
		var dce *clone.DataCloneError
		if err := w.PostMessage(rt, fn); !errors.As(err, &dce) {
			t.Fatalf("got %v, want a DataCloneError", err)
		}
	})
}

func TestWorker_PostMessageInsideWorkerThrows(t *testing.T) {
	rt := goja.New()
	const src = `
		var results = [];
		function attempt(v) { try { postMessage(v); return "ok"; } catch (e) { return e.name; } }
		results.push(attempt("x".repeat(1000)));  // over the outbox frame cap
		results.push(attempt(1));                 // fills the 1-message queue
		results.push(attempt(2));                 // queue full
		results.push(attempt(function () {}));    // not cloneable
		onmessage = function () { postMessage(results.join(",")); };
		attemptsDone();`
	done := make(chan struct{})
	w := spawn(t, src, core.Options{
		Outbox: core.ChannelLimits{MaxFrameBytes: 100, MaxQueuedMessages: 1},
		Setup: func(w *core.Worker, rt *goja.Runtime) error {
			return rt.Set("attemptsDone", func() { close(done) })
		},
	})
	<-done // the host must not make room in the outbox before the attempts
	if v := recv(t, w, rt); v.ToInteger() != 1 {
		t.Fatalf("first message = %v", v)
	}
	post(t, w, rt, "report")
	if v := recv(t, w, rt).String(); v != "RangeError,ok,RangeError,DataCloneError" {
		t.Fatalf("results = %s", v)
	}
}

func TestWorker_Timers(t *testing.T) {
	const src = `
		var log = [];
		setTimeout(function () { log.push("t20"); }, 20);
		setTimeout(function (a, b) { log.push("t10" + a + b); }, 10, "x", "y");
		for (var i = 0; i < 5; i++) setTimeout(function (i) { log.push("z" + i); }, 0, i);
		var never = setTimeout(function () { log.push("never"); }, 5);
		clearTimeout(never);
		var n = 0, iv = setInterval(function () { log.push("i" + (++n)); if (n === 3) clearInterval(iv); }, 1);
		setImmediate(function () { log.push("imm"); });
		clearImmediate(setImmediate(function () { log.push("never-imm"); }));
		queueMicrotask(function () { log.push("micro"); });
		setTimeout(function () { postMessage(log.join(" ")); }, 60);`
	w := spawn(t, src, core.Options{})
	got := recv(t, w, goja.New()).String()
	// Only the orders the loop guarantees are checked: a stalled machine
	// may let timers become due before the immediate runs, and the
	// interval's ticks interleave with the 10 ms timer by timing.
	before := func(a, b string) bool {
		i, j := strings.Index(got, a), strings.Index(got, b)
		return i >= 0 && j >= 0 && i < j
	}
	ok := strings.HasPrefix(got, "micro ") &&
		before("z0", "z1") && before("z1", "z2") && before("z2", "z3") && before("z3", "z4") &&
		before("z4", "t10xy") && before("t10xy", "t20") &&
		before("i1", "i2") && before("i2", "i3") && !strings.Contains(got, "i4") &&
		strings.Count(got, "imm") == 1 && !strings.Contains(got, "never")
	if !ok {
		t.Fatalf("timer log = %q", got)
	}
}

func TestWorker_CloseInsideHandlerDeliversQueued(t *testing.T) {
	rt := goja.New()
	gate := make(chan struct{})
	src := `wait(); onmessage = function (e) { postMessage(e.data); if (e.data === 1) close(); };`
	w := spawn(t, src, core.Options{Setup: func(w *core.Worker, rt *goja.Runtime) error {
		return rt.Set("wait", func() { <-gate })
	}})
	for i := 1; i <= 3; i++ {
		post(t, w, rt, i)
	}
	close(gate)
	for want := int64(1); want <= 3; want++ {
		if v := recv(t, w, rt); v.ToInteger() != want {
			t.Fatalf("got %v, want %d", v, want)
		}
	}
	join(t, w)
	if err := w.PostMessage(rt, rt.ToValue(4)); !errors.Is(err, core.ErrClosed) {
		t.Fatalf("post after close() = %v, want ErrClosed", err)
	}
}

func TestWorker_HostCloseDeliversQueued(t *testing.T) {
	rt := goja.New()
	gate := make(chan struct{})
	w := spawn(t, `wait(); onmessage = function (e) { postMessage(e.data * 10); };`, core.Options{
		Setup: func(w *core.Worker, rt *goja.Runtime) error { return rt.Set("wait", func() { <-gate }) },
	})
	post(t, w, rt, 1)
	post(t, w, rt, 2)
	w.Close()
	close(gate)
	if s := w.State(); s != core.StateClosing && s != core.StateClosed {
		t.Fatalf("state after Close = %v", s)
	}
	join(t, w)
	for _, want := range []int64{10, 20} {
		if v := recv(t, w, rt); v.ToInteger() != want {
			t.Fatalf("got %v, want %d", v, want)
		}
	}
}

func TestWorker_UncaughtErrorKeepsServing(t *testing.T) {
	rt := goja.New()
	sink := newErrorSink()
	src := "onmessage = function (e) {\n  if (e.data === 'boom') throw new TypeError('bad ' + e.data);\n  postMessage(e.data);\n};"
	w := spawn(t, src, core.Options{OnError: sink.handle, Filename: "handler.js"})
	post(t, w, rt, "boom")
	post(t, w, rt, "ok")
	if v := recv(t, w, rt).String(); v != "ok" {
		t.Fatalf("got %v", v)
	}
	r := sink.next(t)
	if r.Kind != core.ErrorUncaught || r.Name != "TypeError" || r.Message != "bad boom" || r.WorkerID != w.ID() {
		t.Fatalf("record = %+v", r)
	}
	if r.Filename != "handler.js" || r.Line != 2 || r.Column == 0 || !strings.Contains(r.Stack, "handler.js:2") {
		t.Fatalf("position = %s:%d:%d, stack %q", r.Filename, r.Line, r.Column, r.Stack)
	}
}

func TestWorker_ErrorSources(t *testing.T) {
	tests := []struct {
		name, src string
		kind      core.ErrorKind
		message   string
	}{
		{"top-level script", `throw new Error("top")`, core.ErrorUncaught, "top"},
		{"timer", `setTimeout(function () { throw new RangeError("tick"); }, 0)`, core.ErrorUncaught, "tick"},
		{"microtask", `queueMicrotask(function () { throw new Error("micro"); })`, core.ErrorUncaught, "micro"},
		{"unhandled rejection", `Promise.reject(new Error("nobody"))`, core.ErrorUnhandledRejection, "nobody"},
		{"non-Error value", `throw 42`, core.ErrorUncaught, "42"},
		{"stack overflow", `(function f() { f(); })()`, core.ErrorUncaught, "Maximum call stack size exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink := newErrorSink()
			w := spawn(t, "onmessage = function () { postMessage('alive'); };\n"+tt.src, core.Options{OnError: sink.handle, MaxCallStackSize: 100})
			r := sink.next(t)
			if r.Kind != tt.kind || (tt.message != "" && r.Message != tt.message) {
				t.Fatalf("record = %+v", r)
			}
			post(t, w, goja.New(), 0)
			if v := recv(t, w, goja.New()).String(); v != "alive" {
				t.Fatalf("got %v", v)
			}
		})
	}
}

func TestWorker_HandledRejectionIsNotReported(t *testing.T) {
	sink := newErrorSink()
	w := spawn(t, `var p = Promise.reject(new Error("x")); p.catch(function () {}); postMessage("done");`, core.Options{OnError: sink.handle})
	recv(t, w, goja.New())
	w.Close()
	join(t, w)
	select {
	case r := <-sink.ch:
		t.Fatalf("unexpected record %+v", r)
	default:
	}
}

func TestWorker_ErrorsGoToStderrWithoutHandler(t *testing.T) {
	var buf testsupport.SyncBuffer
	w := spawn(t, `throw new Error("loud")`, core.Options{Stderr: &buf})
	w.Close()
	join(t, w)
	if !strings.Contains(buf.String(), "Error: loud") {
		t.Fatalf("stderr = %q", buf.String())
	}
}

func TestWorker_EventListeners(t *testing.T) {
	rt := goja.New()
	const src = `
		var log = [];
		addEventListener("message", function a(e) { log.push("a:" + e.data + ":" + e.type + ":" + (e.target === self)); });
		onmessage = function (e) { log.push("on:" + e.data); };
		function b() { log.push("b"); }
		addEventListener("message", b);
		addEventListener("message", b); // duplicates are ignored
		addEventListener("message", { handleEvent: function () { log.push("obj"); } });
		addEventListener("message", function () { log.push("once"); }, { once: true });
		addEventListener("message", function (e) { if (e.data === 2) postMessage(log.join(" ")); });
		var first = true;
		addEventListener("message", function () { if (first) { first = false; removeEventListener("message", b); } });`
	w := spawn(t, src, core.Options{})
	post(t, w, rt, 1)
	post(t, w, rt, 2)
	want := "a:1:message:true on:1 b obj once a:2:message:true on:2 obj"
	if got := recv(t, w, rt).String(); got != want {
		t.Fatalf("log = %q\nwant  %q", got, want)
	}
}

func TestWorker_MessageErrorEvent(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessageerror = function (e) { postMessage("messageerror:" + e.data); };`, core.Options{})
	if err := w.PostFrame(clone.NewFrame([]byte{0xff, 0xff})); err != nil {
		t.Fatal(err)
	}
	if got := recv(t, w, rt).String(); got != "messageerror:null" {
		t.Fatalf("got %q", got)
	}
}

func TestWorker_Globals(t *testing.T) {
	rt := goja.New()
	var out testsupport.SyncBuffer
	const src = `
		console.log("hello %s", "console", 1);
		postMessage([typeof self, self === globalThis, name, typeof performance.now(), performance.now() >= 0,
			typeof setTimeout, typeof queueMicrotask, typeof postMessage, typeof close, onmessage].join(","));`
	w := spawn(t, src, core.Options{Name: "globals", Stdout: &out})
	if got := recv(t, w, rt).String(); got != "object,true,globals,number,true,function,function,function,function," {
		t.Fatalf("got %q", got)
	}
	if out.String() != "hello console 1\n" {
		t.Fatalf("console output %q", out.String())
	}
}

func TestWorker_DedicatedThread(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = function (e) { postMessage(tid()); };`, core.Options{
		DedicatedThread: true,
		Setup:           func(w *core.Worker, rt *goja.Runtime) error { return rt.Set("tid", gettid) },
	})
	var first int64
	for i := range 20 {
		post(t, w, rt, i)
		tid := recv(t, w, rt).ToInteger()
		if i == 0 {
			first = tid
		} else if tid != first {
			t.Fatalf("message %d ran on thread %d, the first on %d", i, tid, first)
		}
	}
}

func TestWorker_SetupErrorEndsWorker(t *testing.T) {
	sink := newErrorSink()
	w := spawn(t, `postMessage("ran")`, core.Options{OnError: sink.handle, Setup: func(*core.Worker, *goja.Runtime) error {
		return errors.New("no host today")
	}})
	if err := w.Join(long); err == nil || !strings.Contains(err.Error(), "no host today") {
		t.Fatalf("Join = %v", err)
	}
	if _, err := w.Receive(goja.New(), 0); !errors.Is(err, core.ErrClosed) {
		t.Fatalf("the script ran anyway: %v", err)
	}
	if r := sink.next(t); r.Kind != core.ErrorInternal {
		t.Fatalf("record = %+v", r)
	}
}

func TestWorker_RunOnLoop(t *testing.T) {
	w := spawn(t, `var secret = 41;`, core.Options{})
	got := make(chan int64, 1)
	if !w.RunOnLoop(func(rt *goja.Runtime) { got <- rt.Get("secret").ToInteger() + 1 }) {
		t.Fatal("RunOnLoop refused a live worker")
	}
	if v := <-got; v != 42 {
		t.Fatalf("got %d", v)
	}
	w.Terminate()
	join(t, w)
	if w.RunOnLoop(func(*goja.Runtime) {}) {
		t.Fatal("RunOnLoop accepted a task for an ended worker")
	}
}

// TestWorker_Hammer runs several workers concurrently, each echoing many
// messages, with a goroutine per worker on the host side.
func TestWorker_Hammer(t *testing.T) {
	workers, messages := 8, 2000
	if testing.Short() {
		workers, messages = 4, 200
	}
	var wg sync.WaitGroup
	for range workers {
		w := spawn(t, `onmessage = function (e) { postMessage(e.data + 1); };`, core.Options{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			rt := goja.New()
			for i := range messages {
				if err := w.PostMessage(rt, rt.ToValue(i)); err != nil {
					t.Error(err)
					return
				}
				v, err := w.Receive(rt, long)
				if err != nil || v.ToInteger() != int64(i+1) {
					t.Errorf("got %v, %v; want %d", v, err, i+1)
					return
				}
			}
			w.Terminate()
		}()
	}
	wg.Wait()
}

func TestWorker_PanickingHooksDoNotKillTheProcess(t *testing.T) {
	var stderr testsupport.SyncBuffer
	w := spawn(t, `onmessage = function (e) { postMessage(e.data); if (e.data === 2) throw new Error("after hook"); };`, core.Options{
		Stderr:  &stderr,
		OnError: func(core.ErrorRecord) { panic("error hook bug") },
	})
	w.SetNotify(func() { panic("notify hook bug") })
	rt := goja.New()
	post(t, w, rt, 1)
	post(t, w, rt, 2)
	post(t, w, rt, 3)
	for want := int64(1); want <= 3; want++ {
		if v := recv(t, w, rt); v.ToInteger() != want {
			t.Fatalf("got %v, want %d", v, want)
		}
	}
	w.Close()
	join(t, w)
	out := stderr.String()
	if !strings.Contains(out, "notify hook panicked") || !strings.Contains(out, "after hook") || !strings.Contains(out, "error handler panicked") {
		t.Fatalf("stderr = %q", out)
	}
}

func TestNewHostRealm(t *testing.T) {
	var out, errOut testsupport.SyncBuffer
	rt, err := core.NewHostRealm(core.HostRealmOptions{Stdout: &out, Stderr: &errOut})
	if err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunString(`
		console.log("from %s", "host");
		var order = [];
		queueMicrotask(function () { order.push("micro"); });
		queueMicrotask(function () { throw new Error("micro boom"); });
		order.push("sync");
		[typeof performance.now(), typeof postMessage, typeof setTimeout].join(",")`)
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != "number,undefined,function" { // timers fire when the host runs the realm's loop
		t.Fatalf("globals: %v", v)
	}
	if got := rt.Get("order").Export(); fmt.Sprint(got) != "[sync micro]" {
		t.Fatalf("order = %v", got)
	}
	if out.String() != "from host\n" || !strings.Contains(errOut.String(), "micro boom") {
		t.Fatalf("stdout %q, stderr %q", out.String(), errOut.String())
	}
	// A host realm talks to workers like any other.
	w := spawn(t, `onmessage = function (e) { postMessage(e.data * 2); };`, core.Options{})
	post(t, w, rt, 21)
	if got := recv(t, w, rt).ToInteger(); got != 42 {
		t.Fatalf("got %d", got)
	}
}

func TestWorker_Observe(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = function (e) {
		console.warn("seen", e.data);
		if (e.data === 2) throw new TypeError("observed");
		postMessage(e.data);
	};`, core.Options{Stderr: io.Discard, OnError: func(core.ErrorRecord) {}})
	type event struct{ kind, text string }
	events := make(chan event, 8)
	stop := w.Observe(&core.Observer{
		Console: func(rt *goja.Runtime, level string, args []goja.Value) {
			events <- event{"console", level + ":" + args[0].String() + " " + args[1].String()}
		},
		Error: func(rt *goja.Runtime, rec core.ErrorRecord, thrown goja.Value) {
			events <- event{"error", rec.Name + ":" + thrown.(*goja.Object).Get("message").String()}
		},
	})
	post(t, w, rt, 1)
	recv(t, w, rt)
	post(t, w, rt, 2)
	want := []event{{"console", "warn:seen 1"}, {"console", "warn:seen 2"}, {"error", "TypeError:observed"}}
	for _, e := range want {
		if got := <-events; got != e {
			t.Fatalf("got %+v, want %+v", got, e)
		}
	}
	stop()
	post(t, w, rt, 3)
	recv(t, w, rt)
	select {
	case e := <-events:
		t.Fatalf("observer called after stop: %+v", e)
	default:
	}
}

func TestWorker_StructuredCloneGlobal(t *testing.T) {
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunString(`var m = new Map([[1, {a: [1, 2]}]]); var c = structuredClone(m); c !== m && c.get(1).a[1] === 2`)
	if err != nil || !v.ToBoolean() {
		t.Fatalf("host structuredClone: %v %v", v, err)
	}
	w := spawn(t, `onmessage = function () {
		var d = new Date(5), c = structuredClone({d: d, s: new Set([d])});
		var err; try { structuredClone(function () {}); } catch (e) { err = e.name; }
		postMessage([c.d.getTime(), c.s.has(c.d), err].join(","));
	};`, core.Options{})
	post(t, w, rt, 0)
	if got := recv(t, w, rt).String(); got != "5,true,DataCloneError" {
		t.Fatalf("worker structuredClone: %s", got)
	}
}

func TestWorker_TransferMovesBuffers(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = function (e) {
		var u = new Uint8Array(e.data);
		u[0]++;
		postMessage(e.data, [e.data]);
		postMessage(e.data.byteLength); // detached in the worker now
	};`, core.Options{})
	buf, _ := rt.RunString(`var ab = new ArrayBuffer(8); new Uint8Array(ab)[0] = 41; ab`)
	if err := w.PostMessage(rt, buf, buf); err != nil {
		t.Fatal(err)
	}
	if n, _ := rt.RunString(`ab.byteLength`); n.ToInteger() != 0 {
		t.Fatalf("sender's buffer not detached after a successful post: byteLength %v", n)
	}
	back := recv(t, w, rt)
	rt.Set("back", back)
	if v, _ := rt.RunString(`back.byteLength + ":" + new Uint8Array(back)[0]`); v.String() != "8:42" {
		t.Fatalf("returned buffer: %v", v)
	}
	if v := recv(t, w, rt); v.ToInteger() != 0 {
		t.Fatalf("worker's buffer after transferring it back: byteLength %v", v)
	}
}

func TestWorker_RefusedTransferLeavesBufferIntact(t *testing.T) {
	rt := goja.New()
	w := spawn(t, ``, core.Options{Inbox: core.ChannelLimits{MaxQueuedMessages: 1}})
	w.Close()
	join(t, w)
	buf, _ := rt.RunString(`var ab = new ArrayBuffer(16); ab`)
	if err := w.PostMessage(rt, buf, buf); err == nil {
		t.Fatal("post to a closed worker succeeded")
	}
	if n, _ := rt.RunString(`ab.byteLength`); n.ToInteger() != 16 {
		t.Fatalf("a refused post detached the buffer: byteLength %v", n)
	}
	// The queue-full path, where serialization succeeds and the push fails.
	w2 := spawn(t, `for (;;) {}`, core.Options{Inbox: core.ChannelLimits{MaxQueuedMessages: 1}})
	post(t, w2, rt, 1)
	if err := w2.PostMessage(rt, buf, buf); !errors.Is(err, core.ErrQueueFull) {
		t.Fatalf("got %v, want ErrQueueFull", err)
	}
	if n, _ := rt.RunString(`ab.byteLength`); n.ToInteger() != 16 {
		t.Fatalf("a post refused by the queue detached the buffer: byteLength %v", n)
	}
}
