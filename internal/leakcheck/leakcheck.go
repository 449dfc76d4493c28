// Package leakcheck ends a test binary by checking that its tests left nothing behind: no goroutine (goleak), and
// nothing that one of the package's own checks reports (a registry that should be empty, a realm still installed).
// It imports nothing of the project, so every package's tests can use it, the lowest layers' internal tests
// included; internal/testsupport.Main adds the checks of the runtime above (shared-memory tokens).
package leakcheck

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// ignored are the goroutines that are not leaks: regexp2's shared clock, which its match timeouts (core's
// RegexpMatchTimeout) start once per process and which stops by itself when no match has run for a while.
var ignored = []goleak.Option{goleak.IgnoreAnyFunction("github.com/dlclark/regexp2/v2.runClock")}

// A Check reports something a test run left behind, or nil.
type Check func() error

// Main runs the tests of m, then fails the run if they passed but a check reports something, or a goroutine is
// left. Call it from TestMain; it does not return.
func Main(m *testing.M, checks ...Check) {
	code := m.Run()
	if code == 0 {
		checks = append(checks, func() error { return goleak.Find(ignored...) })
		for _, c := range checks {
			if err := c(); err != nil {
				fmt.Fprintf(os.Stderr, "leak check: %v\n", err)
				code = 1
				break
			}
		}
	}
	os.Exit(code)
}
