package node_test

import (
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
)

func TestMain(m *testing.M) { testsupport.Main(m) }

// long bounds every wait in these tests; none of them should come close.
const long = 20 * time.Second

func spawn(t *testing.T, src string, opts core.Options) *core.Worker {
	t.Helper()
	w, err := core.Spawn(src, opts)
	if err != nil {
		t.Fatalf("Spawn: %v", err)
	}
	t.Cleanup(w.Release)
	return w
}

func recv(t *testing.T, w *core.Worker, rt *goja.Runtime) goja.Value {
	t.Helper()
	v, err := w.Receive(rt, long)
	if err != nil {
		t.Fatalf("Receive: %v", err)
	}
	return v
}
