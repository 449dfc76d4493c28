package clone_test

import (
	"bytes"
	"runtime"
	"strconv"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

const (
	smallSrc = `({i: 1, s: "hello"})`

	// graphSrc is 10k records shaped like a typical message payload.
	graphSrc = `(function () {
		var out = [];
		for (var i = 0; i < 10000; i++)
			out.push({id: i, name: "user" + i, tags: ["a", "bb", "ccc"], nested: {x: i * 0.5, y: -i}});
		return out;
	})()`
)

func benchSerialize(b *testing.B, src string) {
	rt := goja.New()
	v := run(b, rt, src)
	f, err := clone.Serialize(rt, v, clone.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(f.Len()))
	f.Release()
	b.ReportAllocs()
	for b.Loop() {
		f, err := clone.Serialize(rt, v, clone.Options{})
		if err != nil {
			b.Fatal(err)
		}
		f.Release()
	}
}

func benchDeserialize(b *testing.B, src string) {
	f := mustSerialize(b, src)
	data := f.Bytes() // Release drops the frame's reference, not the bytes
	b.SetBytes(int64(len(data)))
	rt := goja.New()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := clone.Deserialize(rt, clone.NewFrame(data)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSerializeSmall(b *testing.B)   { benchSerialize(b, smallSrc) }
func BenchmarkDeserializeSmall(b *testing.B) { benchDeserialize(b, smallSrc) }

// BenchmarkRoundTripSmall is one message end to end, minus the channel.
func BenchmarkRoundTripSmall(b *testing.B) {
	src, dst := goja.New(), goja.New()
	v := run(b, src, smallSrc)
	b.ReportAllocs()
	for b.Loop() {
		f, err := clone.Serialize(src, v, clone.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := clone.Deserialize(dst, f); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSerializeGraph10k(b *testing.B)   { benchSerialize(b, graphSrc) }
func BenchmarkDeserializeGraph10k(b *testing.B) { benchDeserialize(b, graphSrc) }

// BenchmarkJSONGraph10k is the yardstick: JSON.parse(JSON.stringify(g)) of
// the same graph inside goja.
func BenchmarkJSONGraph10k(b *testing.B) {
	rt := goja.New()
	run(b, rt, `var g = `+graphSrc+`;`)
	b.ReportAllocs()
	for b.Loop() {
		run(b, rt, `JSON.parse(JSON.stringify(g)), undefined`)
	}
}

// graphJSONBytes is the size of graphSrc as JSON, the unit of the MB/s
// figures compared with Node's.
func graphJSONBytes(b *testing.B) int64 {
	rt := goja.New()
	return run(b, rt, `JSON.stringify(`+graphSrc+`).length`).ToInteger()
}

// BenchmarkCloneGraph10k is one clone of the 10k-record graph: Serialize in
// one runtime, Deserialize in another. MB/s counts the graph's JSON size.
func BenchmarkCloneGraph10k(b *testing.B) {
	src, dst := goja.New(), goja.New()
	v := run(b, src, graphSrc)
	b.SetBytes(graphJSONBytes(b))
	b.ReportAllocs()
	for b.Loop() {
		f, err := clone.Serialize(src, v, clone.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := clone.Deserialize(dst, f); err != nil {
			b.Fatal(err)
		}
	}
}

// buffer16MiB is a 16 MiB ArrayBuffer whose every page holds data.
const buffer16MiB = `var b = new ArrayBuffer(16 << 20); new Uint32Array(b).fill(0x01020304); b`

// BenchmarkRoundTripBuffer16MiBCopy clones a 16 MiB ArrayBuffer from A to B
// and back: two copies, like Node's postMessage round trip.
func BenchmarkRoundTripBuffer16MiBCopy(b *testing.B) {
	a, c := goja.New(), goja.New()
	v := run(b, a, buffer16MiB)
	b.SetBytes(2 << 24)
	b.ReportAllocs()
	for b.Loop() {
		f, err := clone.Serialize(a, v, clone.Options{})
		if err != nil {
			b.Fatal(err)
		}
		w, err := clone.Deserialize(c, f)
		if err != nil {
			b.Fatal(err)
		}
		if f, err = clone.Serialize(c, w, clone.Options{}); err != nil {
			b.Fatal(err)
		}
		if _, err := clone.Deserialize(a, f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFloorRoundTripBuffer16MiB is what the two copies of
// BenchmarkRoundTripBuffer16MiBCopy cost in plain Go: each hop one fresh
// allocation and one copy, the least a copying clone can do.
func BenchmarkFloorRoundTripBuffer16MiB(b *testing.B) {
	src := bytes.Repeat([]byte{1, 2, 3, 4}, 4<<20)
	b.SetBytes(2 << 24)
	b.ReportAllocs()
	var hop1, hop2 []byte
	for b.Loop() {
		hop1 = append(make([]byte, 0, 512), src...)
		hop2 = append(make([]byte, 0, 512), hop1...)
	}
	runtime.KeepAlive(hop2)
}

// BenchmarkRoundTripBuffer16MiBTransfer transfers a 16 MiB ArrayBuffer from
// A to B and back.
func BenchmarkRoundTripBuffer16MiBTransfer(b *testing.B) {
	a, c := goja.New(), goja.New()
	v := run(b, a, buffer16MiB)
	b.ReportAllocs()
	for b.Loop() {
		f, err := clone.Serialize(a, v, clone.Options{Transfer: []goja.Value{v}})
		if err != nil {
			b.Fatal(err)
		}
		w, err := clone.Deserialize(c, f)
		if err != nil {
			b.Fatal(err)
		}
		if f, err = clone.Serialize(c, w, clone.Options{Transfer: []goja.Value{w}}); err != nil {
			b.Fatal(err)
		}
		if v, err = clone.Deserialize(a, f); err != nil {
			b.Fatal(err)
		}
	}
}

// nodeGraphSrc is the graph of the Node reference program
// (bench/node/clone.js in the shared notes): 10k records of seven fields,
// ~1.06 MB as JSON.
const nodeGraphSrc = `(function () {
	var a = new Array(10000);
	for (var i = 0; i < 10000; i++)
		a[i] = {id: i, name: "item-" + i, kind: "k" + (i % 17), price: Math.round(i * 137.31) / 100,
			qty: (i * 7) % 1000, ok: (i % 3) === 0, tags: ["alpha", "beta", i % 10]};
	return a;
})()`

// BenchmarkCloneNodeGraph10k is BenchmarkCloneGraph10k on Node's graph.
func BenchmarkCloneNodeGraph10k(b *testing.B) {
	src, dst := goja.New(), goja.New()
	v := run(b, src, nodeGraphSrc)
	b.SetBytes(run(b, src, `JSON.stringify(`+nodeGraphSrc+`).length`).ToInteger())
	b.ReportAllocs()
	for b.Loop() {
		f, err := clone.Serialize(src, v, clone.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := clone.Deserialize(dst, f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFloorGraph10k measures what goja itself costs for one clone of
// graphSrc, with no encoding at all: reading every record the way Serialize
// must (Keys, Get) and building the copy the way Deserialize must (one
// object per object, one property at a time). The difference between
// BenchmarkCloneGraph10k and this is the serializer's own cost.
func BenchmarkFloorGraph10k(b *testing.B) {
	src, dst := goja.New(), goja.New()
	v := run(b, src, graphSrc).(*goja.Object)
	b.SetBytes(graphJSONBytes(b))
	b.ReportAllocs()
	var walk func(v goja.Value) goja.Value
	proto := dst.NewObject().Prototype()
	walk = func(v goja.Value) goja.Value {
		o, ok := v.(*goja.Object)
		if !ok {
			if s, ok := v.(goja.String); ok {
				return dst.ToValue(s.String())
			}
			return v
		}
		if o.ClassName() == "Array" {
			n := int(o.Get("length").ToInteger())
			items := make([]any, n)
			for i := 0; i < n; i++ {
				items[i] = walk(o.Get(strconv.Itoa(i)))
			}
			return dst.NewArray(items...)
		}
		c := dst.CreateObject(nil)
		for _, k := range o.Keys() {
			c.Set(k, walk(o.Get(k)))
		}
		c.SetPrototype(proto)
		return c
	}
	for b.Loop() {
		walk(v)
	}
}

// BenchmarkCaptureBuiltins is the cost CaptureBuiltins adds to a new realm.
func BenchmarkCaptureBuiltins(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		rt := goja.New()
		if err := clone.CaptureBuiltins(rt); err != nil {
			b.Fatal(err)
		}
		clone.ReleaseRealm(rt)
	}
}

// BenchmarkInstallStructuredClone is the cost InstallStructuredClone adds
// to a new realm.
func BenchmarkInstallStructuredClone(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		rt := goja.New()
		if err := clone.InstallStructuredClone(rt); err != nil {
			b.Fatal(err)
		}
		clone.ReleaseRealm(rt)
	}
}

// BenchmarkSerializeMap100k is the per-entry cost of reading a Map (the
// MB/s figure is meaningless; see ns/op ÷ 100,000).
func BenchmarkSerializeMap100k(b *testing.B) {
	benchSerialize(b, `var m = new Map(); for (var i = 0; i < 100000; i++) m.set(i, i); m`)
}

// BenchmarkSmallMessagePipeline is throughput.js's one-way figure without
// threads or channels, 1,000 messages {i, s: "abc"} per op, to tell goja's
// share from the clone's: "post-loop" is the sender's JavaScript loop
// post({i: i, s: "abc"}) with a native post that does nothing; "listener"
// calls the receiver's listener (count++, sum += m.i) from Go with one
// ready object; "clone" runs the loop with a post that serializes each
// message, deserializes it into the receiving runtime and calls the
// listener. clone − post-loop − listener is the clone's own cost.
func BenchmarkSmallMessagePipeline(b *testing.B) {
	const n = 1000
	loop := `(function (post) { for (let i = 0; i < ` + strconv.Itoa(n) + `; i++) post({i: i, s: "abc"}); })`
	listenerSrc := `var count = 0, sum = 0; (function (m) { count++; sum += m.i; })`
	b.Run("post-loop", func(b *testing.B) {
		rt := goja.New()
		fn, _ := goja.AssertFunction(run(b, rt, loop))
		post := rt.ToValue(func(goja.FunctionCall) goja.Value { return goja.Undefined() })
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fn(goja.Undefined(), post); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
	})
	b.Run("listener", func(b *testing.B) {
		rt := goja.New()
		fn, _ := goja.AssertFunction(run(b, rt, listenerSrc))
		m := run(b, rt, `({i: 1, s: "abc"})`)
		b.ReportAllocs()
		for b.Loop() {
			for range n {
				if _, err := fn(goja.Undefined(), m); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
	})
	b.Run("clone", func(b *testing.B) {
		src, dst := goja.New(), goja.New()
		fn, _ := goja.AssertFunction(run(b, src, loop))
		listener, _ := goja.AssertFunction(run(b, dst, listenerSrc))
		post := src.ToValue(func(c goja.FunctionCall) goja.Value {
			f, err := clone.Serialize(src, c.Argument(0), clone.Options{})
			if err != nil {
				panic(err)
			}
			v, err := clone.Deserialize(dst, f)
			if err != nil {
				panic(err)
			}
			if _, err := listener(goja.Undefined(), v); err != nil {
				panic(err)
			}
			return goja.Undefined()
		})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fn(goja.Undefined(), post); err != nil {
				b.Fatal(err)
			}
		}
		if got := run(b, dst, `sum`).ToInteger(); got <= 0 {
			b.Fatalf("listener saw sum %d", got)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/msg")
	})
}
