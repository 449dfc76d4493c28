package console

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind (the
// interrupt tests run scripts on their own goroutines).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
