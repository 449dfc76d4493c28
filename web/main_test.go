package web

import (
	"testing"

	"github.com/jsworker/jsworker/internal/testsupport"
)

// TestMain fails the run if a test leaves a goroutine or a shared-memory token behind.
func TestMain(m *testing.M) { testsupport.Main(m) }
