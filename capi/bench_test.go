package capi

import (
	"testing"
	"time"
)

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

// BenchmarkReceiveSpin is the C benchmark's round trip (post a number, the worker posts it back, the host blocked
// in JSWorkerReceive) from a goroutine locked to its thread, as a C host's is, with the receive polling for the
// given time before it parks. The spins run alternately, -count times each.
func BenchmarkReceiveSpin(b *testing.B) {
	for _, spin := range []time.Duration{0, 5 * time.Microsecond, 20 * time.Microsecond, 100 * time.Microsecond} {
		b.Run(spin.String(), func(b *testing.B) {
			t := &testing.T{}
			ctx := newCtx(t)
			defer JSGlobalContextRelease(ctx)
			src := mkString(t, `onmessage = (e) => postMessage(e.data);`)
			w := JSWorkerCreate(src)
			JSStringRelease(src)
			defer JSWorkerRelease(w)
			defer func(old time.Duration) { receiveSpin = old }(receiveSpin)
			receiveSpin = spin
			for i := -1000; i < b.N; i++ {
				if i == 0 {
					b.ResetTimer()
				}
				scope := ZJSHandleScopeOpen(ctx)
				if !JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, float64(i)), nil) ||
					JSValueToNumber(ctx, JSWorkerReceive(w, ctx, waitForever, nil), nil) != float64(i) {
					b.Fatal("round trip failed")
				}
				ZJSHandleScopeClose(ctx, scope)
			}
		})
	}
}

// graphSource is clone.js's makeGraph (bench/node/clone.js): 10,000 objects, ~1.06 MB as JSON.
const graphSource = `(function makeGraph(n) { const a = new Array(n); for (let i = 0; i < n; i++) { a[i] = { id: i,
	name: 'item-' + i, kind: 'k' + (i % 17), price: Math.round(i * 137.31) / 100, qty: (i * 7) % 1000,
	ok: (i % 3) === 0, tags: ['alpha', 'beta', i % 10] }; } return a; })(10000)`

// BenchmarkGraphRoundTrip is the C benchmark's clone of clone.js's graph main → worker → main, as a value
// (JSWorkerPostMessage, JSWorkerReceive) and as JSON text (ZJSWorkerPostJSON, ZJSWorkerReceiveJSON).
func BenchmarkGraphRoundTrip(b *testing.B) {
	for _, mode := range []string{"value", "json"} {
		b.Run(mode, func(b *testing.B) {
			t := &testing.T{}
			ctx := newCtx(t)
			defer JSGlobalContextRelease(ctx)
			src := mkString(t, `onmessage = (e) => postMessage(e.data);`)
			w := JSWorkerCreate(src)
			JSStringRelease(src)
			defer JSWorkerRelease(w)
			graph := eval(t, ctx, graphSource)
			text := goString(t, JSValueCreateJSONString(ctx, graph, 0, nil))
			b.SetBytes(int64(2 * len(text)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if mode == "json" {
					if !postJSON(w, ctx, text, nil) {
						b.Fatal("post failed")
					}
					if s, ok := receiveJSON(t, w, ctx, waitForever, nil); !ok || len(s) != len(text) {
						b.Fatal("receive failed")
					}
					continue
				}
				scope := ZJSHandleScopeOpen(ctx)
				if !JSWorkerPostMessage(w, ctx, graph, nil) || JSWorkerReceive(w, ctx, waitForever, nil) == 0 {
					b.Fatal("round trip failed")
				}
				ZJSHandleScopeClose(ctx, scope)
			}
		})
	}
}
