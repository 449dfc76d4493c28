package sharedmem

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// If internal/gojainternal cannot read goja's typed arrays, Install refuses
// with its error: Atomics never reads memory through a guessed layout.
func TestInstallFailsClosed(t *testing.T) {
	defer gojainternal.SimulateChange(errors.New("test: simulated goja upgrade"))()
	rt := goja.New()
	err := Install(rt, RealmOptions{})
	if err == nil || !strings.Contains(err.Error(), "goja's internals changed") {
		t.Fatalf("Install = %v, want the gojainternal error", err)
	}
	if v := rt.Get("Atomics"); v != nil {
		t.Fatal("Atomics installed")
	}
}
