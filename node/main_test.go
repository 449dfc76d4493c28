package node_test

import (
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/testsupport"
	"github.com/jsworker/jsworker/node"
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

// waitProgram waits for p, whose output goes to out and errOut, and returns its exit code and output. It fails the
// test, naming what, if the program does not end in time.
func waitProgram(t testing.TB, p *node.Program, what string, out, errOut *testsupport.SyncBuffer) (int, string, string) {
	t.Helper()
	done := make(chan int, 1)
	go func() { done <- p.Wait() }()
	select {
	case code := <-done:
		return code, out.String(), errOut.String()
	case <-time.After(60 * time.Second):
		p.Worker().Terminate()
		<-done
		t.Fatalf("%s did not end; stdout %q stderr %q", what, out.String(), errOut.String())
	}
	return 0, "", ""
}
