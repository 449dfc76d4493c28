package core

import (
	"fmt"
	"os"
	"testing"

	"github.com/jsworker/jsworker/sharedmem"
	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind (every worker
// must have ended and every channel waiter returned) or a shared-memory token
// in the registry (every frame carrying a SharedArrayBuffer was consumed or
// released).
func TestMain(m *testing.M) {
	code := m.Run()
	if n := sharedmem.RegistryLen(); code == 0 && n != 0 {
		fmt.Fprintf(os.Stderr, "%d shared-memory tokens left in the registry\n", n)
		code = 1
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	os.Exit(code)
}
