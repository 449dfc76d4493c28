package sharedmem

import (
	"testing"
	"unsafe"

	"github.com/dop251/goja"
)

// The itab fast path and the reflect path of peekView agree on typed arrays
// made every way goja makes them and on look-alikes that are not typed
// arrays; and the fast path is the one taken for real typed arrays.
func TestPeekViewPaths(t *testing.T) {
	rt := newRealm(t, RealmOptions{})
	rt.Set("goSlice", []int32{1, 2, 3})
	v := run(t, rt, `
		class Sub extends Int16Array {}
		var sab = new SharedArrayBuffer(64), ab = new ArrayBuffer(64);
		var all = [];
		[Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
		 Float32Array, Float64Array, BigInt64Array, BigUint64Array].forEach(function (TA) {
			var big = TA === BigInt64Array || TA === BigUint64Array;
			all.push(new TA(4), new TA(sab, 8, 2), new TA(ab), new TA(sab).subarray(1), new TA(ab).slice(1),
				TA.from(big ? [1n, 2n] : [1, 2]), TA.of(big ? 1n : 1), new TA(new TA(3)), new TA(sab).map(function (x) { return x; }));
		});
		all.push(new Sub(3), new Sub(sab, 2, 3).subarray(1));
		var notViews = [{}, [], new DataView(sab), sab, ab, goSlice, function () {}, new Proxy(new Int32Array(2), {}),
			Object.create(Int32Array.prototype), new Map(), new Date()];
		[all, notViews]`)
	var groups [][]*goja.Object
	if err := rt.ExportTo(v, &groups); err != nil {
		t.Fatal(err)
	}
	for g, objs := range groups {
		for i, o := range objs {
			b1, k1, off1, n1, ok1 := peekView(o)
			b2, k2, off2, n2, ok2 := peekViewReflect(o)
			if b1 != b2 || k1 != k2 || off1 != off2 || n1 != n2 || ok1 != ok2 {
				t.Errorf("group %d #%d: fast (%v %v %d %d %v) != reflect (%v %v %d %d %v)", g, i, b1, k1, off1, n1, ok1, b2, k2, off2, n2, ok2)
			}
			if ok1 != (g == 0) {
				t.Errorf("group %d #%d: typed array = %v", g, i, ok1)
			}
			if g == 0 && (*iface)(unsafe.Add(unsafe.Pointer(o), layout.selfOff)).tab != layout.taTab {
				t.Errorf("#%d (%s) does not take the fast path", i, kindNames[k1])
			}
		}
	}
}
