package sharedmem

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind: every loop
// realm must have ended and every waitAsync watcher and timer returned.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
