package core_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/sharedmem"
)

// hostRealm returns a host realm whose Atomics.wait is allowed.
func hostRealm(t *testing.T) *goja.Runtime {
	t.Helper()
	rt, err := core.NewHostRealm(core.HostRealmOptions{AllowAtomicsWait: true})
	if err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestSharedMemory_FourWorkersAddToOneCounter(t *testing.T) {
	adds := 1_000_000
	if testing.Short() {
		adds = 20_000
	}
	rt := hostRealm(t)
	sab, err := rt.RunString(`new SharedArrayBuffer(8)`)
	if err != nil {
		t.Fatal(err)
	}
	src := `onmessage = function (e) {
		var ia = new Int32Array(e.data.sab);
		for (var i = 0; i < e.data.n; i++) Atomics.add(ia, 0, 1);
		postMessage("done");
	};`
	var ws []*core.Worker
	for range 4 {
		w := spawn(t, src, core.Options{})
		msg := rt.NewObject()
		msg.Set("sab", sab)
		msg.Set("n", adds)
		if err := w.PostMessage(rt, msg); err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	for _, w := range ws {
		if v := recv(t, w, rt); v.String() != "done" {
			t.Fatalf("got %v", v)
		}
	}
	rt.Set("sab", sab)
	if v, _ := rt.RunString(`Atomics.load(new Int32Array(sab), 0)`); v.ToInteger() != int64(4*adds) {
		t.Fatalf("counter = %v, want %d", v, 4*adds)
	}
	for _, w := range ws {
		w.Release()
	}
	if n := sharedmem.RegistryLen(); n != 0 {
		t.Fatalf("%d shared-memory tokens left in the registry", n)
	}
}

func TestSharedMemory_WaitNotifyPingPongBetweenWorkers(t *testing.T) {
	rounds := 10_000
	if testing.Short() {
		rounds = 1_000
	}
	rt := hostRealm(t)
	sab, _ := rt.RunString(`new SharedArrayBuffer(8)`)
	// Cell 0 holds whose turn it is: 0 = ping, 1 = pong.
	src := `onmessage = function (e) {
		var ia = new Int32Array(e.data.sab), me = e.data.me, other = 1 - me;
		for (var i = 0; i < e.data.rounds; i++) {
			while (Atomics.load(ia, 0) !== me) Atomics.wait(ia, 0, other, 10000);
			Atomics.store(ia, 0, other);
			Atomics.notify(ia, 0, 1);
		}
		postMessage("done " + me);
	};`
	var ws []*core.Worker
	for me := range 2 {
		w := spawn(t, src, core.Options{})
		msg := rt.NewObject()
		msg.Set("sab", sab)
		msg.Set("me", me)
		msg.Set("rounds", rounds)
		if err := w.PostMessage(rt, msg); err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	for me, w := range ws {
		if v := recv(t, w, rt).String(); v != "done "+string(rune('0'+me)) {
			t.Fatalf("got %q", v)
		}
	}
}

func TestSharedMemory_TerminateWakesAtomicsWait(t *testing.T) {
	rt := hostRealm(t)
	w := spawn(t, `onmessage = function (e) {
		postMessage("waiting");
		Atomics.wait(new Int32Array(e.data), 0, 0); // no timeout
		postMessage("woke?!");
	};`, core.Options{})
	sab, _ := rt.RunString(`new SharedArrayBuffer(4)`)
	if err := w.PostMessage(rt, sab); err != nil {
		t.Fatal(err)
	}
	if v := recv(t, w, rt).String(); v != "waiting" {
		t.Fatalf("got %q", v)
	}
	start := time.Now()
	w.Terminate()
	join(t, w)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("terminate took %v", d)
	}
	if v, err := w.Receive(rt, 0); err == nil {
		t.Fatalf("the worker ran on after terminate: %v", v)
	}
}

func TestSharedMemory_HostRealmMayRefuseToBlock(t *testing.T) {
	rt, err := core.NewHostRealm(core.HostRealmOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rt.RunString(`Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 0)`)
	if err == nil || !strings.Contains(err.Error(), "TypeError") {
		t.Fatalf("wait in a non-blocking host realm: %v", err)
	}
}

func TestSharedMemory_WaitAsyncSettlesThroughTheLoop(t *testing.T) {
	rt := hostRealm(t)
	w := spawn(t, `onmessage = function (e) {
		var ia = new Int32Array(e.data);
		var r = Atomics.waitAsync(ia, 0, 0, 5000);
		if (!r.async) { postMessage("sync " + r.value); return; }
		r.value.then(function (v) { postMessage("async " + v); });
		postMessage("armed");
	};`, core.Options{})
	sab, _ := rt.RunString(`new SharedArrayBuffer(4)`)
	if err := w.PostMessage(rt, sab); err != nil {
		t.Fatal(err)
	}
	if v := recv(t, w, rt).String(); v != "armed" {
		t.Fatalf("got %q", v)
	}
	rt.Set("sab", sab)
	if _, err := rt.RunString(`var ia = new Int32Array(sab); Atomics.store(ia, 0, 1); Atomics.notify(ia, 0)`); err != nil {
		t.Fatal(err)
	}
	if v := recv(t, w, rt).String(); v != "async ok" {
		t.Fatalf("got %q", v)
	}
}
