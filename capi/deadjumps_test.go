package capi

import "testing"

// JSObjectMakeFunction compiles its body with the break and continue statements goja miscompiles in dead code fixed
// (issue 16): without that, this body panicked in goja's compiler (index out of range).
func TestMakeFunctionDeadJumps(t *testing.T) {
	ctx := newCtx(t)
	// The dead branch is longer than the code compiled before it: goja patched the jump past the real code's end.
	body := `var s = ""; outer: for (let i = 0; i < 2; i++) { for (let j = 0; j < 2; j++) { if (false) { ` +
		`s += 1; s += 2; s += 3; s += 4; s += 5; s += 6; s += 7; s += 8; s += 9; s += 10; s += 11; s += 12; ` +
		`continue outer; } s += j; } } return s`
	const want = "0101" // node v20
	if got := callBody(t, ctx, body); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
