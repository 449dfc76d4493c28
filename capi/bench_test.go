package capi

import "testing"

// BenchmarkPostOneWay is the C benchmark's one-way loop (bench/capi) called
// from Go, without the cgo entry: set a number property on one message
// object and post it, in handle scopes of 1,000. It locates the cost of the
// library's own path.
func BenchmarkPostOneWay(b *testing.B) {
	t := &testing.T{}
	ctx := newCtx(t)
	defer JSGlobalContextRelease(ctx)
	src := mkString(t, `onmessage = function () {};`)
	w := JSWorkerCreate(src)
	JSStringRelease(src)
	defer JSWorkerRelease(w)
	iKey := mkString(t, "i")
	defer JSStringRelease(iKey)
	msg := eval(t, ctx, `({i: 0, s: "hello"})`)
	b.ResetTimer()
	for i := 0; i < b.N; i += 1000 {
		scope := ZJSHandleScopeOpen(ctx)
		for j := i; j < i+1000 && j < b.N; j++ {
			JSObjectSetProperty(ctx, msg, iKey, JSValueMakeNumber(ctx, float64(j)), 0, nil)
			for !JSWorkerPostMessage(w, ctx, msg, nil) {
				// the default 1,024-message queue is full: let the worker drain
			}
		}
		ZJSHandleScopeClose(ctx, scope)
	}
}
