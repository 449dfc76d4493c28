package capi

import (
	"testing"
	"time"
)

// With a spin set (the benchmarks' knob), a blocking receive still gets every reply in order, a poll still returns
// at once, and a timeout still waits its full time.
func TestReceiveSpin_KeepsTheReceiveContract(t *testing.T) {
	ctx := newCtx(t)
	w := JSWorkerCreate(mkString(t, `onmessage = (e) => postMessage(e.data + 1);`))
	defer JSWorkerRelease(w)
	defer func(old time.Duration) { receiveSpin = old }(receiveSpin)
	receiveSpin = 200 * time.Microsecond
	var exc uintptr
	for i := range 200 {
		s := ZJSHandleScopeOpen(ctx)
		if !JSWorkerPostMessage(w, ctx, JSValueMakeNumber(ctx, float64(i)), &exc) {
			t.Fatal(excText(t, ctx, exc))
		}
		if got := JSValueToNumber(ctx, JSWorkerReceive(w, ctx, waitForever, &exc), nil); got != float64(i+1) {
			t.Fatalf("reply %v, want %d", got, i+1)
		}
		ZJSHandleScopeClose(ctx, s)
	}
	if JSWorkerReceive(w, ctx, 0, &exc) != 0 || exc != 0 {
		t.Error("a poll of an empty outbox returned something")
	}
	start := time.Now()
	if JSWorkerReceive(w, ctx, 30, &exc) != 0 || exc != 0 {
		t.Error("a 30 ms receive of an empty outbox returned something")
	}
	if d := time.Since(start); d < 29*time.Millisecond {
		t.Errorf("a 30 ms receive returned after %v", d)
	}
}
