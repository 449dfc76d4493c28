package core_test

import (
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
	(function () { try { ArrayBuffer(1) } catch (e) { return e instanceof TypeError } })()
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
	if err != nil || v.String() != "true,true,true,true,true,true,true,true,true,true,true,true,true,true,true,true" {
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
