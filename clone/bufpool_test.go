package clone_test

import (
	"runtime/debug"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// Large frames come from pooled buffers that Deserialize gives back (see
// bufpool.go). What an earlier Deserialize built must not change when later
// frames reuse those buffers: its strings, and an ArrayBuffer that uses its
// frame's bytes in place (whose frame must not be recycled at all).
func TestPooledFramesDoNotShareMemory(t *testing.T) {
	// No collection meanwhile, so that the pools keep what they are given
	// and the buffers are reused for certain.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	src, dst := goja.New(), goja.New()
	mk := func(t *testing.T, code string) goja.Value { return run(t, src, code) }
	send := func(t *testing.T, v goja.Value) goja.Value {
		t.Helper()
		f, err := clone.Serialize(src, v, clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := clone.Deserialize(dst, f)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// Strings of every size the reader makes (shared short ones, long ones,
	// Latin-1 and UTF-16, keys and values), in frames past the pooled size.
	graph := func(seed string) string {
		return `(function (s) { var a = []; for (var i = 0; i < 3000; i++) a.push({["key-" + s + i]: s + i,
			long: (s + "-long-").repeat(4) + i, l1: "é" + s + i, u: "€" + s + i, n: i * 1.5}); return a; })("` + seed + `")`
	}
	const checkGraph = `(function (a, s) { if (a.length !== 3000) return false;
		for (var i = 0; i < 3000; i++) { var o = a[i];
			if (o["key-" + s + i] !== s + i || o.long !== (s + "-long-").repeat(4) + i || o.l1 !== "é" + s + i ||
				o.u !== "€" + s + i || o.n !== i * 1.5) return false; }
		return true; })`
	first := send(t, mk(t, graph("A")))
	// An ArrayBuffer most of its frame, written after enough small values
	// that the frame is in a pooled buffer: the reader uses its bytes in
	// place, so that buffer must never be reused.
	const withBuffer = `(function (fill) { var s = []; for (var i = 0; i < 4000; i++) s.push("abcdefgh");
		var b = new Uint8Array(80000); for (var i = 0; i < b.length; i++) b[i] = fill ? 7 : i % 251;
		return {s: s, b: b.buffer}; })`
	buf := send(t, mk(t, withBuffer+`(false)`))
	for i := 0; i < 20; i++ {
		// Later frames of the same sizes, other contents: they reuse the
		// buffers given back.
		send(t, mk(t, graph("BBBBBBB")))
		send(t, mk(t, withBuffer+`(true)`))
		send(t, mk(t, `(function () { var s = []; for (var i = 0; i < 12000; i++) s.push("zzzzzzzz"); return s; })()`))
	}
	dst.Set("first", first)
	dst.Set("buf", buf)
	if !run(t, dst, checkGraph+`(first, "A")`).ToBoolean() {
		t.Error("the strings of an earlier message changed when its frame's buffer was reused")
	}
	if !run(t, dst, `(function () { var b = new Uint8Array(buf.b); if (b.length !== 80000 || buf.s.length !== 4000) return false;
		for (var i = 0; i < b.length; i++) if (b[i] !== i % 251) return false; return true; })()`).ToBoolean() {
		t.Error("an ArrayBuffer using its frame's bytes in place changed when later frames were written")
	}
}

// A large frame that is released instead of read (a message never
// delivered) is not recycled: the messages after it still read correctly.
func TestPooledFramesReleasedUnread(t *testing.T) {
	src := goja.New()
	v := run(t, src, `(function () { var a = []; for (var i = 0; i < 20000; i++) a.push("s" + i); return a; })()`)
	for i := 0; i < 6; i++ {
		f, err := clone.Serialize(src, v, clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			f.Release()
			continue
		}
		dst := goja.New()
		out, err := clone.Deserialize(dst, f)
		if err != nil {
			t.Fatal(err)
		}
		check(t, dst, out, `v.length === 20000 && v[0] === "s0" && v[19999] === "s19999"`)
	}
}

// A frame whose buffer was sized for one ArrayBuffer and then grew again
// (many values after the buffer) reads back, message after message.
func TestPooledFramesAfterLargeWrite(t *testing.T) {
	src, dst := goja.New(), goja.New()
	v := run(t, src, `(function () { var b = new Uint8Array(300000); b[299999] = 9; var s = [];
		for (var i = 0; i < 40000; i++) s.push("v" + i); return {b: b.buffer, s: s}; })()`)
	for i := 0; i < 4; i++ {
		f, err := clone.Serialize(src, v, clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := clone.Deserialize(dst, f)
		if err != nil {
			t.Fatal(err)
		}
		check(t, dst, out, `new Uint8Array(v.b)[299999] === 9 && v.b.byteLength === 300000 && v.s.length === 40000 && v.s[39999] === "v39999"`)
	}
}
