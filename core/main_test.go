package core

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind: every
// worker must have ended and every channel waiter returned.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
