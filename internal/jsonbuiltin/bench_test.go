package jsonbuiltin

import (
	"syscall"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// benchGraph builds n records shaped like a typical message payload (clone's graphSrc: 10,000 records make its
// 1 MB graph); bench/node/json.js builds the same in Node.
const benchGraph = `(function (n) {
	var out = [];
	for (var i = 0; i < n; i++)
		out.push({id: i, name: "user" + i, tags: ["a", "bb", "ccc"], nested: {x: i * 0.5, y: -i}});
	return out;
})`

// cpuTime is the process's user and system CPU time: on a loaded machine wall time mostly measures the others.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchJSON runs JSON.parse of the graph's text or JSON.stringify of the graph (n records), with these builtins
// (ours) or goja's.
func benchJSON(b *testing.B, n int, parse, ours bool) {
	var rt *goja.Runtime
	if ours {
		rt, _ = newRealm(b)
	} else {
		rt = goja.New()
	}
	mk, err := rt.RunString(benchGraph)
	if err != nil {
		b.Fatal(err)
	}
	mkFn, _ := goja.AssertFunction(mk)
	graph, err := mkFn(goja.Undefined(), rt.ToValue(n))
	if err != nil {
		b.Fatal(err)
	}
	json := rt.Get("JSON").(*goja.Object)
	stringify, _ := goja.AssertFunction(json.Get("stringify"))
	parseFn, _ := goja.AssertFunction(json.Get("parse"))
	text, err := stringify(goja.Undefined(), graph)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text.String())))
	fn, arg := stringify, graph
	if parse {
		fn, arg = parseFn, text
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		if _, err := fn(goja.Undefined(), arg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func BenchmarkParse_Graph10k_Ours(b *testing.B)     { benchJSON(b, 10_000, true, true) }
func BenchmarkParse_Graph10k_Goja(b *testing.B)     { benchJSON(b, 10_000, true, false) }
func BenchmarkStringify_Graph10k_Ours(b *testing.B) { benchJSON(b, 10_000, false, true) }
func BenchmarkStringify_Graph10k_Goja(b *testing.B) { benchJSON(b, 10_000, false, false) }
func BenchmarkParse_Graph60k_Ours(b *testing.B)     { benchJSON(b, 60_000, true, true) }
func BenchmarkParse_Graph60k_Goja(b *testing.B)     { benchJSON(b, 60_000, true, false) }
func BenchmarkStringify_Graph60k_Ours(b *testing.B) { benchJSON(b, 60_000, false, true) }
func BenchmarkStringify_Graph60k_Goja(b *testing.B) { benchJSON(b, 60_000, false, false) }
