package encoding

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind (the package
// starts none; node runs as a child process that must have been waited for).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
