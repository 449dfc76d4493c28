package depthguard

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// The realm's checkpoint runs inside long JSON calls, where no guarded function is entered: its Poll every few
// thousand steps, and Run once Want is set — which may stop the script, as core's memory accounting does. Lazily
// (JSON made after Install, the checkpoint kept for it per realm) and eagerly (goja's internals unread).
func TestJSON_RunsTheCheckpoint(t *testing.T) {
	for _, eager := range []bool{false, true} {
		func() {
			if eager {
				defer gojainternal.SimulateChange(errors.New("test"))()
			}
			rt := goja.New()
			polls, runs := 0, 0
			cp := &Checkpoint{}
			cp.Poll = func() {
				if polls++; polls == 5 {
					cp.Want.Store(true)
				}
			}
			cp.Run = func() {
				runs++
				cp.Want.Store(false)
				rt.Interrupt("measured over the budget")
			}
			if err := InstallWithCheckpoint(rt, 1000, cp); err != nil {
				t.Fatal(err)
			}
			_, err := rt.RunString(`var text = "[" + "1,".repeat(100000) + "1]"; JSON.stringify(JSON.parse(text)); globalThis.after = 1`)
			var ie *goja.InterruptedError
			if !errors.As(err, &ie) || ie.Value() != "measured over the budget" {
				t.Fatalf("eager %v: err = %v, want the checkpoint's interruption", eager, err)
			}
			if polls != 5 || runs != 1 || rt.Get("after") != nil {
				t.Fatalf("eager %v: %d polls, %d runs, after = %v", eager, polls, runs, rt.Get("after"))
			}
		}()
	}
}
