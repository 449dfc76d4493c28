package core

import (
	"fmt"
	"testing"

	"github.com/jsworker/jsworker/internal/testsupport"
)

// TestMain fails the run if any test leaves a goroutine, a shared-memory token, a live worker or a host realm
// behind (every worker released, every host realm closed).
func TestMain(m *testing.M) {
	testsupport.Main(m, func() error {
		if n := len(LiveWorkers()); n != 0 {
			return fmt.Errorf("%d workers still listed in the registry", n)
		}
		if n := len(LiveHostRealms()); n != 0 {
			return fmt.Errorf("%d host realms still listed (not closed)", n)
		}
		return nil
	})
}
