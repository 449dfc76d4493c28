package core

import (
	"testing"

	"github.com/jsworker/jsworker/internal/testsupport"
)

// TestMain fails the run if any test leaves a goroutine, a shared-memory token or a worker behind.
func TestMain(m *testing.M) { testsupport.Main(m) }
