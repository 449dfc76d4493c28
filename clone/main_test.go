package clone_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind (hammer_test.go
// starts some).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
