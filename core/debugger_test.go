package core_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
)

// dbgSession drives one inspector session of a worker in tests.
type dbgSession struct {
	t  *testing.T
	s  *inspector.Session
	id int
}

func attach(t *testing.T, w *core.Worker) *dbgSession {
	t.Helper()
	s, err := w.InspectorSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.DetachInspectorSession(s) })
	return &dbgSession{t: t, s: s}
}

// send dispatches a command and returns its whole response.
func (d *dbgSession) send(method, params string) map[string]any {
	d.t.Helper()
	d.id++
	if params == "" {
		params = "{}"
	}
	if err := d.s.Dispatch(fmt.Appendf(nil, `{"id":%d,"method":%q,"params":%s}`, d.id, method, params)); err != nil {
		d.t.Fatal(err)
	}
	return cdp(d.t, d.s, response(float64(d.id)))
}

// ok sends a command that must succeed and returns its result.
func (d *dbgSession) ok(method, params string) map[string]any {
	d.t.Helper()
	m := d.send(method, params)
	r, _ := m["result"].(map[string]any)
	if r == nil {
		d.t.Fatalf("%s failed: %v", method, m)
	}
	return r
}

// paused waits for Debugger.paused and returns its params.
func (d *dbgSession) paused() map[string]any {
	d.t.Helper()
	return cdp(d.t, d.s, event("Debugger.paused"))["params"].(map[string]any)
}

func topLine(p map[string]any) float64 {
	f := p["callFrames"].([]any)[0].(map[string]any)
	return f["location"].(map[string]any)["lineNumber"].(float64)
}

// TestDebugger_StackPositionsUnchanged: instrumentation keeps every position
// of Error.stack exactly as in the plain compilation.
func TestDebugger_StackPositionsUnchanged(t *testing.T) {
	src := `"use strict";
function inner(a) { if (a) return new Error("x").stack; else { return inner(1); } }
const arrow = (n) => { for (let i = 0; i < n; i++) if (i === 1) return inner(0); };
class K { constructor() { this.s = arrow(3); } get g() { label: for (;;) { break label; } return [1].map(() => new K().s)[0]; } }
var stacks = [inner(1), arrow(2), new K().g];
try { null.x; } catch (e) { stacks.push(e.stack); }
switch (stacks.length) { case 4: stacks.push((function named() { return new Error("y").stack; })()); }
postMessage(stacks.join("\n---\n"));`
	rt := goja.New()
	plain := spawn(t, src, core.Options{Filename: "pos.js"})
	instr := spawn(t, src, core.Options{Filename: "pos.js", Inspectable: true})
	// The pc in parentheses after each position differs; the positions not.
	pc := regexp.MustCompile(`\(\d+\)`)
	a := pc.ReplaceAllString(recv(t, plain, rt).String(), "")
	b := pc.ReplaceAllString(recv(t, instr, rt).String(), "")
	if a != b {
		t.Fatalf("stacks differ:\nplain:\n%s\ninstrumented:\n%s", a, b)
	}
	if !strings.Contains(a, "pos.js:2:") || strings.Count(a, "---") != 4 {
		t.Fatalf("unexpected stacks:\n%s", a)
	}
}

func TestDebugger_NotInspectable(t *testing.T) {
	w := spawn(t, `onmessage = function () {};`, core.Options{})
	d := attach(t, w)
	m := d.send("Debugger.enable", "")
	msg, _ := m["error"].(map[string]any)["message"].(string)
	if !strings.Contains(msg, "Inspectable") || !strings.Contains(msg, "JSWORKER_INSPECT") {
		t.Fatalf("Debugger.enable on a plain worker: %v", m)
	}
	if got := d.ok("Runtime.evaluate", `{"expression":"6*7"}`)["result"].(map[string]any)["value"]; got != float64(42) {
		t.Fatalf("Runtime.evaluate = %v", got)
	}
}

// TestDebugger_DebuggerStatement: a worker pauses at `debugger;` in its
// handler, serves Runtime.evaluate while paused, and replies after resume.
func TestDebugger_DebuggerStatement(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `var g = 5;
onmessage = (e) => {
  let x = e.data;
  debugger;
  x += 2;
  postMessage(x);
};`, core.Options{Filename: "dbg.js", Inspectable: true})
	d := attach(t, w)
	d.s.Dispatch([]byte(`{"id":100,"method":"Debugger.enable"}`))
	parsed := cdp(t, d.s, event("Debugger.scriptParsed"))["params"].(map[string]any)
	if parsed["url"] != "dbg.js" || parsed["endLine"] != float64(6) || parsed["scriptId"] == "" || parsed["hash"] == "" {
		t.Fatalf("scriptParsed = %v", parsed)
	}
	if r := cdp(t, d.s, response(100)); r["result"] == nil {
		t.Fatalf("Debugger.enable: %v", r)
	}
	src := d.ok("Debugger.getScriptSource", fmt.Sprintf(`{"scriptId":%q}`, parsed["scriptId"]))
	if !strings.HasPrefix(src["scriptSource"].(string), "var g = 5;") {
		t.Fatalf("getScriptSource = %v", src)
	}
	if err := w.PostMessage(rt, rt.ToValue(40)); err != nil {
		t.Fatal(err)
	}
	p := d.paused()
	if p["reason"] != "other" || topLine(p) != 3 {
		t.Fatalf("paused = %v", p)
	}
	frame := p["callFrames"].([]any)[0].(map[string]any)
	if frame["url"] != "dbg.js" || frame["location"].(map[string]any)["scriptId"] != parsed["scriptId"] ||
		frame["callFrameId"] == "" || frame["scopeChain"].([]any)[1].(map[string]any)["type"] != "global" {
		t.Fatalf("call frame = %v", frame)
	}
	local := frame["scopeChain"].([]any)[0].(map[string]any)
	if local["type"] != "local" {
		t.Fatalf("scopeChain[0] = %v", local)
	}
	props := d.ok("Runtime.getProperties", fmt.Sprintf(`{"objectId":%q,"ownProperties":true}`, local["object"].(map[string]any)["objectId"]))
	vals := map[string]any{}
	for _, p := range props["result"].([]any) {
		p := p.(map[string]any)
		vals[p["name"].(string)] = p["value"].(map[string]any)["value"]
	}
	if vals["x"] != float64(40) || len(vals) != 2 {
		t.Fatalf("local scope = %v", props)
	}
	if got := d.ok("Runtime.evaluate", `{"expression":"g * 2"}`)["result"].(map[string]any)["value"]; got != float64(10) {
		t.Fatalf("Runtime.evaluate while paused = %v", got)
	}
	if _, err := w.Receive(rt, 0); err != core.ErrNoMessage {
		t.Fatalf("the worker replied while paused: %v", err)
	}
	d.ok("Debugger.resume", "")
	cdp(t, d.s, event("Debugger.resumed"))
	if v := recv(t, w, rt); v.ToInteger() != 42 {
		t.Fatalf("reply = %v", v)
	}
	if m := d.send("Debugger.resume", ""); m["error"] == nil {
		t.Fatalf("resume while running: %v", m)
	}
}

// TestDebugger_BreakpointByURL: a URL breakpoint hits and reports its id;
// once removed it no longer pauses. Debugger.pause pauses at the next
// statement.
func TestDebugger_BreakpointByURL(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = function (e) {
  var x = e.data;
  x += 1;
  x += 2;
  postMessage(x);
};`, core.Options{Filename: "bp.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	r := d.ok("Debugger.setBreakpointByUrl", `{"url":"bp.js","lineNumber":2}`)
	id := r["breakpointId"].(string)
	locs := r["locations"].([]any)
	if len(locs) != 1 || locs[0].(map[string]any)["lineNumber"] != float64(2) || locs[0].(map[string]any)["columnNumber"] != float64(2) {
		t.Fatalf("setBreakpointByUrl = %v", r)
	}
	if m := d.send("Debugger.setBreakpointByUrl", `{"url":"bp.js","lineNumber":2}`); m["error"] == nil {
		t.Fatalf("duplicate breakpoint accepted: %v", m)
	}
	w.PostMessage(rt, rt.ToValue(1))
	p := d.paused()
	if topLine(p) != 2 || len(p["hitBreakpoints"].([]any)) != 1 || p["hitBreakpoints"].([]any)[0] != id {
		t.Fatalf("paused = %v", p)
	}
	if fn := p["callFrames"].([]any)[0].(map[string]any)["functionName"]; fn != "onmessage" {
		t.Logf("functionName = %v", fn)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 4 {
		t.Fatalf("reply = %v", v)
	}
	d.ok("Debugger.removeBreakpoint", fmt.Sprintf(`{"breakpointId":%q}`, id))
	w.PostMessage(rt, rt.ToValue(10))
	if v := recv(t, w, rt); v.ToInteger() != 13 {
		t.Fatalf("reply = %v", v)
	}
	d.ok("Debugger.pause", "")
	w.PostMessage(rt, rt.ToValue(20))
	if p := d.paused(); topLine(p) != 1 {
		t.Fatalf("paused after Debugger.pause = %v", p)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 23 {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_Stepping: stepOver, stepInto and stepOut follow the call depth.
func TestDebugger_Stepping(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `function c() {
  return 1;
}
function b() {
  var r = c();
  return r + 1;
}
onmessage = function (e) {
  debugger;
  var v = b();
  postMessage(v);
};`, core.Options{Filename: "step.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	w.PostMessage(rt, rt.ToValue(0))
	lines := []float64{topLine(d.paused())}
	for _, step := range []string{"stepOver", "stepInto", "stepInto", "stepOut", "stepOver"} {
		d.ok("Debugger."+step, "")
		lines = append(lines, topLine(d.paused()))
	}
	if fmt.Sprint(lines) != "[8 9 4 1 5 10]" {
		t.Fatalf("paused at lines %v, want [8 9 4 1 5 10]", lines)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 2 {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_TerminateWhilePaused: Terminate wakes the pause loop and the
// worker ends promptly; closing the last session resumes a paused worker.
func TestDebugger_TerminateWhilePaused(t *testing.T) {
	rt := goja.New()
	src := `onmessage = function (e) { debugger; postMessage(e.data); };`
	w := spawn(t, src, core.Options{Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	w.PostMessage(rt, rt.ToValue(1))
	d.paused()
	start := time.Now()
	w.Terminate()
	if err := w.Join(5 * time.Second); err != nil {
		t.Fatalf("Join: %v", err)
	}
	if el := time.Since(start); el > 2*time.Second {
		t.Fatalf("terminating a paused worker took %v", el)
	}

	w2 := spawn(t, src, core.Options{Inspectable: true})
	d2 := attach(t, w2)
	d2.ok("Debugger.enable", "")
	w2.PostMessage(rt, rt.ToValue(7))
	d2.paused()
	w2.DetachInspectorSession(d2.s)
	if v := recv(t, w2, rt); v.ToInteger() != 7 {
		t.Fatalf("reply after detach = %v", v)
	}
}

// BenchmarkInspectable measures what instrumentation costs on CPU-bound code
// with no session attached: each op posts one message whose handler runs the
// workload and replies.
func BenchmarkInspectable(b *testing.B) {
	src := `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
function loop(n) { var s = 0; for (var i = 0; i < n; i++) { s += i; } return s; }
function sort(n) { var a = []; for (var i = 0; i < n; i++) a.push({ k: (i * 7919) % n }); a.sort((x, y) => x.k - y.k); return a.length; }
onmessage = function (e) { postMessage(e.data === "fib" ? fib(20) : e.data === "loop" ? loop(100000) : sort(10000)); };`
	for _, work := range []string{"loop", "fib", "sort"} {
		for _, inspectable := range []bool{false, true} {
			name := work + "/plain"
			if inspectable {
				name = work + "/inspectable"
			}
			b.Run(name, func(b *testing.B) {
				w, err := core.Spawn(src, core.Options{Inspectable: inspectable})
				if err != nil {
					b.Fatal(err)
				}
				defer w.Release()
				rt := goja.New()
				msg := rt.ToValue(work)
				for b.Loop() {
					if err := w.PostMessage(rt, msg); err != nil {
						b.Fatal(err)
					}
					if _, err := w.Receive(rt, long); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestDebugger_PauseOnExceptions: a JavaScript throw pauses with reason
// "exception" and the thrown value as data before the stack unwinds;
// "uncaught" skips a throw inside a try of its own function.
func TestDebugger_PauseOnExceptions(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `function local() {
  try {
    throw new Error("inner");
  } catch (e) {
    return e.message;
  }
}
function bad(v) {
  throw { v: v };
}
onmessage = function (e) {
  var r = local();
  try { bad(e.data); } catch (x) { r += x.v; }
  postMessage(r);
};`, core.Options{Filename: "exc.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	if m := d.send("Debugger.setPauseOnExceptions", `{"state":"sometimes"}`); m["error"] == nil {
		t.Fatalf("unknown state accepted: %v", m)
	}
	d.ok("Debugger.setPauseOnExceptions", `{"state":"all"}`)
	w.PostMessage(rt, rt.ToValue(1))
	p := d.paused()
	data, _ := p["data"].(map[string]any)
	if p["reason"] != "exception" || topLine(p) != 2 || data["className"] != "Error" {
		t.Fatalf("first pause = %v", p)
	}
	d.ok("Debugger.resume", "")
	p = d.paused()
	data, _ = p["data"].(map[string]any)
	if p["reason"] != "exception" || topLine(p) != 8 || data["type"] != "object" || data["objectId"] == nil {
		t.Fatalf("second pause = %v", p)
	}
	props := d.ok("Runtime.getProperties", fmt.Sprintf(`{"objectId":%q,"ownProperties":true}`, data["objectId"]))
	if !strings.Contains(fmt.Sprint(props), "name:v ") {
		t.Fatalf("thrown object properties = %v", props)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.String() != "inner1" {
		t.Fatalf("reply = %v", v)
	}
	d.ok("Debugger.setPauseOnExceptions", `{"state":"uncaught"}`)
	w.PostMessage(rt, rt.ToValue(2))
	if p := d.paused(); p["reason"] != "exception" || topLine(p) != 8 {
		t.Fatalf("uncaught pause = %v", p)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.String() != "inner2" {
		t.Fatalf("reply = %v", v)
	}
	d.ok("Debugger.setPauseOnExceptions", `{"state":"none"}`)
	w.PostMessage(rt, rt.ToValue(3))
	if v := recv(t, w, rt); v.String() != "inner3" {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_EvaluateOnCallFrame: an expression sees the paused frame's
// locals and `this`; assignments to locals, by evaluation or by
// setVariableValue, take effect when the worker resumes; const refuses.
func TestDebugger_EvaluateOnCallFrame(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `var g = 1;
function work(a) {
  var x = a * 2;
  const k = 5;
  {
    let y = 3;
    debugger;
    postMessage([this.tag, x, y, k, a].join());
  }
}
onmessage = function (e) { work.call({ tag: "T" }, e.data); };`, core.Options{Filename: "eval.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	w.PostMessage(rt, rt.ToValue(10))
	p := d.paused()
	frames := p["callFrames"].([]any)
	top := frames[0].(map[string]any)
	if this := top["this"].(map[string]any); this["type"] != "object" {
		t.Fatalf("this = %v", this)
	}
	eval := func(frame, expr string) map[string]any {
		t.Helper()
		return d.ok("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":%q,"returnByValue":true}`, frame, expr))
	}
	id := top["callFrameId"].(string)
	if r := eval(id, "[x, y, k, a, this.tag, g, typeof arguments].join()")["result"].(map[string]any); r["value"] != "20,3,5,10,T,1,undefined" {
		t.Fatalf("evaluate = %v", r)
	}
	eval(id, "x = 100")
	if r := eval(id, "x + 1")["result"].(map[string]any); r["value"] != float64(101) {
		t.Fatalf("after assignment: %v", r)
	}
	if r := eval(id, "nope"); r["exceptionDetails"] == nil {
		t.Fatalf("a ReferenceError was not reported: %v", r)
	}
	d.ok("Debugger.setVariableValue", fmt.Sprintf(`{"callFrameId":%q,"scopeNumber":0,"variableName":"y","newValue":{"value":7}}`, id))
	if m := d.send("Debugger.setVariableValue", fmt.Sprintf(`{"callFrameId":%q,"scopeNumber":0,"variableName":"k","newValue":{"value":7}}`, id)); m["error"] == nil {
		t.Fatalf("const written: %v", m)
	}
	outer := frames[1].(map[string]any)["callFrameId"].(string)
	if r := eval(outer, "g + 1")["result"].(map[string]any); r["value"] != float64(2) {
		t.Fatalf("evaluate in an outer frame = %v", r)
	}
	if m := d.send("Debugger.evaluateOnCallFrame", `{"callFrameId":"99.0","expression":"1"}`); m["error"] == nil {
		t.Fatalf("stale callFrameId accepted: %v", m)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.String() != "T,100,7,5,10" {
		t.Fatalf("reply = %v", v)
	}
	if m := d.send("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":"1"}`, id)); m["error"] == nil {
		t.Fatalf("evaluateOnCallFrame while running: %v", m)
	}
}

// TestDebugger_HooksOnSameResult: with the hooks on (a session has the
// domain enabled, nothing pauses) code that passes its locals to them
// computes what the plain compilation does — derived constructors before
// super(), TDZ bindings, arguments, generators, static blocks.
func TestDebugger_HooksOnSameResult(t *testing.T) {
	src := `"use strict";
class A { constructor(v) { this.v = v; } }
class B extends A { constructor(v) { const w = v + 1; super(w); this.w = w; } static { let s = 1; B.s = s; } }
function sloppy() { return (function (a, b) { var c = arguments.length; { let d = a + c; b = d; } return [a, b, c].join(); })(1, 2, 3); }
function* gen(n) { for (let i = 0; i < n; i++) { const sq = i * i; yield sq; } }
function sw(x) { switch (x) { case 1: let y = 10; return y; default: return -1; } }
function tdz() { try { return later; } catch (e) { return e.name; } let later = 1; }
function defaults(cb = () => typeof inBody, { d = () => 2 } = {}) { var inBody = 1; return cb() + d(); }
const arrow = (p, ...rest) => { let q = p; for (const r of rest) { q += r; } return q; };
var out = [new B(1).w, B.s, sloppy(), [...gen(4)].join(), sw(1), sw(2), tdz(), arrow(1, 2, 3), defaults()];
try { (function thrower(z) { throw new Error("e" + z); })(5); } catch (e) { out.push(e.message); }
postMessage(out.join("|"));`
	rt := goja.New()
	plain := spawn(t, src, core.Options{Filename: "same.js"})
	want := recv(t, plain, rt).String()
	instr, err := core.Spawn(`onmessage = function (e) { run(); };
function run() {
`+src+`
}`, core.Options{Filename: "same.js", Inspectable: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { instr.Terminate(); instr.Release() })
	d := attach(t, instr)
	d.ok("Debugger.enable", "")
	// Nothing pauses (tdz's ReferenceError would, in "caught"), but every hook runs and passes its locals.
	d.ok("Debugger.setPauseOnExceptions", `{"state":"none"}`)
	instr.PostMessage(rt, rt.ToValue(0))
	if got := recv(t, instr, rt).String(); got != want {
		t.Fatalf("hooks on: %q, plain: %q", got, want)
	}
}

// TestDebugger_IssueScenario: the four-line handler of issue 7 — a URL
// breakpoint, the local read and written through evaluateOnCallFrame, a
// step, then a pause on the caught throw; the reply shows the write stuck.
func TestDebugger_IssueScenario(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = (e) => {
  let x = e.data; x += 1;
  x += 2;
  try { throw x; } catch (caught) { x = caught + 1; }
  postMessage(x);
};`, core.Options{Filename: "issue.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	d.ok("Debugger.setPauseOnExceptions", `{"state":"all"}`)
	d.ok("Debugger.setBreakpointByUrl", `{"url":"issue.js","lineNumber":1,"columnNumber":18}`)
	w.PostMessage(rt, rt.ToValue(1))
	p := d.paused()
	top := p["callFrames"].([]any)[0].(map[string]any)
	if topLine(p) != 1 || top["location"].(map[string]any)["columnNumber"] != float64(18) {
		t.Fatalf("paused = %v", p)
	}
	id := top["callFrameId"].(string)
	local := top["scopeChain"].([]any)[0].(map[string]any)["object"].(map[string]any)["objectId"].(string)
	props := d.ok("Runtime.getProperties", fmt.Sprintf(`{"objectId":%q,"ownProperties":true}`, local))
	if !strings.Contains(fmt.Sprint(props), "name:x value:map[description:1 type:number value:1]") {
		t.Fatalf("local scope = %v", props)
	}
	r := d.ok("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":"x = 100; x"}`, id))
	if r["result"].(map[string]any)["value"] != float64(100) {
		t.Fatalf("x = 100; x → %v", r)
	}
	o := d.ok("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":"({ seen: x })","objectGroup":"mine"}`, id))
	oid := o["result"].(map[string]any)["objectId"].(string)
	if props := d.ok("Runtime.getProperties", fmt.Sprintf(`{"objectId":%q,"ownProperties":true}`, oid)); !strings.Contains(fmt.Sprint(props), "value:100") {
		t.Fatalf("object properties = %v", props)
	}
	d.ok("Debugger.stepOver", "")
	if p := d.paused(); p["reason"] != "other" || topLine(p) != 2 {
		t.Fatalf("step pause = %v", p)
	}
	d.ok("Debugger.resume", "")
	p = d.paused()
	if p["reason"] != "exception" || p["data"].(map[string]any)["value"] != float64(103) {
		t.Fatalf("exception pause = %v", p)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 104 {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_ConditionalBreakpoint: a condition sees the frame's locals; a
// falsy or throwing one does not pause; code it calls never pauses; while
// setSkipAllPauses is on nothing pauses.
func TestDebugger_ConditionalBreakpoint(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `function big(n) {
  return n > 10;
}
onmessage = function (e) {
  var x = e.data;
  x += 1;
  postMessage(x);
};`, core.Options{Filename: "cond.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	d.ok("Debugger.setBreakpointByUrl", `{"url":"cond.js","lineNumber":1}`)
	d.ok("Debugger.setBreakpointByUrl", `{"url":"cond.js","lineNumber":5,"condition":"big(x)"}`)
	d.ok("Debugger.setBreakpointByUrl", `{"url":"cond.js","lineNumber":6,"condition":"nope.x"}`)
	w.PostMessage(rt, rt.ToValue(1))
	if v := recv(t, w, rt); v.ToInteger() != 2 {
		t.Fatalf("reply = %v", v)
	}
	w.PostMessage(rt, rt.ToValue(20))
	p := d.paused()
	if topLine(p) != 5 {
		t.Fatalf("paused = %v", p)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 21 {
		t.Fatalf("reply = %v", v)
	}
	d.ok("Debugger.setSkipAllPauses", `{"skip":true}`)
	w.PostMessage(rt, rt.ToValue(30))
	if v := recv(t, w, rt); v.ToInteger() != 31 {
		t.Fatalf("reply = %v", v)
	}
	d.ok("Debugger.setSkipAllPauses", `{"skip":false}`)
	w.PostMessage(rt, rt.ToValue(40))
	if p := d.paused(); topLine(p) != 5 {
		t.Fatalf("paused = %v", p)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 41 {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_OwnerDetachResumes: the session that enabled first owns the
// pause; an observer's resume is refused; detaching the owner while paused
// resumes the worker and the observer sees Debugger.resumed.
func TestDebugger_OwnerDetachResumes(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = function (e) { debugger; postMessage(e.data); };`, core.Options{Inspectable: true})
	owner, obs := attach(t, w), attach(t, w)
	owner.ok("Debugger.enable", "")
	obs.ok("Debugger.enable", "")
	w.PostMessage(rt, rt.ToValue(3))
	obs.paused()
	owner.paused()
	if m := obs.send("Debugger.resume", ""); m["error"] == nil {
		t.Fatalf("observer resumed: %v", m)
	}
	w.DetachInspectorSession(owner.s)
	cdp(t, obs.s, event("Debugger.resumed"))
	if v := recv(t, w, rt); v.ToInteger() != 3 {
		t.Fatalf("reply after the owner detached = %v", v)
	}
}

// TestDebugger_WaitForDebugger: a worker created with WaitForDebugger runs
// nothing (not even queued messages) until runIfWaitingForDebugger; with the
// Debugger enabled it then pauses at its first statement ("Break on start").
// A second runIfWaitingForDebugger is a no-op.
func TestDebugger_WaitForDebugger(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `var started = 1;
onmessage = (e) => postMessage(e.data + started);`, core.Options{Filename: "brk.js", Inspectable: true, WaitForDebugger: true})
	if err := w.PostMessage(rt, rt.ToValue(41)); err != nil {
		t.Fatal(err)
	}
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	// Served while waiting, before the script ran.
	if got := d.ok("Runtime.evaluate", `{"expression":"typeof started"}`)["result"].(map[string]any)["value"]; got != "undefined" {
		t.Fatalf("the script ran before runIfWaitingForDebugger: typeof started = %v", got)
	}
	if _, err := w.Receive(rt, 0); err != core.ErrNoMessage {
		t.Fatalf("the worker served a message while waiting: %v", err)
	}
	d.ok("Runtime.runIfWaitingForDebugger", "")
	p := d.paused()
	if p["reason"] != "Break on start" || topLine(p) != 0 {
		t.Fatalf("paused = %v", p)
	}
	d.ok("Runtime.runIfWaitingForDebugger", "")
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 42 {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_WaitForDebuggerTerminate: Terminate ends a worker that is
// still waiting for a debugger, without running its script.
func TestDebugger_WaitForDebuggerTerminate(t *testing.T) {
	w := spawn(t, `postMessage("ran");`, core.Options{WaitForDebugger: true})
	w.Terminate()
	if err := w.Join(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if f, err := w.ReceiveFrame(0); err != core.ErrClosed {
		t.Fatalf("the script ran: %v %v", f, err)
	}
}

// TestDebugger_BuiltinErrors: errors raised by builtins and the engine (not
// by a throw statement) pause too: caught in their own function for
// "caught", leaving their function for "uncaught", both for "all" — with
// frame 0 at the place the error was raised and the function's locals, and
// once per exception however far it propagates.
func TestDebugger_BuiltinErrors(t *testing.T) {
	src := `function deep(o) { return o.missing.x; }
function caughtHere() { try { null.y; } catch (err) { return "caught " + err.name; } }
onmessage = (e) => {
  let r = caughtHere();
  try { deep({}); } catch (e2) { r += "|" + e2.name; }
  postMessage(r);
};`
	type stop struct {
		fn   string
		line float64
	}
	for _, tc := range []struct {
		state string
		want  []stop
	}{
		{"caught", []stop{{"caughtHere", 1}}},
		{"uncaught", []stop{{"deep", 0}}},
		{"all", []stop{{"caughtHere", 1}, {"deep", 0}}},
	} {
		t.Run(tc.state, func(t *testing.T) {
			rt := goja.New()
			w := spawn(t, src, core.Options{Filename: "builtin.js", Inspectable: true})
			d := attach(t, w)
			d.ok("Debugger.enable", "")
			d.ok("Debugger.setPauseOnExceptions", fmt.Sprintf(`{"state":%q}`, tc.state))
			if err := w.PostMessage(rt, rt.ToValue(0)); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.want {
				p := d.paused()
				f := p["callFrames"].([]any)[0].(map[string]any)
				data, _ := p["data"].(map[string]any)
				if p["reason"] != "exception" || f["functionName"] != want.fn || topLine(p) != want.line ||
					data["className"] != "TypeError" {
					t.Fatalf("paused = %v, want %v", p, want)
				}
				if want.fn == "deep" { // the function's parameter is in its local scope
					if local := d.scopeValues(p)["local"]; len(local) != 1 || !hasKey(local, "o") {
						t.Fatalf("deep's scope = %v", local)
					}
				}
				d.ok("Debugger.resume", "")
			}
			if v := recv(t, w, rt); v.String() != "caught TypeError|TypeError" {
				t.Fatalf("reply = %v", v)
			}
		})
	}
}

// scopeValues reads the non-global scopes of a pause's top frame: scope
// type → variable name → value.
func (d *dbgSession) scopeValues(p map[string]any) map[string]map[string]any {
	d.t.Helper()
	out := map[string]map[string]any{}
	f := p["callFrames"].([]any)[0].(map[string]any)
	for _, s := range f["scopeChain"].([]any) {
		s := s.(map[string]any)
		if s["type"] == "global" {
			continue
		}
		props := d.ok("Runtime.getProperties", fmt.Sprintf(`{"objectId":%q,"ownProperties":true}`,
			s["object"].(map[string]any)["objectId"]))
		vals := map[string]any{}
		for _, p := range props["result"].([]any) {
			p := p.(map[string]any)
			vals[p["name"].(string)] = p["value"].(map[string]any)["value"]
		}
		out[s["type"].(string)] = vals
	}
	return out
}

// TestDebugger_ClosureScope: a pause inside a nested function shows the
// enclosing function's variables it can reach as a "closure" scope;
// evaluation reads them and writes to them (evaluateOnCallFrame and
// setVariableValue on scope 1) stick. A hoisted function declaration sees
// only the enclosing parameters and vars (its lets may still be in their
// TDZ when it runs).
func TestDebugger_ClosureScope(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `function outer(a) {
  var v = a + 1;
  let l = 10;
  const k = 5;
  const inner = (x) => {
    let y = x + v;
    debugger;
    return y + l + k + a;
  };
  function hoisted() { debugger; return v; }
  return [inner(1), hoisted(), v, l];
}
onmessage = (e) => postMessage(outer(e.data).join());`, core.Options{Filename: "closure.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	if err := w.PostMessage(rt, rt.ToValue(1)); err != nil {
		t.Fatal(err)
	}
	scopes := d.scopeValues
	p := d.paused()
	got := scopes(p)
	if fmt.Sprint(got["local"]) != "map[x:1 y:3]" || fmt.Sprint(got["closure"]) != "map[a:1 k:5 l:10 v:2]" || got["block"] != nil {
		t.Fatalf("inner's scopes = %v", got)
	}
	frame := p["callFrames"].([]any)[0].(map[string]any)["callFrameId"].(string)
	eval := func(expr string) any {
		r := d.ok("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":%q}`, frame, expr))
		return r["result"].(map[string]any)["value"]
	}
	if v := eval("v + l + y"); v != float64(15) {
		t.Fatalf("v + l + y = %v", v)
	}
	if v := eval("l = 20"); v != float64(20) {
		t.Fatalf("l = 20 answered %v", v)
	}
	d.ok("Debugger.setVariableValue", fmt.Sprintf(`{"scopeNumber":1,"variableName":"v","newValue":{"value":7},"callFrameId":%q}`, frame))
	if m := d.send("Debugger.setVariableValue", fmt.Sprintf(`{"scopeNumber":1,"variableName":"k","newValue":{"value":0},"callFrameId":%q}`, frame)); m["error"] == nil {
		t.Fatalf("a closure const was written: %v", m)
	}
	d.ok("Debugger.resume", "")
	got = scopes(d.paused())
	if fmt.Sprint(got["closure"]) != "map[a:1 v:7]" {
		t.Fatalf("hoisted's closure = %v", got)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.String() != "29,7,7,20" {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_PromiseRejection: an exception nothing catches in an async
// function pauses with reason "promiseRejection" (it rejects the function's
// promise), one caught there with "exception".
func TestDebugger_PromiseRejection(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `async function fails() { throw new Error("no"); }
async function handles() { try { null.x; } catch (e) { return 1; } }
onmessage = async (e) => {
  await handles();
  try { await fails(); } catch (err) { postMessage(err.message); }
};`, core.Options{Filename: "rej.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	d.ok("Debugger.setPauseOnExceptions", `{"state":"all"}`)
	w.PostMessage(rt, rt.ToValue(0))
	for _, want := range []struct {
		reason string
		line   float64
	}{{"exception", 1}, {"promiseRejection", 0}} {
		p := d.paused()
		if p["reason"] != want.reason || topLine(p) != want.line {
			t.Fatalf("paused = %v, want %v", p, want)
		}
		d.ok("Debugger.resume", "")
	}
	if v := recv(t, w, rt); v.String() != "no" {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_ConciseArrow: an expression-bodied arrow function has a
// pause point: a breakpoint inside it hits on every call, with its
// parameter in the local scope.
func TestDebugger_ConciseArrow(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = (e) => {
  const out = [1, 2].map((x) => x * 10);
  postMessage(out.join());
};`, core.Options{Filename: "arrow.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	col := strings.Index("  const out = [1, 2].map((x) => x * 10);", "x * 10")
	r := d.ok("Debugger.setBreakpointByUrl", fmt.Sprintf(`{"url":"arrow.js","lineNumber":1,"columnNumber":%d}`, col))
	if loc := r["locations"].([]any); len(loc) != 1 || loc[0].(map[string]any)["columnNumber"] != float64(col) {
		t.Fatalf("breakpoint = %v", r)
	}
	w.PostMessage(rt, rt.ToValue(0))
	for _, x := range []float64{1, 2} {
		p := d.paused()
		f := p["callFrames"].([]any)[0].(map[string]any)
		if topLine(p) != 1 || f["location"].(map[string]any)["columnNumber"] != float64(col) || len(p["hitBreakpoints"].([]any)) != 1 {
			t.Fatalf("paused = %v", p)
		}
		frame := f["callFrameId"].(string)
		v := d.ok("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":"x"}`, frame))
		if v["result"].(map[string]any)["value"] != x {
			t.Fatalf("x = %v, want %v", v, x)
		}
		d.ok("Debugger.resume", "")
	}
	if v := recv(t, w, rt); v.String() != "10,20" {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_BlockScope: bindings of nested blocks are a "block" scope,
// listed before "local"; setVariableValue writes into it by its index.
func TestDebugger_BlockScope(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `function f(a) {
  let t = 1;
  {
    const b = 2;
    let c = 3;
    debugger;
    c += b;
    return [a, t, c].join();
  }
}
onmessage = (e) => postMessage(f(e.data));`, core.Options{Filename: "block.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	w.PostMessage(rt, rt.ToValue(7))
	p := d.paused()
	f := p["callFrames"].([]any)[0].(map[string]any)
	var types []string
	for _, s := range f["scopeChain"].([]any) {
		types = append(types, s.(map[string]any)["type"].(string))
	}
	if strings.Join(types, ",") != "block,local,global" {
		t.Fatalf("scope chain = %v", types)
	}
	frame := f["callFrameId"].(string)
	d.ok("Debugger.setVariableValue", fmt.Sprintf(`{"scopeNumber":0,"variableName":"c","newValue":{"value":10},"callFrameId":%q}`, frame))
	if m := d.send("Debugger.setVariableValue", fmt.Sprintf(`{"scopeNumber":0,"variableName":"t","newValue":{"value":0},"callFrameId":%q}`, frame)); m["error"] == nil {
		t.Fatalf("t was found in the block scope: %v", m)
	}
	v := d.ok("Debugger.evaluateOnCallFrame", fmt.Sprintf(`{"callFrameId":%q,"expression":"a + t + b + c"}`, frame))
	if v["result"].(map[string]any)["value"] != float64(20) {
		t.Fatalf("a + t + b + c = %v", v)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.String() != "7,1,12" {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_PerSessionExceptionStates: each session's pause-on-exceptions
// state counts (an exception pauses if some session asked for its kind),
// and a session that leaves takes its state along; skipping all pauses
// needs every session to ask for it.
func TestDebugger_PerSessionExceptionStates(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = (e) => {
  try { throw 1; } catch (x) {}
  if (e.data === "debugger") { debugger; }
  postMessage(e.data);
};`, core.Options{Filename: "states.js", Inspectable: true})
	a, b := attach(t, w), attach(t, w)
	a.ok("Debugger.enable", "")
	b.ok("Debugger.enable", "")
	a.ok("Debugger.setPauseOnExceptions", `{"state":"none"}`)
	b.ok("Debugger.setPauseOnExceptions", `{"state":"caught"}`)
	w.PostMessage(rt, rt.ToValue("x"))
	if p := b.paused(); p["reason"] != "exception" {
		t.Fatalf("b's caught state did not pause: %v", p)
	}
	a.paused()
	a.ok("Debugger.resume", "") // a enabled first: it owns the pause
	if v := recv(t, w, rt); v.String() != "x" {
		t.Fatalf("reply = %v", v)
	}
	w.DetachInspectorSession(b.s) // b's state goes with it, on the worker's thread
	select {
	case <-b.s.Dropped():
	case <-time.After(long):
		t.Fatal("the detach never ran")
	}
	w.PostMessage(rt, rt.ToValue("y"))
	if v := recv(t, w, rt); v.String() != "y" {
		t.Fatalf("reply = %v", v)
	}
	c := attach(t, w)
	c.ok("Debugger.enable", "")
	a.ok("Debugger.setSkipAllPauses", `{"skip":true}`)
	w.PostMessage(rt, rt.ToValue("debugger")) // c does not skip: the debugger statement pauses
	if p := c.paused(); p["reason"] != "other" {
		t.Fatalf("paused = %v", p)
	}
	a.paused()
	a.ok("Debugger.resume", "")
	recv(t, w, rt)
	c.ok("Debugger.setSkipAllPauses", `{"skip":true}`)
	w.PostMessage(rt, rt.ToValue("debugger")) // now every session skips
	if v := recv(t, w, rt); v.String() != "debugger" {
		t.Fatalf("reply = %v", v)
	}
}

// TestDebugger_StepOverAwait: a step over an await whose promise settles in
// a later macrotask (a timer) pauses at the next statement of the same async
// function when it resumes; a step off the end of an async function does not
// pause its next call.
func TestDebugger_StepOverAwait(t *testing.T) {
	rt := goja.New()
	w := spawn(t, `onmessage = async (e) => {
  let a = e.data;
  debugger;
  await new Promise((r) => setTimeout(r, 5));
  a += 1;
  postMessage(a);
};`, core.Options{Filename: "await.js", Inspectable: true})
	d := attach(t, w)
	d.ok("Debugger.enable", "")
	w.PostMessage(rt, rt.ToValue(1))
	if l := topLine(d.paused()); l != 2 {
		t.Fatalf("paused at line %v", l)
	}
	var lines []float64
	for range 3 {
		d.ok("Debugger.stepOver", "")
		lines = append(lines, topLine(d.paused()))
	}
	if fmt.Sprint(lines) != "[3 4 5]" {
		t.Fatalf("stepOver paused at lines %v, want [3 4 5]", lines)
	}
	d.ok("Debugger.stepOver", "") // off the end of the function
	if v := recv(t, w, rt); v.ToInteger() != 2 {
		t.Fatalf("reply = %v", v)
	}
	d.ok("Debugger.setSkipAllPauses", `{"skip":false}`) // a round trip: the worker is idle, the step is over
	w.PostMessage(rt, rt.ToValue(10))
	if l := topLine(d.paused()); l != 2 { // the next call pauses at debugger;, not at its first statement
		t.Fatalf("the next call paused at line %v", l)
	}
	d.ok("Debugger.resume", "")
	if v := recv(t, w, rt); v.ToInteger() != 11 {
		t.Fatalf("reply = %v", v)
	}
}

func hasKey(m map[string]any, k string) bool { _, ok := m[k]; return ok }
