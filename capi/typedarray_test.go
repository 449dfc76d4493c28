package capi

import "testing"

func TestTypedArray_Sizes(t *testing.T) {
	ctx := newCtx(t)
	var exc uintptr
	ta := JSObjectMakeTypedArray(ctx, taInt32, 4, &exc)
	if ta == 0 {
		t.Fatalf("JSObjectMakeTypedArray = NULL: %s", excText(t, ctx, exc))
	}
	if n := JSObjectGetTypedArrayLength(ctx, ta, &exc); n != 4 {
		t.Fatalf("length = %d, want 4 (%s)", n, excText(t, ctx, exc))
	}
}
