package clone_test

import (
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
