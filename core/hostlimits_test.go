package core_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
)

// stopBound is how long a stop may take in these tests on a loaded machine; the figures they log are typically
// well under a millisecond.
const stopBound = 2 * time.Second

// openRealm opens a host realm with a started() function that closes the returned channel, so that a test stops a
// script only once it runs.
func openRealm(t *testing.T, opts core.HostRealmOptions) (*core.HostRealm, <-chan struct{}) {
	t.Helper()
	var errOut testsupport.SyncBuffer
	if opts.Stderr == nil {
		opts.Stderr = &errOut
	}
	h, err := core.OpenHostRealm(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	started := make(chan struct{}, 1)
	_ = h.Runtime().Set("started", func() {
		select {
		case started <- struct{}{}:
		default:
		}
	})
	return h, started
}

// terminateWhenStarted calls TerminateExecution from another goroutine once the script called started(), and
// returns when it was called.
func terminateWhenStarted(h *core.HostRealm, started <-chan struct{}) <-chan time.Time {
	at := make(chan time.Time, 1)
	go func() {
		<-started
		at <- time.Now()
		h.TerminateExecution()
	}()
	return at
}

// Scripts that spin are stopped from another goroutine: neither catch nor finally runs, the call reports
// ErrExecutionTerminated promptly, and the realm runs the next script normally.
func TestHostRealm_TerminateExecution(t *testing.T) {
	cases := map[string]string{
		"loop":             `started(); for (;;) {}`,
		"try/catch":        `try { started(); for (;;) {} } catch (e) { globalThis.caught = true } finally { globalThis.fin = true }`,
		"microtasks":       `started(); (function f() { Promise.resolve().then(f) })()`,
		"slow comparator":  `started(); var a = []; for (var i = 0; i < 1e5; i++) a.push(i); a.sort(function (x, y) { for (var j = 0; j < 1e4; j++); return y - x })`,
		"nested functions": `function f(n) { if (n === 0) { started(); for (;;) {} } return f(n - 1) } f(50)`,
	}
	h, started := openRealm(t, core.HostRealmOptions{})
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			runTerminated(t, h, started, name, src)
			v, err := h.RunScript("next.js", `String(globalThis.caught) + String(globalThis.fin) + (6 * 7)`)
			if err != nil || v.String() != "undefinedundefined42" {
				t.Fatalf("the next script = %v, %v", v, err)
			}
		})
	}
}

// TerminateExecution while no script runs does nothing: the next script runs to its end.
func TestHostRealm_TerminateWhileIdle(t *testing.T) {
	h, _ := openRealm(t, core.HostRealmOptions{})
	h.TerminateExecution()
	h.TerminateExecution()
	v, err := h.RunScript("idle.js", `var s = 0; for (var i = 0; i < 100000; i++) s += i; s`)
	if err != nil || v.ToInteger() != 4999950000 {
		t.Fatalf("RunScript = %v, %v", v, err)
	}
}

// A time limit with no callback stops a spinning script with ErrExecutionTimeLimit; one whose callback answers
// false grants further periods until it answers true; a script shorter than the limit is not affected, and
// clearing the limit lets a long script finish.
func TestHostRealm_ExecutionTimeLimit(t *testing.T) {
	h, _ := openRealm(t, core.HostRealmOptions{})
	const period = 50 * time.Millisecond
	h.SetExecutionTimeLimit(period, nil)
	start := time.Now()
	_, err := h.RunScript("spin.js", `for (;;) {}`)
	took := time.Since(start)
	if !errors.Is(err, core.ErrExecutionTimeLimit) || !errors.Is(err, core.ErrExecutionTerminated) {
		t.Fatalf("RunScript = %v, want ErrExecutionTimeLimit", err)
	}
	if took < period || took > period+stopBound {
		t.Fatalf("stopped after %v with a limit of %v", took, period)
	}
	t.Logf("limit %v: stopped after %v", period, took)

	var asked atomic.Int32
	h.SetExecutionTimeLimit(period, func() bool { return asked.Add(1) == 3 })
	start = time.Now()
	_, err = h.RunScript("spin.js", `for (;;) {}`)
	took = time.Since(start)
	if !errors.Is(err, core.ErrExecutionTimeLimit) || asked.Load() != 3 {
		t.Fatalf("RunScript = %v after %d questions", err, asked.Load())
	}
	if took < 3*period {
		t.Fatalf("stopped after %v: three periods of %v were granted", took, period)
	}
	if v, err := h.RunScript("short.js", `1 + 1`); err != nil || v.ToInteger() != 2 {
		t.Fatalf("a short script = %v, %v", v, err)
	}

	h.ClearExecutionTimeLimit()
	if v, err := h.RunScript("long.js", `var t = Date.now(); while (Date.now() - t < 150); "done"`); err != nil || v.String() != "done" {
		t.Fatalf("without a limit = %v, %v", v, err)
	}
}

// The limit applies to each callback of the realm's loop: a timer that spins is stopped and reported, and the
// loop's next callback runs.
func TestHostRealm_TimeLimitPerLoopTask(t *testing.T) {
	var errOut testsupport.SyncBuffer
	h, _ := openRealm(t, core.HostRealmOptions{Stderr: &errOut})
	h.SetExecutionTimeLimit(50*time.Millisecond, nil)
	if _, err := h.RunScript("timers.js", `var log = [];
		setTimeout(function () { log.push('spin'); for (;;) {} }, 0);
		setTimeout(function () { log.push('after'); }, 1);`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for h.RunPending(time.Second) {
		if time.Now().After(deadline) {
			t.Fatal("the loop never ran dry")
		}
	}
	if got := h.Runtime().Get("log").String(); got != "spin,after" {
		t.Fatalf("log = %q", got)
	}
	if !containsAll(errOut.String(), "stopped", "time limit") {
		t.Fatalf("stderr = %q", errOut.String())
	}
}

// An Atomics.wait in a host realm that may block ends at TerminateExecution, and the next wait blocks again.
func TestHostRealm_TerminateAtomicsWait(t *testing.T) {
	h, started := openRealm(t, core.HostRealmOptions{AllowAtomicsWait: true})
	at := terminateWhenStarted(h, started)
	_, err := h.RunScript("wait.js", `var ia = new Int32Array(new SharedArrayBuffer(4)); started(); Atomics.wait(ia, 0, 0); globalThis.after = 1`)
	took := time.Since(<-at)
	if !errors.Is(err, core.ErrExecutionTerminated) || took > stopBound {
		t.Fatalf("RunScript = %v after %v", err, took)
	}
	t.Logf("Atomics.wait stopped %v after TerminateExecution", took)
	v, err := h.RunScript("wait2.js", `String(globalThis.after) + Atomics.wait(ia, 0, 0, 20)`)
	if err != nil || v.String() != "undefinedtimed-out" {
		t.Fatalf("the next wait = %v, %v", v, err)
	}
}

// Enter makes a Go host's own calls into the runtime stoppable, nested calls unwind to the outermost one.
func TestHostRealm_Enter(t *testing.T) {
	h, started := openRealm(t, core.HostRealmOptions{})
	rt := h.Runtime()
	if _, err := rt.RunString(`function spin() { started(); for (;;) {} }`); err != nil {
		t.Fatal(err)
	}
	spin, _ := goja.AssertFunction(rt.Get("spin"))
	at := terminateWhenStarted(h, started)
	err := h.Enter(func() error {
		return h.Enter(func() error { _, err := spin(goja.Undefined()); return err })
	})
	<-at
	if !errors.Is(err, core.ErrExecutionTerminated) {
		t.Fatalf("Enter = %v", err)
	}
	if v, err := rt.RunString(`6 * 7`); err != nil || v.ToInteger() != 42 {
		t.Fatalf("after Enter = %v, %v", v, err)
	}
}

// A Go runtime error inside an entry — here a host function's nil map, before stop 30 also goja's own
// `({toString: undefined}).toLocaleString()` — is the entry's ErrInternal, not a panic in the host; the realm keeps
// its record of entries (a nested one's fault reaches the outermost), so it runs the next script, and a
// TerminateExecution and a time limit then stop what they should.
func TestHostRealm_InternalFaultIsAnError(t *testing.T) {
	h, started := openRealm(t, core.HostRealmOptions{})
	rt := h.Runtime()
	_ = rt.Set("fault", func() {
		var m map[string]int
		m["x"] = 1
	})
	_ = rt.Set("nested", func() {
		_ = h.Enter(func() error { _, err := rt.RunString(`fault()`); return err })
	})
	for _, src := range []string{`try { fault() } catch (e) { "caught" }`, `try { nested() } catch (e) { "caught" } finally { }`} {
		_, err := h.RunScript("fault.js", src)
		if !errors.Is(err, core.ErrInternal) || !strings.Contains(err.Error(), "nil map") {
			t.Fatalf("%s: RunScript = %v, want ErrInternal", src, err)
		}
	}
	v, err := h.RunScript("after.js", `try { ({toString: undefined}).toLocaleString() } catch (e) { e.name + ": " + e.message + " " + 6 * 7 }`)
	if err != nil || v.String() != "TypeError: undefined is not a function 42" {
		t.Fatalf("after the faults = %v, %v", v, err)
	}
	at := terminateWhenStarted(h, started)
	if _, err := h.RunScript("spin.js", `started(); for (;;) {}`); !errors.Is(err, core.ErrExecutionTerminated) {
		t.Fatalf("terminated after the faults = %v", err)
	}
	<-at
	h.SetExecutionTimeLimit(20*time.Millisecond, nil)
	defer h.ClearExecutionTimeLimit()
	if _, err := h.RunScript("limit.js", `for (;;) {}`); !errors.Is(err, core.ErrExecutionTimeLimit) {
		t.Fatalf("time limit after the faults = %v", err)
	}
}

// Two builtins of goja's dereferenced a nil method, which ended a worker with an internal error (and was a Go
// panic out of a Go host's RunScript): now TypeErrors the script catches, the first V8's.
func TestWorker_GojaNilMethodsAreTypeErrors(t *testing.T) {
	wk := spawn(t, `const out = [];
		try { ({toString: undefined}).toLocaleString() } catch (e) { out.push(e.name + ": " + e.message) }
		try { Object.prototype.toLocaleString.call({toString: null}) } catch (e) { out.push(e.message) }
		class R extends RegExp { constructor(...a) { super(...a); this.exec = undefined } }
		try { "a,b".split(new R(",")) } catch (e) { out.push(e.name) }
		out.push(({toString() { return "t" }}).toLocaleString(), [1, [2]].toLocaleString(), "a,b".split(/,/).length);
		postMessage(out.join(";"))`, core.Options{})
	v, err := wk.Receive(goja.New(), time.Minute)
	if want := "TypeError: undefined is not a function;object null is not a function;TypeError;t;1,2;2"; err != nil || v.String() != want {
		t.Fatalf("got %v, %v; want %s", v, err, want)
	}
	wk.Terminate()
	join(t, wk)
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
