package gojainternal

import (
	"runtime"
	"testing"

	"github.com/dop251/goja"
)

// liveHeap is the Go heap in use after two collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestReachableBytes_Accuracy compares the estimate of what a realm's script allocated with the growth of Go's live
// heap for the same graph: within a factor of two either way, for objects, arrays, strings and buffers.
func TestReachableBytes_Accuracy(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"objects", `globalThis.keep = []; for (let i = 0; i < 50000; i++) keep.push({a: i, b: "s" + i, c: [i]});`},
		{"strings", `globalThis.keep = []; for (let i = 0; i < 2000; i++) keep.push("x".repeat(1000) + i);`},
		{"buffers", `globalThis.keep = []; for (let i = 0; i < 200; i++) keep.push(new Uint8Array(100000));`},
		{"map", `globalThis.keep = new Map(); for (let i = 0; i < 30000; i++) keep.set("k" + i, {v: i});`},
		{"closures", `globalThis.keep = []; for (let i = 0; i < 30000; i++) { let x = {i}; keep.push(() => x); }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt := goja.New()
			before := ReachableBytes(rt)
			h0 := liveHeap()
			if _, err := rt.RunString(tc.src); err != nil {
				t.Fatal(err)
			}
			h1 := liveHeap()
			after := ReachableBytes(rt)
			est, real := float64(after-before), float64(h1)-float64(h0)
			t.Logf("idle realm %d B; estimate %.1f MB, live heap growth %.1f MB (ratio %.2f)", before, est/1e6, real/1e6, est/real)
			if real <= 0 || est/real < 0.5 || est/real > 2 {
				t.Errorf("estimate %.0f B for a live heap growth of %.0f B", est, real)
			}
			runtime.KeepAlive(rt)
		})
	}
}

// TestReachableBytes_LongList walks a linked list a million links long without recursion.
func TestReachableBytes_LongList(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	rt := goja.New()
	if _, err := rt.RunString(`let h = null; for (let i = 0; i < 1000000; i++) h = {n: h}; globalThis.h = h;`); err != nil {
		t.Fatal(err)
	}
	if n := ReachableBytes(rt); n < 50e6 {
		t.Errorf("a million objects estimated at %d B", n)
	}
}

func BenchmarkReachableBytes_Idle(b *testing.B) {
	rt := goja.New()
	for b.Loop() {
		ReachableBytes(rt)
	}
}

func BenchmarkReachableBytes_100kObjects(b *testing.B) {
	rt := goja.New()
	if _, err := rt.RunString(`var keep = []; for (var i = 0; i < 100000; i++) keep.push({i: i, s: "k" + i})`); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		b.ReportMetric(float64(ReachableBytes(rt)), "bytes")
	}
}
