package cdp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestDevToolsFrontEnd runs devtools_browser.js: headless Chromium's own
// DevTools front end debugging `jsworker run --inspect-brk`, driven by keys
// and clicks, with every command the front end sends recorded (none may be
// answered -32601). Screenshots and the command list land in build/devtools.
// Without Chromium the test skips and says so.
func TestDevToolsFrontEnd(t *testing.T) {
	chromium := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			chromium = p
			break
		}
	}
	if chromium == "" {
		t.Skip("Chromium is not installed: the real-browser test of Chrome's DevTools front end is skipped " +
			"(Debian: apt-get install chromium; `make deps` installs it as root)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	node, bin := setup(ctx, t)
	shots, err := filepath.Abs(filepath.Join("..", "..", "build", "devtools"))
	if err != nil {
		t.Fatal(err)
	}
	run := exec.CommandContext(ctx, node, "devtools_browser.js", bin, chromium)
	run.Env = append(os.Environ(), "NODE_OPTIONS=", "SHOTS="+shots)
	began := time.Now()
	out, err := run.CombinedOutput()
	t.Logf("node devtools_browser.js (%v):\n%s", time.Since(began).Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("the DevTools front end session failed: %v (screenshots in %s)", err, shots)
	}
}
