package console

import (
	"runtime"
	"testing"

	"github.com/dop251/goja"
)

// TestConsoleObjectBehavesAsPlain checks that the console, whose methods are made on first read, looks like the
// plain object it replaced: data descriptors, key order, identity of a method across reads, assignment, deletion,
// the prototype's methods, and calls through a detached method.
func TestConsoleObjectBehavesAsPlain(t *testing.T) {
	rt := goja.New()
	var lines []string
	if err := Install(rt, rt.GlobalObject(), Config{Write: func(_ Level, s string) { lines = append(lines, s) }}); err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunString(`
		const out = [];
		const d = Object.getOwnPropertyDescriptor(console, 'warn');
		out.push(typeof d.value, d.writable, d.enumerable, d.configurable, d.value.name, d.value.length);
		out.push(console.log === console.log, 'log' in console, console.hasOwnProperty('table'), 'nope' in console);
		out.push(Object.keys(console).slice(0, 3).join('/'), Object.keys(console).length);
		out.push(typeof console.toString, String(console), Object.getPrototypeOf(console) === Object.prototype);
		const log = console.log; log('detached', 1);
		console.extra = 5; out.push(Object.keys(console).pop(), console.extra);
		delete console.info; out.push('info' in console, Object.keys(console).length, console.info);
		console.log = function () { return 'mine'; }; out.push(console.log(), Object.keys(console)[0]);
		out.join()`)
	if err != nil {
		t.Fatal(err)
	}
	want := "function,true,true,true,warn,0,true,true,true,false,log/info/debug,22,function,[object Object],true," +
		"extra,5,false,22,,mine,log"
	if v.String() != want {
		t.Errorf("console object:\n got %s\nwant %s", v, want)
	}
	if len(lines) != 1 || lines[0] != "detached 1" {
		t.Errorf("printed %q", lines)
	}
}

// TestConsoleCostsLittleUntilUsed checks what the lazy methods are for: an installed, never-used console costs
// far less than its 22 function objects (about 19 KiB); reading every method makes them.
func TestConsoleCostsLittleUntilUsed(t *testing.T) {
	const n = 200
	rts := make([]*goja.Runtime, n)
	for i := range rts {
		rts[i] = goja.New()
		rts[i].GlobalObject() // the runtime's own start, not the console's
	}
	before := heapInUse()
	for _, rt := range rts {
		if err := Install(rt, rt.GlobalObject(), Config{}); err != nil {
			t.Fatal(err)
		}
	}
	idle := (heapInUse() - before) / n
	for _, rt := range rts {
		if _, err := rt.RunString(`for (const k of Object.keys(console)) console[k].name`); err != nil {
			t.Fatal(err)
		}
	}
	used := (heapInUse() - before) / n
	runtime.KeepAlive(rts)
	t.Logf("console per realm: %d B installed, %d B with every method read", idle, used)
	if idle > 4096 || used < 4*idle {
		t.Errorf("console per realm: %d B installed, %d B used; want installed ≤ 4 KiB and far below used", idle, used)
	}
}

func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
