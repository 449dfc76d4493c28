// Package testsupport holds what the project's tests share: the leak check every test binary ends with, and (in
// cdp.go) a Chrome DevTools Protocol test client. It imports nothing of the runtime above sharedmem, so that every
// package's tests — core's internal ones included — can use it.
package testsupport

import (
	"fmt"
	"os"
	"testing"

	"github.com/jsworker/jsworker/sharedmem"
	"go.uber.org/goleak"
)

// A Check reports something a test run left behind, or nil.
type Check func() error

// Main runs the tests of m, then fails the run if it passed but left anything behind: a goroutine (every worker
// must have ended and every waiter returned), a shared-memory token in the registry (every frame carrying a
// SharedArrayBuffer was consumed or released), or whatever one of checks reports. Call it from TestMain.
func Main(m *testing.M, checks ...Check) {
	os.Exit(run(m, checks))
}

func run(m *testing.M, checks []Check) int {
	code := m.Run()
	if code != 0 {
		return code
	}
	all := append([]Check{sharedMemoryTokens}, checks...)
	all = append(all, func() error { return goleak.Find() })
	for _, c := range all {
		if err := c(); err != nil {
			fmt.Fprintf(os.Stderr, "leak check: %v\n", err)
			return 1
		}
	}
	return 0
}

func sharedMemoryTokens() error {
	if n := sharedmem.RegistryLen(); n != 0 {
		return fmt.Errorf("%d shared-memory tokens left in the registry", n)
	}
	return nil
}
