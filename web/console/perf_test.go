package console

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestLargeValues prints large arrays, typed arrays, Maps and sparse
// arrays: the output is cut as Node cuts it, and the time is bounded
// (generously: the machine is shared) by more than the shown part's cost
// only because goja lists an array's keys in full.
func TestLargeValues(t *testing.T) {
	rt := goja.New()
	var out []string
	if err := Install(rt, rt.GlobalObject(), Config{Write: func(_ Level, s string) { out = append(out, s) }}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ src, tail string }{
		{"new Array(2e5).fill(0)", "... 199900 more items\n]"},
		{"new Uint8Array(2e5)", "... 199900 more items\n]"},
		{"new Map(Array.from({ length: 1e5 }, (_, i) => [i, i]))", "99 => 99,\n  ... 99900 more items\n}"},
		{"(() => { const a = []; a[1e6] = 1; return a; })()", "[ <1000000 empty items>, 1 ]"},
		{"(() => { const a = [1, 2]; a[5e5] = 3; a.x = 1; return a; })()", "[ 1, 2, <499998 empty items>, 3, x: 1 ]"},
	} {
		if _, err := rt.RunString("var v = (" + c.src + ")"); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, err := rt.RunString("console.log(v)"); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s took %v", c.src, d)
		}
		if got := out[len(out)-1]; !strings.HasSuffix(got, c.tail) {
			t.Errorf("%s printed ...%q, want it to end in %q", c.src, got[max(0, len(got)-80):], c.tail)
		}
	}
}
