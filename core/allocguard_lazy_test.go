package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// The lazy allocation guard (core/allocguard.go) runs while goja makes a builtin, which can be in the middle of any
// instruction that looks a property up. These tests make each guarded builtin's first touch happen in every place a
// script can put it, in a fresh realm each time, and then check that the guard refuses what it must and that the
// builtin is exactly goja's: identity, prototype.constructor, instances, subclasses, name, length, statics and
// descriptors, compared with a plain goja runtime.

var lazyCtors = []string{"ArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
	"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"}

var lazyMethods = []struct{ holder, name string }{
	{"String.prototype", "repeat"}, {"String.prototype", "padStart"}, {"String.prototype", "padEnd"},
	{"Array.prototype", "join"}, {"Array.prototype", "fill"},
}

// firstTouches are the places of a first lookup of X in holder H (the global object, or a prototype: then X is
// reached as H.X).
var firstTouches = map[string]string{
	"plain":       `REF`,
	"nested call": `(function a() { return (function b() { return (function c() { return REF })() })() })()`,
	"getter":      `({ get x() { return REF } }).x`,
	"proxy trap":  `new Proxy({}, { get: function () { return REF }, has: function () { return REF !== 0 } }).y`,
	"with":        `(function () { with (WITH) { return NAME } })()`, // fill is in Array.prototype[Symbol.unscopables]
	"typeof":      `typeof REF === "function" ? REF : null`,
	"index":       `HOLDER["NAME"]`,
	"descriptor":  `Object.getOwnPropertyDescriptor(HOLDER, "NAME").value`,
	"ownKeys":     `(Reflect.ownKeys(HOLDER).indexOf("NAME") >= 0, REF)`,
	"for-in":      `(function () { for (var k in HOLDER) {} return REF })()`,
	"assignment":  `(function () { var v = REF; HOLDER.NAME = 1; HOLDER.NAME = v; return REF })()`,
	"in":          `("NAME" in HOLDER, REF)`,
	"delete": `(function () {
		var v = REF; delete HOLDER.NAME;
		Object.defineProperty(HOLDER, "NAME", { value: v, writable: true, enumerable: false, configurable: true });
		return REF })()`,
}

// profile describes the builtin X, the property holder.name: everything a script can see of it.
const profile = `(function (X, holder, name) {
	var d = Object.getOwnPropertyDescriptor(holder, name);
	var attrs = function (o, k) { return JSON.stringify(Object.getOwnPropertyDescriptor(o, k), ["writable", "enumerable", "configurable"]) };
	var own = Reflect.ownKeys(X).map(function (k) { return String(k) + attrs(X, k) }).join(" ");
	var r = [typeof X, X.name, X.length, attrs(holder, name), d.value === X, own, Object.getPrototypeOf(X) === Function.prototype];
	if (holder === globalThis) {
		var one = new X(2);
		class S extends X {}
		var s = new S(2);
		r.push(X.prototype.constructor === X, one instanceof X, Object.getPrototypeOf(one) === X.prototype,
			one.constructor === X, s instanceof S && s instanceof X && s.constructor === S, (s.length || s.byteLength) === 2,
			Reflect.construct(X, [2]) instanceof X, (function () { try { X(1); return "called" } catch (e) { return e.name } })(),
			Reflect.ownKeys(X.prototype).map(function (k) { return String(k) + attrs(X.prototype, k) }).join(" "));
	}
	return r.join("|");
})`

func touchSource(touch, holder, name string) string {
	ref, with := name, "{}"
	if holder != "globalThis" {
		ref, with = holder+"."+name, holder
	}
	r := strings.NewReplacer("REF", ref, "WITH", with, "HOLDER", holder, "NAME", name)
	return `(function () { var X = ` + r.Replace(touch) + `; return ` + profile + `(X, ` + holder + `, "` + name + `") })()`
}

func TestAllocGuard_LazyFirstTouch(t *testing.T) {
	answer := func(v goja.Value, err error) string {
		if err != nil {
			return "error: " + strings.SplitN(err.Error(), " at ", 2)[0]
		}
		return v.String()
	}
	type target struct{ holder, name string }
	var targets []target
	for _, c := range lazyCtors {
		targets = append(targets, target{"globalThis", c})
	}
	for _, m := range lazyMethods {
		targets = append(targets, target{m.holder, m.name})
	}
	for touch, src := range firstTouches {
		for _, tg := range targets {
			src := touchSource(src, tg.holder, tg.name)
			h, _ := openRealm(t, core.HostRealmOptions{})
			got, want := answer(h.RunScript("touch.js", src)), answer(goja.New().RunString(src))
			if got != want || strings.HasPrefix(got, "error") && !(touch == "with" && tg.name == "fill") {
				t.Errorf("%s first touched by %s:\n got %s\nwant %s (plain goja)", tg.name, touch, got, want)
			}
			checkAllocGuard(t, func(src string) (goja.Value, error) { return h.RunScript("alloc.js", src) })
			h.Close()
		}
	}
}

// TestAllocGuard_LazySharedArrayBuffer: sharedmem's constructor refuses the guard's lengths whatever touched it
// first; the realm's typed arrays over it stay guarded.
func TestAllocGuard_LazySharedArrayBuffer(t *testing.T) {
	h, _ := openRealm(t, core.HostRealmOptions{})
	v, err := h.RunScript("sab.js", `(function () {
		var S = (function () { with ({}) { return SharedArrayBuffer } })();
		var r = [S.prototype.constructor === S, new S(8) instanceof S, new Uint8Array(new S(8)).length];
		try { new S(2 ** 40) } catch (e) { r.push(e instanceof RangeError, e.message) }
		try { new S({ valueOf: function () { return 2 ** 40 } }) } catch (e) { r.push(e.message) }
		return r.join()
	})()`)
	if want := "true,true,8,true,Array buffer allocation failed,Array buffer allocation failed"; err != nil || v.String() != want {
		t.Errorf("got %v, %v; want %s", v, err, want)
	}
}

// TestAllocGuard_LazyReachedThroughInstances: a constructor reached only through an instance Go code or structured
// clone made (never through its global) is guarded and is goja's own.
func TestAllocGuard_LazyReachedThroughInstances(t *testing.T) {
	w, err := core.Spawn(`onmessage = function (e) {
		var C = e.data.constructor, B = e.data.buffer.constructor, r = [C.name, B.name];
		try { new C(2 ** 40) } catch (x) { r.push(x.message) }
		try { new B(2 ** 40) } catch (x) { r.push(x.message) }
		r.push(C === Float64Array, B === ArrayBuffer, C.prototype.constructor === C);
		postMessage(r.join())
	}`, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	rt := goja.New()
	ta, err := rt.RunString(`new Float64Array(4)`)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.PostMessage(rt, ta); err != nil {
		t.Fatal(err)
	}
	v, err := w.Receive(rt, 30*time.Second)
	want := "Float64Array,ArrayBuffer,Invalid typed array length: 1099511627776,Array buffer allocation failed,true,true,true"
	if err != nil || v.String() != want {
		t.Errorf("got %v, %v; want %s", v, err, want)
	}
	h, _ := openRealm(t, core.HostRealmOptions{})
	rtH := h.Runtime()
	_ = rtH.Set("goBuffer", func() goja.Value { return rtH.ToValue(rtH.NewArrayBuffer(make([]byte, 4))) })
	v, err = h.RunScript("gobuf.js", `(function () {
		var B = goBuffer().constructor;
		try { new B(2 ** 40); return "made" } catch (e) { return e.message + "," + (B === ArrayBuffer) }
	})()`)
	if err != nil || v.String() != "Array buffer allocation failed,true" {
		t.Errorf("an ArrayBuffer from Go: %v, %v", v, err)
	}
}

// TestAllocGuard_LazyReplacedGlobals: a script that replaces the globals (and RangeError) before its first typed
// array still gets the engine's RangeError from the guard, and structured clone still builds views with the
// engine's constructors.
func TestAllocGuard_LazyReplacedGlobals(t *testing.T) {
	w, err := core.Spawn(`var U = Uint8Array; Uint8Array = function () {}; Float64Array = null; RangeError = function () {};
		onmessage = function (e) {
			var r = [e.data instanceof U, e.data.constructor === U, e.data.length];
			try { new U(2 ** 40) } catch (x) { r.push(Object.getPrototypeOf(x).name, x.message) }
			postMessage(r.join())
		}`, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	rt := goja.New()
	ta, _ := rt.RunString(`new Uint8Array([1, 2, 3])`)
	if err := w.PostMessage(rt, ta); err != nil {
		t.Fatal(err)
	}
	v, err := w.Receive(rt, 30*time.Second)
	if want := "true,true,3,RangeError,Invalid typed array length: 1099511627776"; err != nil || v.String() != want {
		t.Errorf("got %v, %v; want %s", v, err, want)
	}
}

// TestAllocGuard_LazyIsNative: the guarded builtins are goja's native functions (the lazy guard is in use), not the
// JavaScript wrappers of the fallback.
func TestAllocGuard_LazyIsNative(t *testing.T) {
	h, _ := openRealm(t, core.HostRealmOptions{})
	v, err := h.RunScript("native.js", `[ArrayBuffer, Uint8Array, BigUint64Array, "".repeat, "".padStart, "".padEnd, [].join, [].fill]
		.map(function (f) { return /\[native code\]/.test(Function.prototype.toString.call(f)) }).join()`)
	if err != nil || v.String() != "true,true,true,true,true,true,true,true" {
		t.Errorf("native: %v, %v", v, err)
	}
}

// TestAllocGuard_EagerFallback: the JavaScript guard used when goja's internals are not as expected refuses the
// same requests (SharedArrayBuffer aside: a plain goja runtime has none).
func TestAllocGuard_EagerFallback(t *testing.T) {
	rt := goja.New()
	if err := core.InstallEagerAllocGuard(rt); err != nil {
		t.Fatal(err)
	}
	for src, want := range allocCases {
		if strings.Contains(src, "SharedArrayBuffer") {
			continue
		}
		v, err := rt.RunString(`(function () { try { ` + src + `; return "no error" } catch (e) { return (e instanceof RangeError) + " " + e.message } })()`)
		if err != nil || v.String() != "true "+want {
			t.Errorf("%s: %v, %v; want a RangeError %q", src, v, err, want)
		}
	}
	v, err := rt.RunString(`/\[native code\]/.test(Function.prototype.toString.call(Uint8Array))`)
	if err != nil || v.ToBoolean() {
		t.Errorf("the fallback's Uint8Array is native: %v, %v", v, err)
	}
}

// TestAllocGuard_FakeBuffer: an object that only inherits from ArrayBuffer.prototype (or a Proxy of a buffer) is
// an array-like to a typed-array constructor: its length is checked. (The first JavaScript guard skipped it on
// instanceof, and goja then asked Go for 1 TiB: the process died.) The same for the eager fallback.
func TestAllocGuard_FakeBuffer(t *testing.T) {
	const src = `(function () {
		var r = [];
		var fakes = [Object.create(ArrayBuffer.prototype, { length: { value: 2 ** 40 } }),
			new Proxy(new ArrayBuffer(8), { get: function (t, k) { return k === "length" ? 2 ** 40 : t[k] } })];
		fakes.forEach(function (f) { try { new Uint8Array(f); r.push("made") } catch (e) { r.push(e.message) } });
		r.push(new Uint8Array(new ArrayBuffer(8)).length, new Uint8Array(new Uint16Array(3)).length);
		return r.join()
	})()`
	const want = "Invalid typed array length: 1099511627776,Invalid typed array length: 1099511627776,8,3"
	h, _ := openRealm(t, core.HostRealmOptions{})
	if v, err := h.RunScript("fake.js", src); err != nil || v.String() != want {
		t.Errorf("lazy guard: %v, %v; want %s", v, err, want)
	}
	rt := goja.New()
	if err := core.InstallEagerAllocGuard(rt); err != nil {
		t.Fatal(err)
	}
	if v, err := rt.RunString(src); err != nil || v.String() != want {
		t.Errorf("eager fallback: %v, %v; want %s", v, err, want)
	}
}
