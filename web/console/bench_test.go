package console

import (
	"testing"

	"github.com/dop251/goja"
)

func benchLog(b *testing.B, src string) {
	rt := goja.New()
	if err := Install(rt, rt.GlobalObject(), Config{Write: func(Level, string) {}}); err != nil {
		b.Fatal(err)
	}
	v, err := rt.RunString("(" + src + ")")
	if err != nil {
		b.Fatal(err)
	}
	log, _ := goja.AssertFunction(rt.Get("console").(*goja.Object).Get("log"))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := log(goja.Undefined(), v); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLogString(b *testing.B) { benchLog(b, "'a plain line of text'") }
func BenchmarkLogObject(b *testing.B) {
	benchLog(b, "{ id: 7, name: 'widget', tags: ['a', 'b'], dims: { w: 1, h: 2 } }")
}
func BenchmarkLogArray100(b *testing.B) { benchLog(b, "Array.from({ length: 100 }, (_, i) => i)") }
func BenchmarkInspectNew(b *testing.B) {
	rt := goja.New()
	v, _ := rt.RunString("({ a: 1 })")
	for i := 0; i < b.N; i++ {
		Inspect(rt, v, DefaultInspectOptions())
	}
}
