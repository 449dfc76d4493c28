package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// allocCases are single allocation requests no machine can satisfy: each throws a catchable RangeError (where goja
// alone would make Go abort the process), with V8's message.
var allocCases = map[string]string{
	`new ArrayBuffer(2**40)`:                       "Array buffer allocation failed",
	`new SharedArrayBuffer(2**40)`:                 "Array buffer allocation failed",
	`new Uint8Array(2**40)`:                        "Invalid typed array length: 1099511627776",
	`new Float64Array(2**37)`:                      "Invalid typed array length: 137438953472",
	`new Int32Array({length: 2**40})`:              "Invalid typed array length: 1099511627776",
	`"x".repeat(2**30)`:                            "Invalid string length",
	`"x".padStart(2**30)`:                          "Invalid string length",
	`"x".padEnd(2**30, "ab")`:                      "Invalid string length",
	`new Array(2**31).join("x")`:                   "Invalid string length",
	`new Array(2**32 - 1).fill(0)`:                 "Invalid array length",
	`class B extends ArrayBuffer {}; new B(2**40)`: "Array buffer allocation failed",
	// argument lists and array results goja made at once (allocguard_lists.go); each ended the process before
	`Math.max.apply(null, {length: 2**32 - 1})`:                 "Invalid array length",
	`Math.max.apply(null, {length: 2**21})`:                     "Maximum call stack size exceeded",
	`String.fromCharCode.apply(null, new Array(2**28))`:         "Invalid array length",
	`Reflect.apply(Math.max, null, {length: 2**32 - 1})`:        "Invalid array length",
	`Reflect.construct(Array, {length: 2**32 - 1})`:             "Invalid array length",
	`Reflect.construct(Array, {length: 2**21}, Object)`:         "Maximum call stack size exceeded",
	`var a = []; a.length = 2**32 - 1; a.sort()`:                "Invalid array length",
	`var a = []; a.length = 2**32 - 1; a.sort((x, y) => x - y)`: "Invalid array length",
	`Array.prototype.sort.call({length: 2**32 - 1})`:            "Invalid array length",
	`var a = []; a.length = 2**32 - 1; a.map((x) => x)`:         "Invalid array length",
	`var a = []; a.length = 2**32 - 1; a.toReversed()`:          "Invalid array length",
	`var a = []; a.length = 2**32 - 1; a.toSorted()`:            "Invalid array length",
	`var a = []; a.length = 2**32 - 1; a.with(0, 1)`:            "Invalid array length",
	`var a = []; a.length = 2**32 - 1; a.toSpliced(0, 0, 1)`:    "Invalid array length",
}

// The guard changes nothing else: constructors keep their identity, subclassing works, the wrapped methods answer
// as before.
const allocNormal = `[
	new ArrayBuffer(8).byteLength === 8,
	new Uint8Array(1) instanceof Uint8Array && new ArrayBuffer(1) instanceof ArrayBuffer,
	Uint8Array.from([1, 2]).length === 2 && Object.getPrototypeOf(Uint8Array) === Object.getPrototypeOf(Int8Array),
	ArrayBuffer.prototype.constructor === ArrayBuffer,
	new Uint8Array(4).constructor === Uint8Array,
	Object.getPrototypeOf(new Uint8Array(2)) === Uint8Array.prototype,
	(function () { class X extends Uint8Array {} var x = new X(4); return x instanceof X && x.length === 4 })(),
	new Uint8Array([1, 2, 3]).length === 3,
	new Uint16Array(new ArrayBuffer(8), 2, 2).length === 2,
	"ab".repeat(3) === "ababab",
	"5".padStart(3, "0") === "005" && "5".padEnd(3) === "5  ",
	[1, 2].join() === "1,2" && [1, 2].join("-") === "1-2",
	[1, 2, 3].fill(0, 1).join() === "1,0,0" && [1, 2, 3].fill(9, -1).join() === "1,2,9",
	Array.prototype.fill.call({length: 2}, 1)[1] === 1,
	(function () { try { "x".repeat(-1) } catch (e) { return e instanceof RangeError } })(),
	(function () { try { ArrayBuffer(1) } catch (e) { return e instanceof TypeError } })(),
	Math.max.apply(null, [1, 3, 2]) === 3 && Math.max.apply(null, {length: 2, 0: 4, 1: 5}) === 5,
	(function () { return Array.prototype.slice.apply(arguments).join() })(1, 2) === "1,2",
	Reflect.apply(Math.min, null, [4, 2]) === 2 && Reflect.construct(Date, [0]).getTime() === 0,
	(function () { class A { constructor(x) { this.x = x } } class B extends A {} var b = Reflect.construct(A, [7], B); return b.x === 7 && b instanceof B })(),
	(function () { var reads = 0, p = new Proxy({length: 2, 0: 1, 1: 2}, {get(t, k) { reads++; return t[k] }}); Math.max.apply(null, p); return reads === 3 })(),
	(function () { try { Math.max.apply(null, 1) } catch (e) { return e instanceof TypeError } })(),
	(function () { try { Reflect.apply(1, null, {get length() { throw new Error("read") }}) } catch (e) { return e instanceof TypeError } })(),
	[3, 1, 2].sort().join() === "1,2,3" && [3, 1, 2].sort((a, b) => b - a).join() === "3,2,1",
	[1, 2].map((x) => x * 2).join() === "2,4" && [1, 2].toReversed().join() === "2,1",
	[2, 1].toSorted().join() === "1,2" && [1, 2].with(0, 9).join() === "9,2" && [1, 2].toSpliced(1, 0, 5).join() === "1,5,2",
	(function () { try { [].sort(1) } catch (e) { return e instanceof TypeError } })(),
	(function () { try { [].map() } catch (e) { return e instanceof TypeError } })(),
	Array.prototype.map.call("ab", (c) => c + c).join() === "aa,bb"
].map(String).join()`

func checkAllocGuard(t *testing.T, run func(src string) (goja.Value, error)) {
	t.Helper()
	for src, want := range allocCases {
		v, err := run(`(function () { try { ` + src + `; return "no error" } catch (e) { return (e instanceof RangeError) + " " + e.message } })()`)
		if err != nil || v.String() != "true "+want {
			t.Errorf("%s: %v, %v; want a RangeError %q", src, v, err, want)
		}
	}
	v, err := run(allocNormal)
	if want := strings.TrimSuffix(strings.Repeat("true,", 29), ","); err != nil || v.String() != want {
		t.Errorf("normal behaviour: %v, %v", v, err)
	}
}

func TestAllocGuard_HostRealm(t *testing.T) {
	h, _ := openRealm(t, core.HostRealmOptions{})
	checkAllocGuard(t, func(src string) (goja.Value, error) { return h.RunScript("alloc.js", src) })
}

func TestAllocGuard_Worker(t *testing.T) {
	w, err := core.Spawn(`onmessage = function (e) { postMessage(String((0, eval)(e.data))) }`, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	rt := goja.New()
	checkAllocGuard(t, func(src string) (goja.Value, error) {
		if err := w.PostMessage(rt, rt.ToValue(src)); err != nil {
			return nil, err
		}
		return w.Receive(rt, 30*time.Second)
	})
}
