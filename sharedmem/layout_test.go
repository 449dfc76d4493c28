package sharedmem

import (
	"strconv"
	"testing"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// gojainternal reads views over SharedArrayBuffers (ArrayBuffers of this
// package's blocks) exactly as JavaScript sees them: kind, element offset
// and length, and bytes that are the block's own memory.
func TestTypedArraysOverSharedMemory(t *testing.T) {
	rt := newRealm(t, RealmOptions{})
	v := run(t, rt, `
		class Sub extends Int16Array {}
		var sab = new SharedArrayBuffer(64), grow = new SharedArrayBuffer(16, {maxByteLength: 64});
		var all = [];
		[Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
		 Float32Array, Float64Array, BigInt64Array, BigUint64Array].forEach(function (TA) {
			all.push(new TA(sab), new TA(sab, 8, 2), new TA(sab).subarray(1), new TA(grow));
		});
		all.push(new Sub(sab, 2, 3).subarray(1));
		all.map(function (a) { return [a, a.byteOffset, a.length, Object.getPrototypeOf(Object.getPrototypeOf(a)) === Int16Array.prototype ? "Int16Array" : a.constructor.name, a.buffer]; })`)
	var rows [][]any
	if err := rt.ExportTo(v, &rows); err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		o := v.(*goja.Object).Get(strconv.Itoa(i)).(*goja.Object).Get("0").(*goja.Object)
		ta, ok := gojainternal.TypedArrayOf(o)
		if !ok || ta.Buffer.Detached() {
			t.Fatalf("#%d: not read (%v)", i, ok)
		}
		name := row[3].(string)
		if ta.Kind.String() != name || int64(ta.Offset*ta.Kind.Size()) != row[1].(int64) || int64(ta.Length) != row[2].(int64) {
			t.Errorf("#%d: %+v, JavaScript says %s byteOffset %v length %v", i, ta, name, row[1], row[2])
		}
		b, ok := BlockOf(rt, v.(*goja.Object).Get(strconv.Itoa(i)).(*goja.Object).Get("4").(*goja.Object))
		if !ok {
			t.Fatalf("#%d: buffer is not a SharedArrayBuffer", i)
		}
		if unsafe.SliceData(ta.Buffer.Bytes()) != unsafe.SliceData(b.mem) {
			t.Errorf("#%d: the bytes read are not the block's memory", i)
		}
	}
}
