package inspector

import (
	"fmt"
	"testing"

	"github.com/jsworker/jsworker/internal/leakcheck"
)

// TestMain fails the run if a test leaves a goroutine behind (every test target's loop must have ended) or a
// realm's captured builtins behind (every session must have been closed or seen its target end).
func TestMain(m *testing.M) {
	leakcheck.Main(m, func() error {
		if n := toolsHeld(); n != 0 {
			return fmt.Errorf("inspector: %d realm(s) still have captured builtins: a session was not closed", n)
		}
		return nil
	})
}
