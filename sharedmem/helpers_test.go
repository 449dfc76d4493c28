package sharedmem

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/dop251/goja"
)

// checkRegistry fails the test if it leaves tokens in the registry.
func checkRegistry(t testing.TB) {
	t.Helper()
	t.Cleanup(func() {
		if n := RegistryLen(); n != 0 {
			t.Errorf("token registry holds %d tokens after the test", n)
		}
	})
}

// harness is a small test262-like assertion library for JavaScript tests.
const harness = `
function Test262Error(message) { this.message = message || ""; }
Test262Error.prototype.toString = function () { return "Test262Error: " + this.message; };
function assert(cond, msg) { if (cond !== true) throw new Test262Error("assertion failed: " + (msg || "")); }
function fmt(v) { return typeof v === "bigint" ? v + "n" : (Object.is(v, -0) ? "-0" : String(v)); }
assert.sameValue = function (actual, expected, msg) {
	if (!Object.is(actual, expected)) throw new Test262Error((msg ? msg + ": " : "") + "expected " + fmt(expected) + ", got " + fmt(actual));
};
assert.notSameValue = function (actual, unexpected, msg) {
	if (Object.is(actual, unexpected)) throw new Test262Error((msg ? msg + ": " : "") + "did not expect " + fmt(actual));
};
assert.throws = function (ctor, fn, msg) {
	try { fn(); } catch (e) {
		if (e === null || typeof e !== "object" || e.constructor !== ctor) {
			throw new Test262Error((msg ? msg + ": " : "") + "expected " + ctor.name + ", got " + (e && e.constructor ? e.constructor.name + ": " + e.message : String(e)));
		}
		return;
	}
	throw new Test262Error((msg ? msg + ": " : "") + "expected " + ctor.name + ", nothing thrown");
};
assert.compareArray = function (a, b, msg) {
	assert.sameValue(a.length, b.length, (msg || "") + " length");
	for (var i = 0; i < a.length; i++) assert.sameValue(a[i], b[i], (msg || "") + " [" + i + "]");
};
function verifyProperty(obj, name, desc) {
	var d = Object.getOwnPropertyDescriptor(obj, name);
	assert(d !== undefined, String(name) + " exists");
	for (var k in desc) assert.sameValue(d[k], desc[k], String(name) + "." + k);
}
function isConstructor(f) {
	try { Reflect.construct(function () {}, [], f); } catch (e) { return false; }
	return true;
}
var intArrayConstructors = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array];
var bigIntArrayConstructors = [BigInt64Array, BigUint64Array];
var nonIntArrayConstructors = [Uint8ClampedArray, Float32Array, Float64Array];
var outOfBoundsIndices = [
	function (v) { return -1; }, function (v) { return v.length; }, function (v) { return v.length * 2; },
	function () { return Infinity; }, function () { return -Infinity; },
	function (v) { var l = v.length; return { valueOf: function () { return l; } }; },
	function (v) { var s = String(v.length); return { toString: function () { return s; }, valueOf: false }; },
];
var inBoundsIndices = [
	function () { return -0; }, function () { return "-0"; }, function () { return undefined; },
	function () { return NaN; }, function () { return 0.5; }, function () { return "0.5"; },
	function () { return -0.9; }, function () { return { password: "qumquat" }; },
	function (v) { return v.length - 1; }, function () { return { valueOf: function () { return 0; } }; },
	function () { return { toString: function () { return "0"; }, valueOf: false }; },
];
function nonViewValues() {
	return [null, undefined, true, false, new Boolean(true), 10, 3.14, new Number(4), "Hi there", new Date(),
		/a*utomaton/g, { password: "qumquat" }, new ArrayBuffer(128), new Error("Ouch"), [1, 1, 2, 3, 5, 8],
		function (x) { return -x; }, Object, Int32Array, Date, Math, Atomics, new DataView(new ArrayBuffer(10)),
		new SharedArrayBuffer(128), Symbol("halleluja")];
}
`

// newRealm returns a runtime with SharedArrayBuffer and Atomics installed,
// the harness loaded and $detach(arrayBuffer) defined, for tests that run on
// the test's goroutine.
func newRealm(t testing.TB, opts RealmOptions) *goja.Runtime {
	t.Helper()
	rt := goja.New()
	if err := Install(rt, opts); err != nil {
		t.Fatal(err)
	}
	// Uninstall at the end of the test, unless the test did: through a weak
	// pointer, so that tests can watch an uninstalled runtime be collected.
	w := weak.Make(rt)
	t.Cleanup(func() {
		if rt := w.Value(); rt != nil {
			Uninstall(rt)
		}
	})
	if _, err := rt.RunString(harness); err != nil {
		t.Fatal(err)
	}
	rt.Set("$detach", func(call goja.FunctionCall) goja.Value {
		call.Argument(0).Export().(goja.ArrayBuffer).Detach()
		return goja.Undefined()
	})
	return rt
}

// run runs src in rt and fails the test with the JavaScript error if it throws.
func run(t testing.TB, rt *goja.Runtime, src string) goja.Value {
	t.Helper()
	v, err := rt.RunString(src)
	if err != nil {
		t.Fatalf("%v\n--- in:\n%s", err, strings.TrimSpace(src))
	}
	return v
}

// loop is a realm owned by its own goroutine, as a worker's is: a minimal
// event loop that runs queued tasks in order. Schedule is its
// RealmOptions.Schedule; Close ends it (Schedule then returns false).
type loop struct {
	rt        *goja.Runtime
	mu        sync.Mutex
	queue     []func(*goja.Runtime)
	closed    bool
	wake      chan struct{}
	interrupt chan struct{}
	done      chan struct{}
}

// newLoop starts a loop realm. opts.Schedule and opts.Interrupt are filled
// in by the loop.
func newLoop(t testing.TB, opts RealmOptions) *loop {
	t.Helper()
	l := &loop{wake: make(chan struct{}, 1), interrupt: make(chan struct{}), done: make(chan struct{})}
	opts.Schedule = l.Schedule
	opts.Interrupt = l.interrupt
	ready := make(chan error, 1)
	go l.run(opts, ready)
	if err := <-ready; err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l
}

func (l *loop) run(opts RealmOptions, ready chan<- error) {
	defer close(l.done)
	l.rt = newRealmNoFatal(opts, ready)
	if l.rt == nil {
		return
	}
	defer Uninstall(l.rt)
	for {
		l.mu.Lock()
		q := l.queue
		l.queue = nil
		closed := l.closed
		l.mu.Unlock()
		for _, fn := range q {
			fn(l.rt)
		}
		if closed && len(q) == 0 {
			return
		}
		if len(q) == 0 {
			<-l.wake
		}
	}
}

func newRealmNoFatal(opts RealmOptions, ready chan<- error) *goja.Runtime {
	rt := goja.New()
	err := Install(rt, opts)
	if err == nil {
		_, err = rt.RunString(harness)
	}
	ready <- err
	if err != nil {
		return nil
	}
	return rt
}

// Schedule queues fn; false once the loop is closed.
func (l *loop) Schedule(fn func(*goja.Runtime)) bool {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return false
	}
	l.queue = append(l.queue, fn)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return true
}

// Do runs fn on the loop's goroutine and waits for it.
func (l *loop) Do(fn func(rt *goja.Runtime)) {
	done := make(chan struct{})
	if !l.Schedule(func(rt *goja.Runtime) { defer close(done); fn(rt) }) {
		panic("loop closed")
	}
	<-done
}

// Eval runs src on the loop and returns its result exported, or its error.
func (l *loop) Eval(src string) (any, error) {
	var v any
	var err error
	l.Do(func(rt *goja.Runtime) {
		var res goja.Value
		res, err = rt.RunString(src)
		if err == nil && res != nil {
			v = res.Export()
		}
	})
	return v, err
}

// Go runs src on the loop without waiting; the returned channel gets its
// exported result or error.
func (l *loop) Go(src string) <-chan result {
	ch := make(chan result, 1)
	if !l.Schedule(func(rt *goja.Runtime) {
		v, err := rt.RunString(src)
		var x any
		if err == nil && v != nil {
			x = v.Export()
		}
		ch <- result{x, err}
	}) {
		ch <- result{nil, errors.New("loop closed")}
	}
	return ch
}

type result struct {
	v   any
	err error
}

// Interrupt terminates the realm as core does: goja's Interrupt, then the
// Interrupt channel.
func (l *loop) Interrupt() {
	l.rt.Interrupt("terminated")
	select {
	case <-l.interrupt:
	default:
		close(l.interrupt)
	}
}

// Close ends the loop after the queued tasks and waits for its goroutine;
// the runtime is dropped, so that its wrappers can be collected.
func (l *loop) Close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	<-l.done
	l.rt = nil
}

// share makes b a SharedArrayBuffer global named name in the loop's realm.
func (l *loop) share(t testing.TB, name string, b *Block) {
	t.Helper()
	var err error
	l.Do(func(rt *goja.Runtime) {
		var o *goja.Object
		if o, err = Wrap(rt, b); err == nil {
			err = rt.Set(name, o)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
	}
}
