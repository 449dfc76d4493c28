package node_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// TestTimers_MadeOnFirstTouch checks that a Node realm's timers are made when a script first touches each one
// (node/timers.go), and are then Node's: an idle realm has made none of them, process.nextTick's microtask does
// not make the global queueMicrotask, and each global, once touched, is Node's version with its name.
func TestTimers_MadeOnFirstTouch(t *testing.T) {
	const src = `
const names = ['setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask'];
const before = names.filter(pending);
process.nextTick(() => {
	const afterTick = names.filter(pending);
	const t = setTimeout(() => {}, 10);
	const afterTimeout = names.filter(pending);
	t.close();
	const r = [typeof t.ref, t.hasRef(), setTimeout.name, Object.getOwnPropertyDescriptor(globalThis, 'setTimeout').enumerable];
	queueMicrotask(() => console.log(JSON.stringify({ before, afterTick, afterTimeout, r, left: names.filter(pending) })));
});
`
	code, out, errOut := runProgramOpts(t, src, core.Options{Setup: func(w *core.Worker, rt *goja.Runtime) error {
		return rt.Set("pending", func(name string) bool { return gojainternal.Pending(rt.GlobalObject(), name) })
	}})
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	want := `{"before":["setTimeout","setInterval","setImmediate","queueMicrotask"],` +
		`"afterTick":["setTimeout","setInterval","setImmediate","queueMicrotask"],` +
		`"afterTimeout":["setInterval","setImmediate","queueMicrotask"],` +
		`"r":["function",true,"setTimeout",true],"left":["setInterval","setImmediate"]}` + "\n"
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}

// TestSymbol_MadeOnFirstTouch checks that an idle Node realm (ports.js, worker_threads and the timers loaded) has
// not made the global Symbol constructor, and that when a script makes it, it has Symbol.asyncIterator as before
// (web.installAsyncIterator): a symbol, non-writable, non-enumerable, non-configurable, one per realm.
func TestSymbol_MadeOnFirstTouch(t *testing.T) {
	const src = `
const { parentPort } = require('worker_threads');
const before = pending('Symbol');
const d = Object.getOwnPropertyDescriptor(Symbol, 'asyncIterator');
const it = { [Symbol.asyncIterator]() { return 'it'; } };
(async () => {
	const got = [it[d.value](), d.value === Symbol.asyncIterator];
	console.log(JSON.stringify({ before, after: pending('Symbol'), type: typeof d.value, s: String(d.value),
		attrs: [d.writable, d.enumerable, d.configurable], got, share: typeof require('worker_threads').SHARE_ENV }));
})();
`
	code, out, errOut := runProgramOpts(t, src, core.Options{Setup: func(w *core.Worker, rt *goja.Runtime) error {
		return rt.Set("pending", func(name string) bool { return gojainternal.Pending(rt.GlobalObject(), name) })
	}})
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	want := `{"before":true,"after":false,"type":"symbol","s":"Symbol(Symbol.asyncIterator)",` +
		`"attrs":[false,false,false],"got":["it",true],"share":"symbol"}` + "\n"
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}
