package clone_test

import (
	"testing"

	"github.com/jsworker/jsworker/internal/testsupport"
)

// TestMain checks that no test leaves a goroutine behind (hammer_test.go starts some) or a shared-memory token in
// the registry.
func TestMain(m *testing.M) { testsupport.Main(m) }
