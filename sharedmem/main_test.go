package sharedmem

import (
	"fmt"
	"testing"

	"github.com/jsworker/jsworker/internal/leakcheck"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// TestMain fails the run if any test leaves a goroutine behind (every loop realm must have ended and every
// waitAsync watcher and timer returned) or a realm installed (every test's realm is uninstalled).
func TestMain(m *testing.M) {
	leakcheck.Main(m, func() error {
		if n := realmdata.Len(); n != 0 {
			return fmt.Errorf("realmdata holds the state of %d runtimes after the tests", n)
		}
		return nil
	})
}
