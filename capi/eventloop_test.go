package capi

import (
	"os"
	"path/filepath"
	"testing"
)

func TestZJSContextRunPendingEvents_WorkerReplyThroughThePump(t *testing.T) {
	ctx := newCtx(t)
	file := filepath.Join(t.TempDir(), "echo.js")
	if err := os.WriteFile(file, []byte(`onmessage = function (e) { postMessage('echo ' + e.data); close(); };`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := ZJSContextRunPendingEvents(ctx, 0); got != 0 {
		t.Fatalf("fresh context: %d, want 0", got)
	}
	eval(t, ctx, `var got = []; var w = new Worker(`+"`"+file+"`"+`); w.onmessage = function (e) { got.push(e.data); }; w.postMessage('hi');`)
	for i := 0; ZJSContextRunPendingEvents(ctx, 100) > 0; i++ {
		if i > 300 {
			t.Fatal("the loop never ran dry")
		}
	}
	var exc uintptr
	if s := goString(t, JSValueToStringCopy(ctx, eval(t, ctx, `got.join()`), &exc)); s != "echo hi" {
		t.Fatalf("got %q", s)
	}
	if got := ZJSContextRunPendingEvents(0, 0); got != -1 {
		t.Fatalf("NULL context: %d, want -1", got)
	}
}
