package console

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestInspectRunsNoUserCode checks that getters and proxy traps never run,
// and that overwriting intrinsics after the console's first call (when it
// captures them) changes nothing.
func TestInspectRunsNoUserCode(t *testing.T) {
	rt := goja.New()
	var got []string
	cfg := Config{Write: func(_ Level, s string) { got = append(got, s) }}
	if err := Install(rt, rt.GlobalObject(), cfg); err != nil {
		t.Fatal(err)
	}
	_, err := rt.RunString(`
		console.count('first call');
		var calls = 0;
		const trap = () => { calls++; throw new Error('trap ran'); };
		const handler = { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap };
		const o = { get g() { calls++; return 1; }, nested: { get h() { calls++; return 2; } } };
		Object.defineProperty(o, 'hidden', { get() { calls++; return 3; }, enumerable: false });
		Reflect.getOwnPropertyDescriptor = trap; Reflect.ownKeys = trap; Object.getOwnPropertyDescriptor = trap;
		Map.prototype.entries = trap; Function.prototype.toString = trap;
		console.log(o, new Proxy({ t: 1 }, handler), new Proxy([1, 2], handler), new Map([[1, 2]]), function f() {});
		console.log('%s|%o', new Proxy({}, handler), o);
		const onProxy = Object.create(new Proxy({}, handler));
		onProxy.own = 1;
		const ctorProxy = { constructor: new Proxy(function C() {}, handler), v: 2 };
		console.log(onProxy, ctorProxy, Object.create(Object.create(new Proxy({}, handler))));
		console.log('%s %s', onProxy, Object.setPrototypeOf({ toString: undefined }, new Proxy({}, handler)));
	`)
	if err != nil {
		t.Fatal(err)
	}
	if n := rt.Get("calls").ToInteger(); n != 0 {
		t.Errorf("user code ran %d times", n)
	}
	want := "{ g: [Getter], nested: { h: [Getter] } } { t: 1 } [ 1, 2 ] Map(1) { 1 => 2 } [Function: f]"
	if len(got) > 0 && got[0] == "first call: 1" {
		got = got[1:]
	}
	if len(got) != 4 || got[0] != want {
		t.Fatalf("printed %q, want first %q", got, want)
	}
	// A proxy on a prototype chain ends it: what lies behind is not read.
	if want := "Object <{}> { own: 1 } { constructor: [Function: C], v: 2 } Object <Object <{}>> {}"; got[2] != want {
		t.Errorf("printed %q, want %q", got[2], want)
	}
	if !strings.HasPrefix(got[3], "Object <{}> { own: 1 } ") {
		t.Errorf("%%s printed %q", got[3])
	}
	if !strings.Contains(got[1], "[hidden]: [Getter]") {
		t.Errorf("%%o printed %q", got[1])
	}
}

// TestInspectNeverThrows checks custom inspect functions, toString and
// toJSON that throw, and deep structures.
func TestInspectNeverThrows(t *testing.T) {
	rt := goja.New()
	var got []string
	if err := Install(rt, rt.GlobalObject(), Config{Write: func(_ Level, s string) { got = append(got, s) }}); err != nil {
		t.Fatal(err)
	}
	_, err := rt.RunString(`
		const bad = { [Symbol.for('nodejs.util.inspect.custom')]() { throw new Error('custom'); }, v: 1 };
		console.log(bad);
		console.log('%s', { toString() { throw new Error('ts'); } });
		console.log('%j', { toJSON() { throw new Error('tj'); } });
		console.log('%d', { valueOf() { throw new Error('vo'); } });
		let deep = {}; for (let i = 0; i < 300; i++) deep = { d: deep };
		console.dir(deep, { depth: Infinity });
	`)
	if err != nil {
		t.Fatalf("console threw: %v", err)
	}
	if len(got) != 5 || !strings.HasPrefix(got[0], "{") || got[3] != "NaN" || !strings.HasPrefix(got[4], "{\n  d: {") {
		t.Errorf("printed %q", got[:min(4, len(got))])
	}
}

// TestInspectInterrupt checks that a runtime interrupted during a custom
// inspect function stops, and the interrupt reaches the script.
func TestInspectInterrupt(t *testing.T) {
	rt := goja.New()
	if err := Install(rt, rt.GlobalObject(), Config{Write: func(Level, string) {}}); err != nil {
		t.Fatal(err)
	}
	rt.Set("stop", func() { rt.Interrupt("stopped") })
	done := make(chan error, 1)
	go func() {
		_, err := rt.RunString(`
			const o = { [Symbol.for('nodejs.util.inspect.custom')]() { stop(); for (;;) {} } };
			console.log(o);
			for (;;) {}
		`)
		done <- err
	}()
	select {
	case err := <-done:
		ie, ok := err.(*goja.InterruptedError)
		if !ok || ie.Value() != "stopped" {
			t.Fatalf("script ended with %v, want the interrupt", err)
		}
	case <-time.After(30 * time.Second):
		rt.Interrupt("test timeout")
		t.Fatal("the interrupt was lost")
	}
}

// TestConsoleInstallShape checks the installed object: method names and
// lengths, the console property's attributes.
func TestConsoleInstallShape(t *testing.T) {
	rt := goja.New()
	if err := Install(rt, rt.GlobalObject(), Config{}); err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunString(`
		const d = Object.getOwnPropertyDescriptor(globalThis, 'console');
		[d.writable, d.enumerable, d.configurable, console.log.name, typeof console.table, typeof console.timeLog,
			Object.keys(console).length].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != "true,false,true,log,function,function,22" {
		t.Errorf("console shape: %s", v)
	}
}

// TestFormatInterruptFromGo interrupts a user toString that Format runs
// for %s, with Format called from Go: Format returns, and the interrupt
// stops the script's next instruction.
func TestFormatInterruptFromGo(t *testing.T) {
	rt := goja.New()
	rt.Set("stop", func() { rt.Interrupt("halt") })
	v, err := rt.RunString(`({ toString() { stop(); for (;;) {} } })`)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 1)
	go func() { done <- Format(rt, []goja.Value{rt.ToValue("%s!"), v}) }()
	select {
	case s := <-done:
		if !strings.HasSuffix(s, "!") {
			t.Errorf("Format gave %q", s)
		}
	case <-time.After(30 * time.Second):
		rt.Interrupt("test timeout")
		t.Fatal("Format did not return")
	}
	if _, err := rt.RunString(`1 + 1`); err == nil {
		t.Fatal("the interrupt was lost")
	} else if ie, ok := err.(*goja.InterruptedError); !ok || ie.Value() != "halt" {
		t.Fatalf("next script ended with %v", err)
	}
}

// TestInspectorReuse checks that one Inspector serves many calls, with
// their own options, and that intrinsics replaced after it was made do not
// change what it prints.
func TestInspectorReuse(t *testing.T) {
	rt := goja.New()
	ins, err := NewInspector(rt)
	if err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunString(`Reflect.ownKeys = () => { throw new Error('replaced'); }; ({ a: { b: { c: {} } }, n: 1234567 })`)
	if err != nil {
		t.Fatal(err)
	}
	opts := DefaultInspectOptions()
	if got := ins.Inspect(v, opts); got != "{ a: { b: { c: {} } }, n: 1234567 }" {
		t.Errorf("Inspect: %s", got)
	}
	opts.Depth, opts.NumericSeparator = 0, true
	if got := ins.Inspect(v, opts); got != "{ a: [Object], n: 1_234_567 }" {
		t.Errorf("Inspect depth 0: %s", got)
	}
	if got := ins.Format([]goja.Value{rt.ToValue("%O!"), v}, opts); got != "{ a: [Object], n: 1_234_567 }!" {
		t.Errorf("Format: %s", got)
	}
}
