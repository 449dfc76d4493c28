package core_test

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// TestProcessSetup: the process-wide setup runs for workers without NoProcessSetup, after their own Setup; an error
// ends the worker before its script; nil removes it. AtEnd runs on the worker's thread when it ends.
func TestProcessSetup(t *testing.T) {
	var runs atomic.Int32
	core.SetProcessSetup(func(w *core.Worker, rt *goja.Runtime) error {
		runs.Add(1)
		return rt.Set("fromProcess", "yes")
	})
	defer core.SetProcessSetup(nil)
	host := goja.New()

	var ended atomic.Int32
	w := spawn(t, `postMessage(typeof fromOwn + " " + fromProcess); close()`, core.Options{
		Setup: func(w *core.Worker, rt *goja.Runtime) error {
			w.AtEnd(func() { ended.Add(1) })
			return rt.Set("fromOwn", 1)
		},
	})
	if got := recv(t, w, host).String(); got != "number yes" {
		t.Fatalf("got %q, want both setups' globals", got)
	}
	join(t, w)
	if ended.Load() != 1 {
		t.Fatalf("AtEnd ran %d times, want 1", ended.Load())
	}

	w = spawn(t, `postMessage(typeof fromProcess); close()`, core.Options{NoProcessSetup: true})
	if got := recv(t, w, host).String(); got != "undefined" {
		t.Fatalf("NoProcessSetup: got %q", got)
	}
	join(t, w)
	if runs.Load() != 1 {
		t.Fatalf("the process setup ran %d times, want 1", runs.Load())
	}

	core.SetProcessSetup(func(*core.Worker, *goja.Runtime) error { return errors.New("refused by the host") })
	w, err := core.Spawn(`postMessage("ran")`, core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Release()
	if err := w.Join(long); err == nil || !strings.Contains(err.Error(), "refused by the host") {
		t.Fatalf("Join = %v, want the setup's error", err)
	}
}

// TestConsoleWrite: a ConsoleWrite hook that takes a line keeps it from Stdout; one that declines lets it through.
func TestConsoleWrite(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	var out strings.Builder
	w := spawn(t, `console.log("a %d", 1); console.warn("b"); postMessage(0); close()`, core.Options{
		Stdout: &out, Stderr: &out,
		ConsoleWrite: func(level, line string) bool {
			mu.Lock()
			defer mu.Unlock()
			lines = append(lines, level+":"+line)
			return level == "log"
		},
	})
	recv(t, w, goja.New())
	join(t, w)
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(lines, "|") != "log:a 1|warn:b" || out.String() != "b\n" {
		t.Fatalf("hook saw %q, stdout/stderr got %q", lines, out.String())
	}
}
