package node_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// TestDepthGuard_IdleNodeRealm checks that a Node realm with worker_threads loaded has made none of what the depth
// guard checks lazily (internal/depthguard: JSON, the Array constructor, Array.prototype's join, toString and
// toLocaleString; its RangeError too, but core's setupRealm makes that one for its own errors), and that each is
// guarded once a script first touches it.
func TestDepthGuard_IdleNodeRealm(t *testing.T) {
	const src = `
const { parentPort } = require('worker_threads');
const names = ['JSON', 'Array', 'join', 'toString', 'toLocaleString'];
const before = names.filter(pending);
const got = [];
try { JSON.parse('['.repeat(100001)); got.push('parsed') } catch (e) { got.push(e instanceof RangeError && e.message) }
let a = [];
for (let i = 0; i < 100000; i++) a = [a];
try { a.join(); got.push('joined') } catch (e) { got.push(e instanceof RangeError && e.message) }
console.log(JSON.stringify({ before, got, left: names.filter(pending) }));
`
	code, out, errOut := runProgramOpts(t, src, core.Options{Setup: func(w *core.Worker, rt *goja.Runtime) error {
		return rt.Set("pending", func(name string) bool {
			o := rt.GlobalObject()
			if name == "join" || name == "toString" || name == "toLocaleString" {
				o = rt.NewArray().Prototype()
			}
			return gojainternal.Pending(o, name)
		})
	}})
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	want := `{"before":["JSON","Array","join","toString","toLocaleString"],` +
		`"got":["Maximum call stack size exceeded","Maximum call stack size exceeded"],"left":["Array","toLocaleString"]}` + "\n"
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}
