package core_test

import (
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// iterationWork iterates a typed array or a string in one of goja's Go loops (spread, Array.from, new Set), each the
// realm's first iteration: its iterator prototype's `next` is guarded by the hook of the method that made the
// iterator (iterstop.go), not by an earlier array's. Unpolled, each ran for seconds to minutes and grew by gigabytes
// (Go's fatal out of memory under a memory limit).
var iterationWork = map[string]struct{ setup, call string }{
	"typed array spread":          {`const a = new Uint8Array(2**28)`, `[...a]`},
	"typed array values":          {`const a = new Float64Array(2**27)`, `Array.from(a.values())`},
	"typed array entries":         {`const a = new Int32Array(2**27)`, `new Map(a.entries())`},
	"array keys":                  {`const a = new Array(2**32 - 1)`, `[...a.keys()]`},
	"string spread":               {`const s = "x".repeat(2**26)`, `[...s]`},
	"Array.from a string":         {`const s = "x".repeat(2**26)`, `Array.from(s)`},
	"new Set of a string":         {`const s = "\u{1F600}".repeat(2**25)`, `new Set(s)`},
	"Math.max of a string spread": {`const s = "7".repeat(2**26)`, `Math.max(...s)`},
}

// Worker.Terminate stops a worker iterating a huge typed array or string (it posted "ready" just before: without the
// poll the iteration would run on for seconds after Terminate).
func TestWorker_TerminateLongIteration(t *testing.T) {
	for name, w := range iterationWork {
		t.Run(name, func(t *testing.T) {
			terminateWhenReady(t, spawn(t, w.setup+`; postMessage("ready"); `+w.call+`; postMessage("returned")`, core.Options{}), time.Minute)
		})
	}
}

// A budgeted worker spreading a huge typed array or string is terminated for its memory while the spread runs: the
// iterator's polls count what goja's loop holds (no measurement of the realm's graph sees it) and run the realm's
// checkpoint, and another worker goes on answering. The spread's result is dropped at once: had the spread run to
// its end, nothing would be over the budget, and the worker would post its length.
func TestWorker_BudgetStopsALongIteration(t *testing.T) {
	const budget = 8 << 20
	for name, src := range map[string]string{ // inputs well within the budget, whose spread is not
		"typed array spread":       `const a = new Uint8Array(2**22); postMessage("started"); postMessage([...a].length)`,
		"Array.from a string":      `const s = "x".repeat(2**21); postMessage("started"); postMessage(Array.from(s).length)`,
		"Array.from an array-like": `postMessage("started"); postMessage(Array.from({length: 2**22}).length)`, // arraystop.go
		"Array.from, mapped":       `postMessage("started"); postMessage(Array.from({length: 2**22}, () => 1).length)`,
	} {
		t.Run(name, func(t *testing.T) {
			budgetStopsInside(t, src, budget)
		})
	}
}

// TerminateExecution stops a host realm's Array.from of a huge string; the realm iterates strings and typed arrays
// normally afterwards.
func TestHostRealm_TerminateLongStringIteration(t *testing.T) {
	h, started := openRealm(t, core.HostRealmOptions{})
	w := iterationWork["Array.from a string"]
	runTerminated(t, h, started, "from", `try { `+w.setup+`; started(); `+w.call+`; globalThis.after = "returned" } catch (e) { globalThis.after = "caught" }`)
	v, err := h.RunScript("next.js", `String(globalThis.after) + [..."ab\u{1F600}"].length + [...new Uint8Array([7, 8])].join("")`)
	if err != nil || v.String() != "undefined378" {
		t.Fatalf("the next script = %v, %v", v, err)
	}
}

// Iterators made before and after the guard behave as goja's: a small corpus of what scripts see.
func TestIteration_GuardedLikePlain(t *testing.T) {
	const src = `const out = [];
		out.push([..."a\u{1F600}b"].join("|"), Array.from(new Uint16Array([1, 2, 3]).entries()).join(";"));
		const it = "xy"[Symbol.iterator](); out.push(Object.getPrototypeOf(it)[Symbol.toStringTag], it.next().value, String(it.next().done), String(it.next().done));
		const ti = new Int8Array([5])[Symbol.iterator](); out.push(Object.getPrototypeOf(ti) === Object.getPrototypeOf([][Symbol.iterator]()));
		let n = 0; for (const c of "x".repeat(10000)) n++; out.push(n);
		n = 0; for (const k of new Float32Array(9000).keys()) n += k; out.push(n);
		out.push(new Set("abcabc".repeat(3000)).size, Math.max(..."123456789".repeat(500)));
		out.join(",")`
	want, err := goja.New().RunString(src)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := openRealm(t, core.HostRealmOptions{})
	got, err := h.RunScript("corpus.js", src)
	if err != nil || got.String() != want.String() {
		t.Fatalf("guarded: %v, %v; goja: %v", got, err, want)
	}
}
