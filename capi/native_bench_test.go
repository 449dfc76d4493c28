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
