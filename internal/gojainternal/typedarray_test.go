package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

// The type-word fast path and the reflect path of TypedArrayOf agree on
// typed arrays made every way goja makes them and on look-alikes that are
// not typed arrays; and the fast path is the one taken for real typed
// arrays. (sharedmem's tests repeat this over SharedArrayBuffer views.)
func TestTypedArrayOf(t *testing.T) {
	if err := TypedArrays(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	rt.Set("goSlice", []int32{1, 2, 3})
	v, err := rt.RunString(`
		class Sub extends Int16Array {}
		var ab = new ArrayBuffer(64);
		var all = [];
		[Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
		 Float32Array, Float64Array, BigInt64Array, BigUint64Array].forEach(function (TA) {
			var big = TA === BigInt64Array || TA === BigUint64Array;
			all.push(new TA(4), new TA(ab, 8, 2), new TA(ab), new TA(ab).subarray(1), new TA(ab).slice(1),
				TA.from(big ? [1n, 2n] : [1, 2]), TA.of(big ? 1n : 1), new TA(new TA(3)), new TA(ab).map(function (x) { return x; }));
		});
		all.push(new Sub(3), new Sub(ab, 2, 3).subarray(1));
		var notViews = [{}, [], new DataView(ab), ab, goSlice, function () {}, new Proxy(new Int32Array(2), {}),
			Object.create(Int32Array.prototype), new Map(), new Date()];
		[all, notViews]`)
	if err != nil {
		t.Fatal(err)
	}
	var groups [][]*goja.Object
	if err := rt.ExportTo(v, &groups); err != nil {
		t.Fatal(err)
	}
	for g, objs := range groups {
		for i, o := range objs {
			fast, ok1 := TypedArrayOf(o)
			slow, ok2 := typedArrayReflect(o)
			if fast != slow || ok1 != ok2 {
				t.Errorf("group %d #%d: fast (%+v %v) != reflect (%+v %v)", g, i, fast, ok1, slow, ok2)
			}
			if ok1 != (g == 0) {
				t.Errorf("group %d #%d: typed array = %v", g, i, ok1)
			}
			if g == 0 && selfOf(o).tab != ta.tab {
				t.Errorf("#%d (%s) does not take the fast path", i, fast.Kind)
			}
		}
	}
	// Offsets, lengths and bytes are the view's.
	o := mustRun(t, rt, `var u = new Uint16Array(new ArrayBuffer(32), 6, 5); u[0] = 0x0102; u`)
	a, ok := TypedArrayOf(o)
	if !ok || a.Kind != ElemUint16 || a.Offset != 3 || a.Length != 5 || a.Buffer.Detached() {
		t.Fatalf("TypedArrayOf = %+v %v", a, ok)
	}
	if b := a.Buffer.Bytes(); len(b) != 32 || b[6] != 0x02 || b[7] != 0x01 {
		t.Fatalf("bytes %v", b)
	}
	o.Get("buffer").Export().(goja.ArrayBuffer).Detach()
	if a, ok := TypedArrayOf(o); !ok || !a.Buffer.Detached() {
		t.Fatal("detach not seen")
	}
	if _, ok := TypedArrayOf(nil); ok {
		t.Fatal("nil is a typed array")
	}
	if ElemBigInt64.Size() != 8 || ElemUint8Clamped.String() != "Uint8ClampedArray" || ElemNone.Size() != 0 {
		t.Fatal("ElemKind")
	}
}

func TestSetArrayBufferBytes(t *testing.T) {
	rt := goja.New()
	ab := rt.NewArrayBuffer(make([]byte, 4))
	mem := make([]byte, 8, 16)
	mem[7] = 9
	if err := SetArrayBufferBytes(ab, mem); err != nil {
		t.Fatal(err)
	}
	rt.Set("ab", ab)
	v, err := rt.RunString(`[ab.byteLength, new Uint8Array(ab)[7]]`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Export().([]any); got[0] != int64(8) || got[1] != int64(9) {
		t.Fatalf("after SetArrayBufferBytes: %v", got)
	}
	if err := SetArrayBufferBytes(goja.ArrayBuffer{}, mem); err == nil {
		t.Fatal("zero ArrayBuffer accepted")
	}
}

func TestTypedArraysFailClosed(t *testing.T) {
	rt := goja.New()
	o := mustRun(t, rt, `new Int32Array(4)`)
	if err := TypedArrays(); err != nil {
		t.Fatal(err)
	}
	defer SimulateChange(errSimulated)()
	if _, ok := TypedArrayOf(o); ok {
		t.Fatal("a typed array read with a failed probe")
	}
	if err := SetArrayBufferBytes(rt.NewArrayBuffer(nil), nil); err == nil {
		t.Fatal("SetArrayBufferBytes with a failed probe")
	}
}

func BenchmarkTypedArrayOf(b *testing.B) {
	rt := goja.New()
	o := mustRun(b, rt, `new Int32Array(16)`)
	b.ResetTimer()
	for range b.N {
		if _, ok := TypedArrayOf(o); !ok {
			b.Fatal("not a typed array")
		}
	}
}
