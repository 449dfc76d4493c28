package inspector

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
)

// TestDebugger_TopLevelRaise: an error a builtin raises at a script's top
// level, outside any try, pauses as uncaught (reason "exception", frame 0 at
// the raising statement) before the script ends; after the resume the
// script throws it as the plain script does.
func TestDebugger_TopLevelRaise(t *testing.T) {
	lt := newLoopTarget(t, 0)
	s := lt.attach()
	next(t, s)
	dispatch(t, s, `{"id":1,"method":"Debugger.enable"}`)
	answerTo(t, s, 1)
	dispatch(t, s, `{"id":2,"method":"Debugger.setPauseOnExceptions","params":{"state":"uncaught"}}`)
	answerTo(t, s, 2)
	const src = "var a = 1;\nfor (var i = 0; i < 2; i++) a++;\nnull.x;\n"
	errc := make(chan error, 1)
	lt.Run(func(rt *goja.Runtime) {
		prg, err := lt.dbg.Compile("top.js", src)
		if err == nil {
			_, err = rt.RunProgram(prg)
		}
		errc <- err
	})
	p := nextPaused(t, s)
	frame := field(p, "params", "callFrames").([]any)[0].(map[string]any)
	if field(p, "params", "reason") != "exception" || field(frame, "location", "lineNumber") != float64(2) ||
		field(p, "params", "data", "className") != "TypeError" {
		t.Fatalf("paused %v", p)
	}
	dispatch(t, s, `{"id":3,"method":"Debugger.resume"}`)
	answerTo(t, s, 3)
	err := <-errc
	_, plain := goja.New().RunString(src)
	var ex, pex *goja.Exception
	if !errors.As(err, &ex) || !errors.As(plain, &pex) || ex.Value().String() != pex.Value().String() {
		t.Fatalf("instrumented script threw %v, plain %v", err, plain)
	}
}

// TestInstrument_TopLevelBindings: the guards around top-level statements
// keep what a script declares global: let, const and class bindings in the
// global lexical scope, vars and functions on the global object, all visible
// to the next script; the directive prologue stays one (strict mode); the
// completion value is the last statement's.
func TestInstrument_TopLevelBindings(t *testing.T) {
	d := NewDebugger()
	rt := goja.New()
	if err := d.Install(rt, nil); err != nil {
		t.Fatal(err)
	}
	run := func(src string) goja.Value {
		t.Helper()
		prg, err := d.Compile("x.js", src)
		if err != nil {
			t.Fatal(err)
		}
		v, err := rt.RunProgram(prg)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		return v
	}
	if v := run(`"use strict"; let L = 1; const C = 2; class K {} function F() {} var V = 3; if (true) { V++ } V + L + ((function () { return this === undefined; })() ? 10 : 0)`); v.ToInteger() != 15 {
		t.Fatalf("first script = %v", v)
	}
	if v := run(`[L, C, typeof K, typeof F, V, Object.getOwnPropertyDescriptor(globalThis, "V").configurable].join()`); v.String() != "1,2,function,function,4,false" {
		t.Fatalf("second script = %v", v)
	}
	if v := run(`try { undefinedName } catch (e) { e.name }`); v.String() != "ReferenceError" {
		t.Fatalf("third script = %v", v)
	}
	if v := run(`(function () { return this === undefined; })()`); v.ToBoolean() {
		t.Fatal("the first script's directive leaked into the next")
	}
}
