// Package testsupport holds what the project's tests share: the leak check every test binary ends with, a Chrome
// DevTools Protocol test client (cdp.go), a buffer workers may write while a test reads it, and LibraryState, which
// lists what a script can reach of the library. It imports nothing of the runtime above sharedmem, so that every
// package's tests above sharedmem — core's internal ones included — can use it; sharedmem's own tests use
// internal/leakcheck.
package testsupport

import (
	"fmt"
	"testing"

	"github.com/jsworker/jsworker/internal/leakcheck"
	"github.com/jsworker/jsworker/sharedmem"
)

// Main runs the tests of m, then fails the run if it passed but left anything behind: a goroutine (every worker
// must have ended and every waiter returned), a shared-memory token in the registry (every frame carrying a
// SharedArrayBuffer was consumed or released), or whatever one of checks reports. Call it from TestMain.
func Main(m *testing.M, checks ...leakcheck.Check) {
	leakcheck.Main(m, append([]leakcheck.Check{SharedMemoryTokens}, checks...)...)
}

// SharedMemoryTokens reports tokens left in sharedmem's registry.
func SharedMemoryTokens() error {
	if n := sharedmem.RegistryLen(); n != 0 {
		return fmt.Errorf("%d shared-memory tokens left in the registry", n)
	}
	return nil
}
