package clone_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

func TestRejections(t *testing.T) {
	tests := []struct{ src, msg string }{
		// Functions and symbols.
		{`(function foo() {})`, "function foo() {…} could not be cloned."},
		{`(() => 1)`, "could not be cloned."},
		{`(class C {})`, "function C() {…} could not be cloned."},
		{`(async function af() {})`, "function af() {…} could not be cloned."},
		{`(async () => 1)`, "could not be cloned."},
		{`(function* g() {})`, "function g() {…} could not be cloned."},
		{`Math.max`, "function max() {…} could not be cloned."},
		{`(function b() {}).bind(null)`, "function bound b() {…} could not be cloned."},
		{`({m() {}}).m`, "function m() {…} could not be cloned."},
		{`(class { static get name() { throw 1; } })`, "function () {…} could not be cloned."},
		{`Symbol("s")`, "Symbol(s) could not be cloned."},
		{`Symbol()`, "Symbol() could not be cloned."},
		{`({a: [1, {s: Symbol.iterator}]})`, "could not be cloned."},

		// Kinds that are never cloneable.
		{`Object(Symbol())`, "#<Symbol> could not be cloned."},
		{`new Proxy({}, {})`, "#<Proxy> could not be cloned."},
		{`new Proxy([], {})`, "#<Proxy> could not be cloned."},
		{`new Proxy(function () {}, {})`, "#<Proxy> could not be cloned."},
		{`new Proxy(new Map(), {})`, "#<Proxy> could not be cloned."},
		{`Promise.resolve(1)`, "#<Promise> could not be cloned."},
		{`new WeakMap()`, "#<WeakMap> could not be cloned."},
		{`Object.setPrototypeOf(new WeakMap(), Object.prototype)`, "#<WeakMap> could not be cloned."},
		{`new WeakSet()`, "#<WeakSet> could not be cloned."},
		{`Object.setPrototypeOf(new WeakSet(), null)`, "#<WeakSet> could not be cloned."},
		{`(function* () {})()`, "#<Generator> could not be cloned."},
		{`Object.setPrototypeOf((function* () {})(), Object.prototype)`, "#<Generator> could not be cloned."},
		{`[1].values()`, "#<Array Iterator> could not be cloned."},
		{`new Map().keys()`, "#<Map Iterator> could not be cloned."},
		{`new Set().entries()`, "#<Set Iterator> could not be cloned."},
		{`"ab"[Symbol.iterator]()`, "#<String Iterator> could not be cloned."},
		{`"a".matchAll(/a/g)`, "#<RegExp String Iterator> could not be cloned."},
		{`(function () { return arguments; })(1)`, "#<Arguments> could not be cloned."},
		{`globalThis`, "the global object could not be cloned."},
		{`({g: globalThis})`, "the global object could not be cloned."},

		// Detached buffers, and views of them (which must not even be read).
		{`var b = new ArrayBuffer(8); structuredClone(b, {transfer: [b]}); b`, "a detached ArrayBuffer could not be cloned."},
		{`var b = new ArrayBuffer(8); var u = new Float64Array(b); structuredClone(b, {transfer: [b]}); u`,
			"a view of a detached ArrayBuffer could not be cloned."},
		{`var b = new ArrayBuffer(1 << 20); var u = new Uint8Array(b, 1 << 19); structuredClone(b, {transfer: [b]}); [u]`,
			"a view of a detached ArrayBuffer could not be cloned."},
		{`var b = new ArrayBuffer(8); var d = new DataView(b, 4); structuredClone(b, {transfer: [b]}); ({d})`,
			"a view of a detached ArrayBuffer could not be cloned."},

		// Rejections deep inside a graph.
		{`({a: [1, {m: new Map([[1, new WeakMap()]])}]})`, "#<WeakMap> could not be cloned."},
		{`new Set([1, Symbol.iterator])`, "Symbol(Symbol.iterator) could not be cloned."},
		{`var e = new Error("x"); e.cause = function c() {}; e`, "function c() {…} could not be cloned."},
		{`var o = {}; o.self = o; o.f = function f() {}; o`, "function f() {…} could not be cloned."},

		// Names that goja cannot enumerate exactly.
		{`({"\ud800": 1})`, "property names containing U+FFFD or unpaired surrogates cannot be cloned."},
		{`({"\ufffd": 1})`, "property names containing U+FFFD or unpaired surrogates cannot be cloned."},
		{`var a = [1]; a["\ufffd"] = 1; a`, "property names containing U+FFFD or unpaired surrogates cannot be cloned."},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			rt := goja.New()
			if err := clone.InstallStructuredClone(rt); err != nil {
				t.Fatal(err)
			}
			f, err := clone.Serialize(rt, run(t, rt, tt.src), clone.Options{})
			if f != nil {
				t.Fatalf("got a frame of %d bytes, want an error", f.Len())
			}
			checkDataCloneError(t, rt, err, tt.msg)

			// The sender's state is unchanged: a buffer in the transfer list
			// stays attached, and nothing is left pending.
			buf := run(t, rt, `new ArrayBuffer(8)`)
			v := run(t, rt, tt.src)
			f, err = clone.Serialize(rt, rt.NewArray(buf, v), clone.Options{Transfer: []goja.Value{buf}})
			if f != nil || err == nil {
				t.Fatal("the value in an array: got a frame")
			}
			check(t, rt, buf, `v.byteLength === 8`)
			if n := clone.PendingCount(); n != 0 {
				t.Errorf("%d buffers still pending", n)
			}
		})
	}
}

// checkDataCloneError checks that err is a *DataCloneError whose message
// ends with msg, and what JSError makes of it.
func checkDataCloneError(t *testing.T, rt *goja.Runtime, err error, msg string) {
	t.Helper()
	var dce *clone.DataCloneError
	if !errors.As(err, &dce) {
		t.Fatalf("error = %v (%T), want a *DataCloneError", err, err)
	}
	if !strings.HasSuffix(dce.Message, msg) {
		t.Errorf("message = %q, want it to end with %q", dce.Message, msg)
	}
	if got, want := err.Error(), "DataCloneError: "+dce.Message; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	check(t, rt, clone.JSError(rt, err), `v instanceof Error && v.name === "DataCloneError" && v.code === 25 &&
		v.message === `+quote(dce.Message)+` && String(v) === "DataCloneError: " + v.message &&
		!Object.keys(v).includes("name")`)
}

func quote(s string) string {
	return "\"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + "\""
}

func TestRejectGoValues(t *testing.T) {
	rt := goja.New()
	for _, x := range []any{
		map[string]any{"a": 1},
		[]any{1},
		[]int{1},
		struct{ A int }{1},
		func(goja.FunctionCall) goja.Value { return nil },
	} {
		_, err := clone.Serialize(rt, rt.ToValue(x), clone.Options{})
		checkDataCloneError(t, rt, err, "could not be cloned.")
	}
}

func TestRejectZeroObject(t *testing.T) {
	rt := goja.New()
	_, err := clone.Serialize(rt, &goja.Object{}, clone.Options{})
	checkDataCloneError(t, rt, err, "an uninitialized goja.Object could not be cloned.")
}

// TestThrowingGetter checks that a throwing getter comes back as the
// *goja.Exception, with the thrown value intact, and no panic.
func TestThrowingGetter(t *testing.T) {
	rt := goja.New()
	for _, src := range []string{
		`({a: 1, get b() { throw new RangeError("boom"); }})`,
		`[{get x() { throw new RangeError("boom"); }}]`,
		`var a = []; a.length = 100000; Object.defineProperty(a, 5, {get() { throw new RangeError("boom"); }, enumerable: true}); a`,
	} {
		f, err := clone.Serialize(rt, run(t, rt, src), clone.Options{})
		var ex *goja.Exception
		if f != nil || !errors.As(err, &ex) {
			t.Fatalf("%s: got %v, %v; want a *goja.Exception", src, f, err)
		}
		check(t, rt, ex.Value(), `v instanceof RangeError && v.message === "boom"`)
		if got := clone.JSError(rt, err); got != ex.Value() {
			t.Errorf("JSError did not return the thrown object")
		}
	}
	// A thrown primitive.
	_, err := clone.Serialize(rt, run(t, rt, `({get x() { throw 7; }})`), clone.Options{})
	var ex *goja.Exception
	if !errors.As(err, &ex) || ex.Value().ToInteger() != 7 {
		t.Fatalf("got %v, want exception 7", err)
	}
}

// TestInterruptedGetter checks that an interrupt raised while a getter runs
// comes back as *goja.InterruptedError and that JSError re-panics with it.
func TestInterruptedGetter(t *testing.T) {
	rt := goja.New()
	v := run(t, rt, `({get x() { for (;;) {} }})`)
	rt.Interrupt("halt")
	_, err := clone.Serialize(rt, v, clone.Options{})
	var ie *goja.InterruptedError
	if !errors.As(err, &ie) || ie.Value() != "halt" {
		t.Fatalf("got %v (%T), want *goja.InterruptedError", err, err)
	}
	defer func() {
		if r := recover(); r != err {
			t.Errorf("JSError panicked with %v, want the InterruptedError", r)
		}
	}()
	clone.JSError(rt, err)
}

func TestJSErrorKinds(t *testing.T) {
	rt := goja.New()
	_, err := serialize(t, `"x".repeat(100)`, clone.Options{MaxBytes: 10})
	check(t, rt, clone.JSError(rt, err), `v instanceof RangeError && v.message.includes("frame too large")`)

	_, _, err = deserialize([]byte{9})
	check(t, rt, clone.JSError(rt, err), `v instanceof Error && v.message.includes("malformed frame") && v.message.includes("not a frame")`)

	// The constructors are the realm's own even when the globals changed.
	run(t, rt, `globalThis.RangeError = function () { return {fake: true}; }; globalThis.Error = null;`)
	_, err = serialize(t, `"x".repeat(100)`, clone.Options{MaxBytes: 10})
	check(t, rt, clone.JSError(rt, err), `v instanceof Object.getPrototypeOf(TypeError) && v.name === "RangeError" && !v.fake`)

	check(t, rt, clone.JSError(rt, errors.New("other")), `v instanceof GoError && v.message === "other"`)
}
