package clone_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// nested returns JS building containers nested so that the innermost one is
// at depth n (the root is at depth 0).
func nested(n int, array bool) string {
	if array {
		return fmt.Sprintf(`var r = [], o = r; for (var i = 0; i < %d; i++) { var c = []; o.push(c); o = c; } r`, n)
	}
	return fmt.Sprintf(`var r = {}, o = r; for (var i = 0; i < %d; i++) { o.c = {}; o = o.c; } r`, n)
}

func TestDepthWrite(t *testing.T) {
	for _, array := range []bool{false, true} {
		rt, v := roundTrip(t, nested(256, array))
		check(t, rt, v, `var d = 0, o = v; while (o.c || o[0]) { o = o.c || o[0]; d++; } d === 256`)

		rt = goja.New()
		_, err := clone.Serialize(rt, run(t, rt, nested(257, array)), clone.Options{})
		checkDataCloneError(t, rt, err, "nested too deeply to be cloned (more than 256 levels).")
	}
	// A deep chain of dates and primitives is fine: only containers count.
	rt, v := roundTrip(t, nested(256, false)+`; o.d = new Date(0); o.x = 1; r`)
	check(t, rt, v, `var o = v; while (o.c) o = o.c; o.d.getTime() === 0 && o.x === 1`)
	// Depth is depth, not size: a wide graph is fine.
	roundTrip(t, `var a = []; for (var i = 0; i < 1000; i++) a.push({i}); a`)
}

// deepFrame crafts a frame whose innermost container is at depth n.
func deepFrame(n int, array bool) []byte {
	b := []byte{1}
	if array {
		b = append(b, bytes.Repeat([]byte{'A', 1}, n)...) // arrays of length 1 holding the next level
		return append(b, 'A', 0)                          // the innermost array is empty
	}
	b = append(b, bytes.Repeat([]byte{'o', '"', 1, 'c'}, n)...) // objects whose key "c" holds the next level
	b = append(b, 'o', '{')                                     // the innermost object is empty
	return append(b, bytes.Repeat([]byte{'{'}, n)...)           // close the others
}

func TestDepthRead(t *testing.T) {
	for _, array := range []bool{false, true} {
		rt, v, err := deserialize(deepFrame(256, array))
		if err != nil {
			t.Fatalf("depth 256 (array %v): %v", array, err)
		}
		check(t, rt, v, `var d = 0, o = v; while (typeof (o.c || o[0]) === "object") { o = o.c || o[0]; d++; } d === 256`)

		_, _, err = deserialize(deepFrame(257, array))
		if !errors.Is(err, clone.ErrMalformedFrame) {
			t.Errorf("depth 257 (array %v): got %v, want ErrMalformedFrame", array, err)
		}
	}
}

// TestMaxBytesBoundary checks that a value whose frame is N bytes passes with
// a cap of N and fails with N-1.
func TestMaxBytesBoundary(t *testing.T) {
	for _, src := range []string{
		`undefined`, `1`, `1e300`, `-(2n**200n)`, `"hello"`, `"x".repeat(1000)`, `"é€😀"`, `"é".repeat(200)`,
		`({i: 1, s: "hello"})`, `({"é": 1, "日本": 2})`, `[1, , 3, , ]`, `new Date(0)`,
		`var a = []; a.length = 70000; a[3] = true; a[69999] = "z"; a`,
		`var o = {a: [1, 2, {b: "c"}]}; o.self = o; [o, o]`,
		`new Map([[1, "a"], [{}, new Set([2n])]])`, `/ab+c/gi`, `new TypeError("t", {cause: [1]})`,
		`[new Number(1.5), new String("é"), Object(7n), new Boolean(true)]`, `new ArrayBuffer(3)`, `[1, new ArrayBuffer(9)]`,
		`var b = new ArrayBuffer(16); [new Float64Array(b, 8), new DataView(b)]`, `var a = [1]; a.x = {y: 2}; a`,
	} {
		full := mustSerialize(t, src)
		n := full.Len()
		full.Release()
		f, err := serialize(t, src, clone.Options{MaxBytes: n})
		if err != nil || f.Len() != n {
			t.Errorf("%s: cap %d: got %v, %v; want a frame of %d bytes", src, n, f, err, n)
		}
		f.Release()
		f, err = serialize(t, src, clone.Options{MaxBytes: n - 1})
		if n == 1 {
			continue // a cap of 0 means no cap
		}
		if f != nil || !errors.Is(err, clone.ErrFrameTooLarge) {
			t.Errorf("%s: cap %d: got %v, %v; want ErrFrameTooLarge", src, n-1, f, err)
		}
	}
}

// TestMaxBytesStopsEarly checks that Serialize stops at the cap: later
// getters do not run.
func TestMaxBytesStopsEarly(t *testing.T) {
	rt := goja.New()
	v := run(t, rt, `var ran = false; ({s: "x".repeat(100), get g() { ran = true; return 1; }})`)
	if _, err := clone.Serialize(rt, v, clone.Options{MaxBytes: 50}); !errors.Is(err, clone.ErrFrameTooLarge) {
		t.Fatalf("got %v, want ErrFrameTooLarge", err)
	}
	if run(t, rt, `ran`).ToBoolean() {
		t.Error("a getter ran after the cap was crossed")
	}
}

// TestDepthOtherContainers checks that Maps, Sets and Errors count as
// containers for the depth limit, on write and on read.
func TestDepthOtherContainers(t *testing.T) {
	for _, tc := range []struct{ name, build string }{
		{"Map", `c = new Map([[1, c]])`},
		{"Set", `c = new Set([c])`},
		{"Error cause", `c = new Error("e", {cause: c})`},
		{"mixed", `c = i % 3 == 0 ? new Map([[c, 1]]) : i % 3 == 1 ? [c] : {c}`},
	} {
		src := func(n int) string {
			return fmt.Sprintf(`var c = 0; for (var i = 0; i <= %d; i++) { %s; } c`, n, tc.build)
		}
		roundTrip(t, src(256)) // the innermost container at depth 256
		rt := goja.New()
		_, err := clone.Serialize(rt, run(t, rt, src(257)), clone.Options{})
		checkDataCloneError(t, rt, err, "nested too deeply to be cloned (more than 256 levels).")
	}
	// On read: 257 nested Sets of one element each.
	frame := append(bytes.Repeat([]byte{'\'', 1}, 258), '_')
	if _, _, err := deserialize(v2(frame...)); !errors.Is(err, clone.ErrMalformedFrame) {
		t.Errorf("Sets nested 257 deep: got %v, want ErrMalformedFrame", err)
	}
	if _, _, err := deserialize(v2(append(bytes.Repeat([]byte{'\'', 1}, 257), '_')...)); err != nil {
		t.Errorf("Sets nested 256 deep: %v", err)
	}
}
