package modules

import (
	"testing"

	"github.com/jsworker/jsworker/internal/leakcheck"
)

// TestMain fails the run if a test leaves a goroutine behind.
func TestMain(m *testing.M) { leakcheck.Main(m) }
