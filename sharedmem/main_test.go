package sharedmem

import (
	"fmt"
	"os"
	"testing"

	"github.com/jsworker/jsworker/internal/realmdata"
	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind (every loop
// realm must have ended and every waitAsync watcher and timer returned) or
// a realm installed (every test's realm is uninstalled).
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 {
		if n := realmdata.Len(); n != 0 {
			fmt.Fprintf(os.Stderr, "realmdata holds the state of %d runtimes after the tests\n", n)
			code = 1
		}
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}
