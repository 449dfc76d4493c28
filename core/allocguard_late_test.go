package core_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// ArrayBuffer first reached late (after the realm has run a first message or script), in every way a script can
// reach it first: the global, a buffer goja makes for a typed array or a DataView, one Go makes (structured clone,
// TextEncoder, a message), its prototype, and after a SharedArrayBuffer (whose wrapper is a goja buffer with another
// prototype). Each way must meet the guarded constructor: new, Reflect.construct and a subclass of it refuse
// 2**40 bytes with the catchable RangeError, and it is the global ArrayBuffer.

// bufferReaches are the expressions that first reach the ArrayBuffer constructor; DATA() is a buffer Go made: the
// message's data in a worker (an ArrayBuffer the parent posted, the only case that posts one), a Go function's
// result in a host realm.
var bufferReaches = map[string]string{
	"global":         `ArrayBuffer`,
	"typed array":    `new Uint8Array(2).buffer.constructor`,
	"prototype":      `Object.getPrototypeOf(new Float64Array(1).buffer).constructor`,
	"data view":      `new DataView(new Uint8Array(4).buffer).buffer.constructor`,
	"clone":          `structuredClone(new Int16Array(2)).buffer.constructor`,
	"text encoder":   `new TextEncoder().encode("a").buffer.constructor`,
	"from Go":        `DATA().constructor`,
	"after a shared": `(new SharedArrayBuffer(4), ArrayBuffer)`,
}

// bufferChecks answers, for B, the constructor first reached: whether each way to construct 2**40 bytes with it
// throws the RangeError, whether it still makes small buffers, and whether it is the global.
const bufferChecks = `(function (B) {
	var r = [];
	var forms = [function () { return new B(2 ** 40) }, function () { return Reflect.construct(B, [2 ** 40]) },
		function () { class S extends B {} return new S(2 ** 40) }];
	forms.forEach(function (f) {
		try { f(); r.push("made") } catch (e) { r.push(e instanceof RangeError && e.message) }
	});
	r.push(new B(8).byteLength, B === ArrayBuffer);
	return r.join();
})`

const bufferWant = "Array buffer allocation failed,Array buffer allocation failed,Array buffer allocation failed,8,true"

func TestAllocGuard_BufferLateInWorker(t *testing.T) {
	for name, reach := range bufferReaches {
		t.Run(name, func(t *testing.T) {
			w := spawn(t, `var n = 0;
			onmessage = function (e) {
				if (++n === 1) { postMessage(typeof e.data); return }
				var DATA = function () { return e.data };
				postMessage(`+bufferChecks+`(`+reach+`));
			}`, core.Options{})
			rt := goja.New()
			post(t, w, rt, 1)
			if v := recv(t, w, rt); v.String() != "number" {
				t.Fatalf("first answer %v", v)
			}
			msg := rt.ToValue(2)
			if name == "from Go" {
				msg = rt.ToValue(rt.NewArrayBuffer(make([]byte, 4)))
			}
			if err := w.PostMessage(rt, msg); err != nil {
				t.Fatal(err)
			}
			if v := recv(t, w, rt); v.String() != bufferWant {
				t.Errorf("got  %v\nwant %s", v, bufferWant)
			}
		})
	}
}

func TestAllocGuard_BufferLateInHostRealm(t *testing.T) {
	for name, reach := range bufferReaches {
		t.Run(name, func(t *testing.T) {
			h, _ := openRealm(t, core.HostRealmOptions{})
			rt := h.Runtime()
			if _, err := h.RunScript("first.js", `var first = [1, 2].map(function (x) { return x * 2 }).join()`); err != nil {
				t.Fatal(err)
			}
			_ = rt.Set("DATA", func() goja.Value { return rt.ToValue(rt.NewArrayBuffer(make([]byte, 4))) })
			v, err := h.RunScript("late.js", bufferChecks+`(`+reach+`)`)
			if err != nil || v.String() != bufferWant {
				t.Errorf("got  %v, %v\nwant %s", v, err, bufferWant)
			}
		})
	}
}
