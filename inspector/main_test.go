package inspector

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if a test leaves a goroutine behind (every test
// target's loop must have ended) or a realm's captured builtins behind (every
// session must have been closed or seen its target end).
func TestMain(m *testing.M) {
	code := m.Run()
	if n := toolsHeld(); n != 0 && code == 0 {
		fmt.Fprintf(os.Stderr, "inspector: %d realm(s) still have captured builtins: a session was not closed\n", n)
		code = 1
	}
	if err := goleak.Find(); err != nil && code == 0 {
		fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
		code = 1
	}
	os.Exit(code)
}
