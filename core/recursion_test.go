package core_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// recursion is the program, reporting what it caught.
const recursion = `function f(){return f()+1}
var got = "not caught";
try { f() } catch (e) { got = "caught " + (e instanceof RangeError) + " " + e.message }
`

// TestRecursion_CatchableInWorkers runs the program in every kind of worker realm: a plain script, an inspectable
// one (instrumented), a module worker, and one that recurses through a host function (Options.Setup).
func TestRecursion_CatchableInWorkers(t *testing.T) {
	const want = "caught true Maximum call stack size exceeded"
	host := func(w *core.Worker, rt *goja.Runtime) error {
		// viaHost(fn) calls fn back from Go: recursion through it must be bounded and catchable too.
		return rt.Set("viaHost", func(call goja.FunctionCall) goja.Value {
			fn, _ := goja.AssertFunction(call.Argument(0))
			v, err := fn(goja.Undefined())
			if err != nil {
				var ex *goja.Exception
				if errors.As(err, &ex) {
					panic(ex) // the JavaScript exception, rethrown into the caller's realm
				}
				panic(rt.NewGoError(err))
			}
			return v
		})
	}
	cases := []struct {
		name string
		src  string
		opts core.Options
	}{
		{"script", recursion + "postMessage(got)", core.Options{}},
		{"inspectable", recursion + "postMessage(got)", core.Options{Inspectable: true}},
		{"small limit", recursion + "postMessage(got)", core.Options{MaxCallStackSize: 50}},
		{"host function", `function g(){ return viaHost(g) }
			try { g(); postMessage("not caught") } catch (e) { postMessage("caught " + (e instanceof RangeError) + " " + e.message) }`,
			core.Options{Setup: host}},
		{"generator delegation", `function* g(){ yield* g() }
			try { g().next(); postMessage("not caught") } catch (e) { postMessage("caught " + (e instanceof RangeError) + " " + e.message) }`,
			core.Options{}},
	}
	rt := goja.New()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := spawn(t, tc.src, tc.opts)
			if got := recv(t, w, rt).String(); got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
		})
	}
	t.Run("module", func(t *testing.T) {
		load := func(spec, ref string) (string, string, error) { return "", "", fmt.Errorf("no module %q", spec) }
		w, err := core.SpawnModule("/rec.mjs", recursion+"postMessage(got); export {}", load, core.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(w.Release)
		if got := recv(t, w, rt).String(); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	})
}

// TestRecursion_LimitIsTheOption checks that the depth reached is MaxCallStackSize, within the few frames the top
// level takes.
func TestRecursion_LimitIsTheOption(t *testing.T) {
	rt := goja.New()
	for _, limit := range []int{100, 1000, core.DefaultMaxCallStackSize} {
		w := spawn(t, `var n = 0; function f(){ n++; f() } try { f() } catch (e) {} postMessage(n)`,
			core.Options{MaxCallStackSize: limit})
		n := int(recv(t, w, rt).ToInteger())
		if n < limit-10 || n > limit {
			t.Errorf("limit %d: recursed %d deep", limit, n)
		}
	}
}

// TestRecursion_HostRealm runs the program in a realm from NewHostRealm, compiled with CompileScript; compiled by
// goja directly, the same program still ends with goja's uncatchable error (the documented remainder).
func TestRecursion_HostRealm(t *testing.T) {
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	prg, err := core.CompileScript("host.js", recursion+"got", false)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ { // the realm recovers fully each time
		v, err := rt.RunProgram(prg)
		if err != nil || v.String() != "caught true Maximum call stack size exceeded" {
			t.Fatalf("run %d: %v, %v", i, v, err)
		}
	}
	_, err = rt.RunString(recursion)
	var so *goja.StackOverflowError
	if !errors.As(err, &so) {
		t.Fatalf("RunString: %v, want goja's StackOverflowError", err)
	}
	if v, err := rt.RunProgram(prg); err != nil || v.String() != "caught true Maximum call stack size exceeded" {
		t.Fatalf("after the uncatchable one: %v, %v", v, err)
	}
}

// TestRecursion_DirectEvalPinned pins what remains uncatchable: recursion that stays inside directly eval'd text
// (goja compiles that text itself, and no Go frame lies between it and the caller's handlers) ends at goja's
// backstop. The worker's try/catch does not run; the worker ends with an uncaught RangeError record and Join's
// error; the host and another worker go on. Indirect eval's overflow is caught (internal/depthguard).
func TestRecursion_DirectEvalPinned(t *testing.T) {
	other := spawn(t, echo, core.Options{})
	recs := make(chan core.ErrorRecord, 4)
	w, err := core.Spawn(`try { eval("function g() { return g() + 1 } g()") } catch (e) { postMessage("caught") }
		postMessage("after")`, core.Options{OnError: func(r core.ErrorRecord) { recs <- r }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	var r core.ErrorRecord
	select {
	case r = <-recs:
	case <-time.After(60 * time.Second):
		t.Fatal("no error record")
	}
	if r.Kind != core.ErrorUncaught || r.Name != "RangeError" || !strings.Contains(r.Message, "Maximum call stack size exceeded") {
		t.Fatalf("record = %+v, want an uncaught RangeError", r)
	}
	// The script stopped at the overflow: neither its handler nor the statement after it posted anything (postMessage
	// queues at once, so what the script posted is there before the record is reported).
	rt := goja.New()
	if v, err := w.Receive(rt, 0); err == nil {
		t.Fatalf("the worker posted %v after the overflow", v)
	}
	roundTrips(t, other, 10)
}
