package core_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// A worker whose task runs past Options.ExecutionTimeLimit ends with an ErrorTimeLimit record and Join returns
// ErrTimeLimit, whether the task is its script, a message delivery or a timer callback; tasks shorter than the limit
// run as usual before.
func TestWorker_ExecutionTimeLimit(t *testing.T) {
	const limit = 100 * time.Millisecond
	cases := map[string]string{
		"script":  `for (;;) {}`,
		"message": `onmessage = function (e) { if (e.data === 'spin') for (;;) {} ; postMessage(e.data) }`,
		"timer":   `var n = 0; var id = setInterval(function () { if (++n === 3) for (;;) {} }, 1)`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var recs []core.ErrorRecord
			w, err := core.Spawn(src, core.Options{ExecutionTimeLimit: limit, OnError: func(r core.ErrorRecord) {
				mu.Lock()
				recs = append(recs, r)
				mu.Unlock()
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Release()
			rt := goja.New()
			if name == "message" {
				for i := 0; i < 3; i++ { // three short tasks live
					if err := w.PostMessage(rt, rt.ToValue(i)); err != nil {
						t.Fatal(err)
					}
					if v, err := w.Receive(rt, 10*time.Second); err != nil || v.ToInteger() != int64(i) {
						t.Fatalf("reply %d = %v, %v", i, v, err)
					}
				}
				if err := w.PostMessage(rt, rt.ToValue("spin")); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			if err := w.Join(limit + 10*time.Second); !errors.Is(err, core.ErrTimeLimit) {
				t.Fatalf("Join = %v, want ErrTimeLimit", err)
			}
			t.Logf("ended %v after the limit's start", time.Since(start))
			mu.Lock()
			defer mu.Unlock()
			if len(recs) != 1 || recs[0].Kind != core.ErrorTimeLimit || recs[0].WorkerID != w.ID() {
				t.Fatalf("records = %+v", recs)
			}
		})
	}
}

// Tasks that stay under the limit never trip it, however many there are.
func TestWorker_ExecutionTimeLimitNotTripped(t *testing.T) {
	w, err := core.Spawn(`onmessage = function (e) { var t = Date.now(); while (Date.now() - t < 5); postMessage(e.data) }`,
		core.Options{ExecutionTimeLimit: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	rt := goja.New()
	for i := 0; i < 100; i++ {
		if err := w.PostMessage(rt, rt.ToValue(i)); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Receive(rt, 10*time.Second); err != nil {
			t.Fatalf("reply %d: %v", i, err)
		}
	}
	w.Close()
	if err := w.Join(10 * time.Second); err != nil {
		t.Fatalf("Join = %v", err)
	}
}

// Terminate from another goroutine stops a worker promptly wherever its script spins: measured from Terminate to the
// end of the worker.
func TestWorker_TerminatePrompt(t *testing.T) {
	cases := map[string]string{
		"loop":            `started(); for (;;) {}`,
		"Atomics.wait":    `var ia = new Int32Array(new SharedArrayBuffer(4)); started(); Atomics.wait(ia, 0, 0)`,
		"slow comparator": `var a = []; for (var i = 0; i < 1e5; i++) a.push(i); started(); a.sort(function (x, y) { for (var j = 0; j < 1e4; j++); return y - x })`,
		"regexp":          `started(); /(a+)+(?=$)/.test("a".repeat(40) + "b")`,
		"JSON.parse":      `var s = '[' + '{"a":[1,2,3],"b":"xyz"},'.repeat(5e3) + '0]'; started(); for (;;) JSON.parse(s)`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			started := make(chan struct{})
			var once sync.Once
			w, err := core.Spawn(src, core.Options{Setup: func(w *core.Worker, rt *goja.Runtime) error {
				return rt.Set("started", func() { once.Do(func() { close(started) }) })
			}})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Release()
			select {
			case <-started:
			case <-time.After(30 * time.Second):
				t.Fatal("the script never started")
			}
			at := time.Now()
			w.Terminate()
			if err := w.Join(stopBound); err != nil {
				t.Fatalf("Join = %v", err)
			}
			t.Logf("%s: ended %v after Terminate", name, time.Since(at))
		})
	}
}
