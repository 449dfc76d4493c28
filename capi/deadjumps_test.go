package capi

import "testing"

// JSObjectMakeFunction compiles its body with the break and continue statements goja miscompiles in dead code fixed
// (issue 16): without that, this body panicked in goja's compiler (index out of range).
func TestMakeFunctionDeadJumps(t *testing.T) {
	ctx := newCtx(t)
	body := mkString(t, `var s = 0; outer: for (let i = -2; i < 10; i++) { for (let j = 0; j < 3; j++) { if (2 === 5) continue outer; s++ } } return s`)
	var exc uintptr
	f := JSObjectMakeFunction(ctx, 0, 0, nil, body, 0, 1, &exc)
	if f == 0 {
		t.Fatalf("JSObjectMakeFunction threw %s", excText(t, ctx, exc))
	}
	v := JSObjectCallAsFunction(ctx, f, 0, 0, nil, &exc)
	if v == 0 {
		t.Fatalf("the call threw %s", excText(t, ctx, exc))
	}
	if got := JSValueToNumber(ctx, v, nil); got != 36 { // node: 12 × 3
		t.Fatalf("got %v, want 36", got)
	}
}
