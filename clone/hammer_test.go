package clone_test

import (
	"sync"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// TestHammer runs P pairs of goroutines, each owning a runtime: one
// serializes, the other deserializes the frames it is sent. It exercises the
// encoder and decoder pools under the race detector.
func TestHammer(t *testing.T) {
	const P = 4
	n := 500
	if testing.Short() {
		n = 100
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*P)
	for p := 0; p < P; p++ {
		frames := make(chan *clone.Frame, 8)
		wg.Add(2)
		go func() {
			defer wg.Done()
			defer close(frames)
			rt := goja.New()
			mk, err := rt.RunString(`(function (i) {
				var o = {i, s: "msg" + i, t: ["é", "€", "\ud800"], d: new Date(i), big: BigInt(i) ** 3n,
					m: new Map([[i, "x"]]), set: new Set(["a", i]), u: new Uint16Array([i, 2]), e: new RangeError("r" + i), r: /x/g};
				o.self = o; return o; })`)
			if err != nil {
				errs <- err
				return
			}
			fn, _ := goja.AssertFunction(mk)
			for i := 0; i < n; i++ {
				v, err := fn(goja.Undefined(), rt.ToValue(i))
				if err != nil {
					errs <- err
					return
				}
				f, err := clone.Serialize(rt, v, clone.Options{MaxBytes: 1 << 10})
				if err != nil {
					errs <- err
					return
				}
				frames <- f
			}
		}()
		go func() {
			defer wg.Done()
			rt := goja.New()
			i := 0
			for f := range frames {
				v, err := clone.Deserialize(rt, f)
				if err != nil {
					errs <- err
					continue
				}
				rt.Set("v", v)
				rt.Set("i", i)
				ok, err := rt.RunString(`v.self === v && v.i === i && v.s === "msg" + i && v.t[2] === "\ud800" &&
					v.d.getTime() === i && v.big === BigInt(i) ** 3n && v.m.get(i) === "x" && v.set.has(i) &&
					v.u[0] === (i & 0xFFFF) && v.e instanceof RangeError && v.e.message === "r" + i && v.r.global`)
				if err != nil || !ok.ToBoolean() {
					t.Errorf("message %d came out wrong (%v)", i, err)
				}
				i++
			}
			if i != n {
				t.Errorf("got %d messages, want %d", i, n)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
