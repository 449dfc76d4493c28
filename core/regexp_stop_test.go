package core_test

import (
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/jsworker/jsworker/core"
)

// regexpWork runs a regular expression over a long string in one native call that goja's fast path made in one Go
// loop, with no checkpoint: each collected every match first (gigabytes at these sizes; Go's fatal out of memory
// under a memory limit, found 2026-12-02), and no terminate or budget stopped it.
var regexpWork = map[string]struct{ setup, call string }{
	"match":            {`const s = "x".repeat(2**25)`, `s.match(/x/g)`},
	"replace":          {`const s = "x".repeat(2**25)`, `s.replace(/x/g, "yy")`},
	"replace function": {`const s = "ab".repeat(2**24)`, `s.replace(/b/g, (m) => m + m)`},
	"matchAll spread":  {`const s = "x".repeat(2**25)`, `[...s.matchAll(/x/g)]`},
	"split":            {`const s = "x".repeat(2**25)`, `s.split(/(?:)/)`},
	"split captures":   {`const s = "a,b;".repeat(2**23)`, `s.split(/([,;])/)`},
	"symbol replace":   {`const s = "x".repeat(2**25), r = new RegExp("x", "g")`, `r[Symbol.replace](s, "y")`},
}

// Worker.Terminate stops a worker inside each call (it posted "ready" just before).
func TestWorker_TerminateLongRegExp(t *testing.T) {
	for name, w := range regexpWork {
		t.Run(name, func(t *testing.T) {
			terminateWhenReady(t, spawn(t, w.setup+`; postMessage("ready"); `+w.call+`; postMessage("returned")`, core.Options{}), time.Minute)
		})
	}
}

// A host realm's script is stopped inside a long split and the realm runs the next script normally.
func TestHostRealm_TerminateLongRegExp(t *testing.T) {
	h, started := openRealm(t, core.HostRealmOptions{})
	w := regexpWork["split captures"]
	runTerminated(t, h, started, "split", `try { `+w.setup+`; started(); `+w.call+`; globalThis.after = "returned" } catch (e) { globalThis.after = "caught" }`)
	v, err := h.RunScript("next.js", `String(globalThis.after) + "a,b".split(/,/).join("") + "xyx".replace(/x/g, "z")`)
	if err != nil || v.String() != "undefinedabzyz" {
		t.Fatalf("the next script = %v, %v", v, err)
	}
}

// A budgeted worker is ended for its memory inside each call: the exec calls the call makes count the matches it
// holds (or, for replaceAll, its positions and result are counted before it runs), and another worker goes on
// answering. At these sizes each call's result is within the budget's reach only while it is being made.
func TestWorker_BudgetStopsLongRegExp(t *testing.T) {
	const budget = 8 << 20
	for name, call := range map[string]string{
		"match":           `s.match(/x/g)`,
		"replace":         `s.replace(/x/g, "yy")`,
		"matchAll spread": `[...s.matchAll(/x/g)]`,
		"split":           `s.split(/(?:)/)`,
		"replaceAll":      `s.replaceAll("x", "yy")`,
		"non-ASCII match": `("\u00e9" + s).match(/x/g)`, // goja's fast path: its decoding is measured first
	} {
		t.Run(name, func(t *testing.T) {
			budgetStopsInside(t, `const s = "x".repeat(2**21); postMessage("started"); const r = `+call+`; r.length = 0`, budget)
		})
	}
}

// replaceAll whose result would be longer than the longest string is refused with a catchable RangeError, as in V8.
func TestReplaceAll_RefusesAnOverlongResult(t *testing.T) {
	h, _ := openRealm(t, core.HostRealmOptions{})
	v, err := h.RunScript("long.js", `try { "x".repeat(2**20).replaceAll("x", "y".repeat(1024)); "returned" } catch (e) { e.name + ": " + e.message }`)
	if err != nil || v.String() != "RangeError: Invalid string length" {
		t.Fatalf("replaceAll = %v, %v", v, err)
	}
}

// regexpCorpus runs the guarded paths (ASCII strings of 2**20 code units and more) and prints a digest of each result:
// separators with captures, empty matches, sticky and Unicode flags, limits, lastIndex after the call, a RegExp
// with its own exec (goja's specification path), a replacer function.
const regexpCorpus = `
const big = (u) => u.repeat(Math.ceil((1 << 20) / u.length) + 3);
const inputs = SHORT ? [big("a1b22c333")] : [big("ab,cd;"), big("a1b22c333")];
const res = SHORT ? [/(\d)(\d)?/, /[a-z]/iy] : [/(,)|(;)/, /(?:)/u, /b*/, /(?=b)/, /(\d)(\d)?/, /😀/u, /a|/, /(?<n>b)/, /[a-z]/iy];
const G = (r) => new RegExp(r.source, r.flags.replace(/[gy]/g, "") + "g");
const h = (a) => [a.length, a.join("|").length, a.slice(0, 5).join("|"), a.slice(-5).join("|")].join(":");
const out = [];
for (const s of inputs) for (const r of res) {
	const g = G(r);
	out.push([r, h(s.split(r)), h(s.split(r, 7)), s.split(r, 0).length, h(s.match(g) || []), s.replace(g, "<$&$1>").length,
		[...s.matchAll(g)].length, g.lastIndex, r.lastIndex].join(" "));
}
const r2 = /b/g; r2.lastIndex = 5; "ab".repeat(1 << 20).replace(r2, "c"); out.push("lastIndex " + r2.lastIndex);
const r3 = /b/; r3.exec = function (s) { return RegExp.prototype.exec.call(this, s) }; out.push(h("ab".repeat(1 << 20).split(r3, 5)));
let calls = 0; out.push(("a".repeat(1 << 20) + "bab").replace(/b/g, (m, i, s) => (calls++, i % 3 + s.length)), calls);
out.push("a,b".repeat(1 << 19).replaceAll(",", "$&$&").length, "x".repeat(1 << 20).replaceAll("", "-").length);
out.join("\n")
`

// The guarded paths give node's results (node v20 on the machine) on regexpCorpus (a part of it under -short: the
// whole takes minutes under -race).
func TestRegExp_LongLikeNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	src := "const SHORT = " + strconv.FormatBool(testing.Short()) + ";" + regexpCorpus
	want, err := exec.Command(node, "-e", "console.log(eval(process.argv[1]))", src).Output()
	if err != nil {
		t.Fatal(err)
	}
	h, _ := openRealm(t, core.HostRealmOptions{})
	got, err := h.RunScript("corpus.js", src)
	if err != nil || got.String()+"\n" != string(want) {
		t.Fatalf("guarded:\n%v (%v)\nnode:\n%s", got, err, want)
	}
}
