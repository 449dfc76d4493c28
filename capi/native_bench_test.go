package capi

import (
	"testing"

	"github.com/dop251/goja"
)

// BenchmarkHostCallPath is the library's side of one host-function call from JavaScript (hostFunction) without the
// cgo transition: the scope, the handles of the function, this and one argument, what a callback like
// bench/capi/native_bench.c's inc does (JSValueToNumber, JSValueMakeNumber), and the scope's close. It locates the
// cost of a native call.
func BenchmarkHostCallPath(b *testing.B) {
	t := &testing.T{}
	ctx := newCtx(t)
	defer JSGlobalContextRelease(ctx)
	c, _ := enter("bench", ctx)
	arg := goja.Value(c.rt.ToValue(1.0))
	fn := c.rt.NewObject()
	b.ReportAllocs()
	for b.Loop() {
		c.x.depth++
		depth := len(c.scopes)
		c.openScope(0)
		c.newValue(fn)
		c.newValue(goja.Undefined())
		a := c.newValue(arg)
		n := JSValueToNumber(ctx, a, nil)
		r := JSValueMakeNumber(ctx, n+1)
		_, _ = c.value("cb", "result", r)
		c.closeScopes(depth)
		c.x.depth--
	}
}

// BenchmarkCallFloor is goja's own cost of the calls the native-call benchmark compares, in one realm, without the
// library: a loop calling an empty Go function (what a host function is to goja, before its scope, handles and cgo
// transition) and the same loop calling an empty JavaScript function. ns/op is per call.
func BenchmarkCallFloor(b *testing.B) {
	for _, tc := range []struct{ name, callee string }{{"GoFunction", "goNop"}, {"JSFunction", "jsNop"}} {
		b.Run(tc.name, func(b *testing.B) {
			rt := goja.New()
			_ = rt.Set("goNop", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
			loop, err := rt.RunString(`function jsNop() {}
				(function (n) { for (let i = 0; i < n; i++) ` + tc.callee + `(i); })`)
			if err != nil {
				b.Fatal(err)
			}
			f, _ := goja.AssertFunction(loop)
			b.ResetTimer()
			if _, err := f(goja.Undefined(), rt.ToValue(b.N)); err != nil {
				b.Fatal(err)
			}
		})
	}
}
