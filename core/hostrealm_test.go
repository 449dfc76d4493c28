package core_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
)

// A host realm creates a web Worker and gets its reply by running its
// loop; the worker's uncaught error is an ErrorEvent; terminate() ends it
// and the loop runs dry.
func TestHostLoop_WebWorkerThroughRunPending(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "double.js")
	src := `importScripts('helper.js');
onmessage = function (e) { if (e.data === 'throw') throw new RangeError('bad input'); postMessage(double(e.data)); };`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "helper.js"), []byte(`function double(x) { return 2 * x; }`), 0o644); err != nil {
		t.Fatal(err)
	}
	var errOut testsupport.SyncBuffer
	rt, err := core.NewHostRealm(core.HostRealmOptions{Stderr: &errOut})
	if err != nil {
		t.Fatal(err)
	}
	loop := core.HostLoopOf(rt)
	defer loop.Close()
	if loop.Alive() {
		t.Fatal("a fresh host loop is alive")
	}
	rt.Set("file", file)
	if _, err := rt.RunString(`
		var log = [];
		var w = new Worker(file, { name: 'doubler' });
		w.onmessage = function (e) { log.push('message ' + e.data); if (e.data === 42) w.postMessage('throw'); };
		w.addEventListener('error', function (e) { log.push('error ' + e.message + ' ' + e.lineno); w.terminate(); });
		w.postMessage(21);`); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for loop.RunPending(time.Second) {
		if time.Now().After(deadline) {
			t.Fatal("the loop never ran dry")
		}
	}
	got := rt.Get("log").String()
	if got != "message 42,error Uncaught RangeError: bad input 2" {
		t.Fatalf("log = %q, stderr %q", got, errOut.String())
	}
	if loop.RunPending(0) {
		t.Fatal("still alive after the worker ended")
	}
}

// MessageChannel between a host realm and a worker created from Go: the
// port travels in PostMessage's transfer list; the host reads its end
// through its loop.
func TestHostLoop_PortToACoreWorker(t *testing.T) {
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	loop := core.HostLoopOf(rt)
	defer loop.Close()
	w := spawn(t, `onmessage = function (e) { var p = e.data; p.onmessage = function (m) { p.postMessage(m.data + '!'); p.close(); }; };`, core.Options{})
	v, err := rt.RunString(`var ch = new MessageChannel(); var got = [];
		ch.port1.onmessage = function (e) { got.push(e.data); };
		ch.port1.onclose = function () { got.push('closed'); };
		ch.port1.postMessage('hi'); ch.port2`)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.PostMessage(rt, v, v); err != nil {
		t.Fatal(err)
	}
	for i := 0; loop.RunPending(time.Second); i++ {
		if i > 30 {
			t.Fatal("the loop never ran dry")
		}
	}
	if got := rt.Get("got").String(); got != "hi!,closed" {
		t.Fatalf("got %q", got)
	}
	if v, _ := rt.RunString(`typeof Worker + typeof BroadcastChannel + typeof MessagePort`); !strings.HasPrefix(v.String(), "functionfunctionfunction") {
		t.Fatalf("globals: %v", v)
	}
}

// TestHostLoop_Timers: a host realm's timers fire only in RunPending, in
// deadline order with immediates first; an interval repeats until cleared;
// a pending timer keeps the loop alive; a throwing callback is reported and
// the next one runs.
func TestHostLoop_Timers(t *testing.T) {
	var errOut testsupport.SyncBuffer
	rt, err := core.NewHostRealm(core.HostRealmOptions{Stderr: &errOut})
	if err != nil {
		t.Fatal(err)
	}
	loop := core.HostLoopOf(rt)
	defer loop.Close()
	if _, err := rt.RunString(`
		var log = [];
		setTimeout(function (a) { log.push("t300:" + a); }, 300, "x");
		setTimeout(function () { log.push("t0"); }, 0);
		setImmediate(function () { log.push("imm"); });
		var gone = setTimeout(function () { log.push("cleared"); }, 1);
		clearTimeout(gone);
		setTimeout(function () { throw new Error("timer boom"); }, 5);
		var n = 0, iv = setInterval(function () { if (++n === 3) { clearInterval(iv); log.push("iv3"); } }, 2);
	`); err != nil {
		t.Fatal(err)
	}
	if got := rt.Get("log").String(); got != "" {
		t.Fatalf("a timer fired before the host ran the loop: %s", got)
	}
	if !loop.Alive() {
		t.Fatal("pending timers do not keep the loop alive")
	}
	deadline := time.Now().Add(20 * time.Second)
	for loop.RunPending(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the loop never ran dry: %v", rt.Get("log"))
		}
	}
	log := rt.Get("log").String()
	if !strings.HasPrefix(log, "imm,t0,") || !strings.Contains(log, "iv3") || !strings.HasSuffix(log, "t300:x") ||
		strings.Contains(log, "cleared") {
		t.Fatalf("log = %s", log)
	}
	if !strings.Contains(errOut.String(), "timer boom") {
		t.Fatalf("the throwing timer was not reported: %q", errOut.String())
	}
	if loop.Alive() || loop.RunPending(0) {
		t.Fatal("the loop is still alive after every timer ran")
	}
}
