package inspector

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// ask dispatches one command and returns its answer.
func ask(t *testing.T, s *Session, id int, method, params string) map[string]any {
	t.Helper()
	if params == "" {
		params = "{}"
	}
	dispatch(t, s, `{"id":%d,"method":%q,"params":%s}`, id, method, params)
	return answerTo(t, s, id)
}

// runIn compiles src instrumented as name and runs it to the end on the loop.
func runIn(t *testing.T, lt *loopTarget, name, src string) {
	t.Helper()
	lt.do(func(rt *goja.Runtime) {
		prg, err := lt.dbg.Compile(name, src)
		if err == nil {
			_, err = rt.RunProgram(prg)
		}
		if err != nil {
			t.Errorf("run: %v", err)
		}
		lt.dbg.TaskDone()
	})
}

// TestProfiler_CPUProfile records a profile of a busy program and checks
// its shape: the call tree, the samples and their time deltas.
func TestProfiler_CPUProfile(t *testing.T) {
	lt := newLoopTarget(t, 1)
	s := lt.attach()
	defer s.Close()
	next(t, s)
	if e := field(ask(t, s, 1, "Profiler.start", ""), "error", "message"); e != "Profiler is not enabled" {
		t.Fatalf("start before enable: %v", e)
	}
	ask(t, s, 2, "Profiler.enable", "")
	ask(t, s, 3, "Profiler.setSamplingInterval", `{"interval":200}`)
	ask(t, s, 4, "Profiler.start", "")
	if e := field(ask(t, s, 5, "Profiler.setSamplingInterval", `{"interval":100}`), "error", "message"); e == nil {
		t.Error("setSamplingInterval while recording was accepted")
	}
	began := time.Now()
	runIn(t, lt, "file:///prof.js", `
function fib(n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}
function work() {
  var t = Date.now();
  while (Date.now() - t < 60) {
    fib(12);
  }
}
work();
`)
	elapsed := time.Since(began)
	m := ask(t, s, 6, "Profiler.stop", "")
	raw, _ := json.Marshal(field(m, "result", "profile"))
	var p cpuProfile
	var nodes []struct {
		ID        int            `json:"id"`
		CallFrame profCallFrame  `json:"callFrame"`
		HitCount  int            `json:"hitCount"`
		Children  []int          `json:"children"`
		Ticks     []positionTick `json:"positionTicks"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	var shape struct {
		Nodes json.RawMessage `json:"nodes"`
	}
	_ = json.Unmarshal(raw, &shape)
	_ = json.Unmarshal(shape.Nodes, &nodes)
	if len(nodes) < 4 || nodes[0].CallFrame.FunctionName != "(root)" {
		t.Fatalf("nodes = %s", shape.Nodes)
	}
	byID := map[int]int{}
	parent := map[int]int{}
	hits := 0
	for i, n := range nodes {
		byID[n.ID] = i
		hits += n.HitCount
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	if len(p.Samples) < 20 || len(p.Samples) != len(p.TimeDeltas) || hits != len(p.Samples) {
		t.Fatalf("%d samples, %d deltas, %d hits", len(p.Samples), len(p.TimeDeltas), hits)
	}
	var sum int64
	for i, id := range p.Samples {
		if _, ok := byID[id]; !ok {
			t.Fatalf("sample %d names node %d, not in nodes", i, id)
		}
		if p.TimeDeltas[i] < 0 {
			t.Fatalf("negative delta %d", p.TimeDeltas[i])
		}
		sum += p.TimeDeltas[i]
	}
	if d := time.Duration(sum) * time.Microsecond; d < 60*time.Millisecond || d > elapsed+time.Second {
		t.Errorf("deltas sum to %v; the program ran %v", d, elapsed)
	}
	if p.EndTime-p.StartTime != sum {
		t.Errorf("endTime-startTime = %d, deltas sum to %d", p.EndTime-p.StartTime, sum)
	}
	// fib is sampled below work, below the script's top level, with ticks
	// on its lines; most samples fall in fib or work.
	var fibHits, workHits int
	for _, n := range nodes {
		switch n.CallFrame.FunctionName {
		case "fib":
			fibHits += n.HitCount
			if n.CallFrame.URL != "file:///prof.js" || n.CallFrame.ScriptID == "0" {
				t.Errorf("fib's callFrame = %+v", n.CallFrame)
			}
			up := nodes[byID[parent[n.ID]]].CallFrame.FunctionName
			if up != "fib" && up != "work" {
				t.Errorf("fib's parent is %q", up)
			}
			for _, pt := range n.Ticks {
				if pt.Line < 2 || pt.Line > 5 {
					t.Errorf("fib tick on line %d", pt.Line)
				}
			}
		case "work":
			workHits += n.HitCount
			if up := nodes[byID[parent[n.ID]]].CallFrame.FunctionName; up != "" {
				t.Errorf("work's parent is %q", up)
			}
		}
	}
	if fibHits+workHits < len(p.Samples)*3/4 {
		t.Errorf("fib %d + work %d of %d samples", fibHits, workHits, len(p.Samples))
	}
	if e := field(ask(t, s, 7, "Profiler.stop", ""), "error", "message"); e != "No recording profiles found" {
		t.Errorf("second stop: %v", e)
	}
	ask(t, s, 8, "Profiler.disable", "")
	lt.do(func(rt *goja.Runtime) {
		if on := rt.Get(onName); on.ToBoolean() || lt.dbg.flag.On() {
			t.Errorf("hooks still on after the profile (%s %v, the depth guard's value %v)", onName, on, lt.dbg.flag.On())
		}
	})
}

// TestProfiler_NotInspectable answers a precise error on a plain target.
func TestProfiler_NotInspectable(t *testing.T) {
	s := newSyncTarget().attach()
	defer s.Close()
	next(t, s)
	if c := field(ask(t, s, 1, "Profiler.enable", ""), "error", "code"); c != float64(codeServerError) {
		t.Errorf("Profiler.enable on a plain target: %v", c)
	}
}

// waitEvent returns the next event named method, skipping others.
func waitEvent(t *testing.T, s *Session, method string) map[string]any {
	t.Helper()
	for {
		if m := next(t, s); m["method"] == method {
			return m
		}
	}
}

func pausedLine(m map[string]any) any {
	frames, _ := field(m, "params", "callFrames").([]any)
	if len(frames) == 0 {
		return nil
	}
	return field(frames[0].(map[string]any), "location", "lineNumber")
}

// TestDebugger_BlackboxAndContinueToLocation steps over an ignore-listed
// script's statements and continues to a location.
func TestDebugger_BlackboxAndContinueToLocation(t *testing.T) {
	lt := newLoopTarget(t, 1)
	s := lt.attach()
	defer s.Close()
	next(t, s)
	ask(t, s, 1, "Debugger.enable", "")
	lt.do(func(rt *goja.Runtime) {
		prg, err := lt.dbg.Compile("node:internal/lib.js", "function lib(f) {\n  var x = 1;\n  return f(x);\n}\n")
		if err == nil {
			_, err = rt.RunProgram(prg)
		}
		if err != nil {
			t.Error(err)
		}
	})
	ask(t, s, 2, "Debugger.setBlackboxPatterns", `{"patterns":["^node:internal\\/"]}`)
	if e := field(ask(t, s, 3, "Debugger.setBlackboxPatterns", `{"patterns":["("]}`), "error", "message"); e == nil {
		t.Error("a bad pattern was accepted")
	}
	ask(t, s, 4, "Debugger.setBlackboxPatterns", `{"patterns":["^node:internal\\/"]}`)
	lt.start(t, "debugger;\nlib(function (v) {\n  return v + 1;\n});\nvar a = 1;\nvar b = 2;\nvar c = 3;\n")
	if l := pausedLine(waitEvent(t, s, evPaused)); l != float64(0) {
		t.Fatalf("paused at line %v", l)
	}
	ask(t, s, 5, "Debugger.stepInto", "")
	if l := pausedLine(waitEvent(t, s, evPaused)); l != float64(1) {
		t.Fatalf("stepInto paused at line %v", l)
	}
	// stepInto from lib(...) passes over lib's statements into the callback.
	ask(t, s, 6, "Debugger.stepInto", "")
	m := waitEvent(t, s, evPaused)
	if l := pausedLine(m); l != float64(2) {
		t.Fatalf("stepInto over the ignore-listed lib paused at line %v (%v)", l, field(m, "params", "callFrames"))
	}
	frames := field(m, "params", "callFrames").([]any)
	script := field(frames[0].(map[string]any), "location", "scriptId")
	if script != "2" || len(frames) != 3 { // the callback, called by lib, called by the top level
		t.Fatalf("stepInto paused in script %v with %d frames, want the callback in script 2", script, len(frames))
	}
	ask(t, s, 7, "Debugger.continueToLocation", `{"location":{"scriptId":"`+script.(string)+`","lineNumber":6}}`)
	if l := pausedLine(waitEvent(t, s, evPaused)); l != float64(6) {
		t.Fatalf("continueToLocation paused at line %v", l)
	}
	ask(t, s, 8, "Debugger.resume", "")
	if e := field(ask(t, s, 9, "Debugger.continueToLocation", `{"location":{"scriptId":"1","lineNumber":0}}`), "error", "message"); e != msgNotPaused {
		t.Errorf("continueToLocation while running: %v", e)
	}
	if c := field(ask(t, s, 10, "Debugger.setAsyncCallStackDepth", `{"maxDepth":32}`), "error"); c != nil {
		t.Errorf("setAsyncCallStackDepth: %v", c)
	}
	ask(t, s, 11, "Debugger.setBlackboxedRanges", `{"scriptId":"1","positions":[{"lineNumber":0,"columnNumber":0},{"lineNumber":9,"columnNumber":0}]}`)
	lt.do(func(*goja.Runtime) {
		if !lt.dbg.blackboxed(lt.dbg.scripts[0].stmts[0]) {
			t.Error("statement in a blackboxed range not ignore-listed")
		}
	})
	if e := field(ask(t, s, 12, "Debugger.setBlackboxedRanges", `{"scriptId":"1","positions":[{"lineNumber":3,"columnNumber":0},{"lineNumber":1,"columnNumber":0}]}`), "error", "message"); e == nil {
		t.Error("unsorted positions accepted")
	}
}

// TestRuntime_Ext covers getIsolateId, getHeapUsage,
// globalLexicalScopeNames and compileScript/runScript.
func TestRuntime_Ext(t *testing.T) {
	lt := newLoopTarget(t, 1)
	s := lt.attach()
	defer s.Close()
	next(t, s)
	runIn(t, lt, "file:///a.js", "let alpha = 1; const beta = 2; class Gamma {}; var delta = 4; { let inner = 5; }")
	if id := field(ask(t, s, 1, "Runtime.getIsolateId", ""), "result", "id"); id != lt.ctx.UniqueID {
		t.Errorf("isolate id %v", id)
	}
	h := ask(t, s, 2, "Runtime.getHeapUsage", "")
	if u, _ := field(h, "result", "usedSize").(float64); u <= 0 || u > field(h, "result", "totalSize").(float64) {
		t.Errorf("heap usage %v", h)
	}
	names, _ := json.Marshal(field(ask(t, s, 3, "Runtime.globalLexicalScopeNames", ""), "result", "names"))
	if string(names) != `["alpha","beta","Gamma"]` {
		t.Errorf("names = %s", names)
	}
	m := ask(t, s, 4, "Runtime.compileScript", `{"expression":"alpha + beta","sourceURL":"x.js","persistScript":true}`)
	id, _ := field(m, "result", "scriptId").(string)
	if id == "" {
		t.Fatalf("compileScript: %v", m)
	}
	if v := field(ask(t, s, 5, "Runtime.runScript", `{"scriptId":"`+id+`","returnByValue":true}`), "result", "result", "value"); v != float64(3) {
		t.Errorf("runScript = %v", v)
	}
	m = ask(t, s, 6, "Runtime.compileScript", `{"expression":"1 +","sourceURL":"y.js","persistScript":false}`)
	if txt, _ := field(m, "result", "exceptionDetails", "text").(string); txt == "" || field(m, "result", "exceptionDetails", "exception", "className") != "SyntaxError" {
		t.Errorf("syntax error answer: %v", m)
	}
	if e := field(ask(t, s, 7, "Runtime.runScript", `{"scriptId":"nope"}`), "error", "message"); e != "No script with given id" {
		t.Errorf("runScript unknown: %v", e)
	}
}

func TestFileURL(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/a b/x.js":       "file:///tmp/a%20b/x.js",
		"/srv/app.js":         "file:///srv/app.js",
		"file:///srv/app.mjs": "file:///srv/app.mjs",
		"worker-3.js":         "worker-3.js",
		"[worker eval]":       "[worker eval]",
	} {
		if got := fileURL(in); got != want {
			t.Errorf("fileURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAbsentDomain: Network.* answers why, not -32601.
func TestAbsentDomain(t *testing.T) {
	s := newSyncTarget().attach()
	defer s.Close()
	next(t, s)
	m := ask(t, s, 1, "Network.enable", "")
	if field(m, "error", "code") != float64(codeServerError) || field(m, "error", "message") != absentDomains["Network"] {
		t.Errorf("Network.enable = %v", m)
	}
}
