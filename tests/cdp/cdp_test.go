// Package cdp holds the real-client test of the DevTools endpoint: chrome-remote-interface (from npm, pinned in
// package-lock.json) debugging `jsworker run --inspect-brk`. The test needs node and npm; without them it skips and
// says so. It installs the client with `npm ci` into tests/cdp/node_modules.
package cdp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestChromeRemoteInterface(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the chrome-remote-interface test of the DevTools endpoint needs node and npm " +
			"(Debian: apt-get install nodejs npm)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the chrome-remote-interface test of the DevTools endpoint needs it to install " +
			"the client (Debian: apt-get install npm)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// The client, exactly as locked.
	install := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	install.Dir = "."
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in tests/cdp failed (is the npm registry reachable?): %v\n%s", err, out)
	}

	// The command under test.
	bin := filepath.Join(t.TempDir(), "jsworker")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "../../cmd/jsworker")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/jsworker: %v\n%s", err, out)
	}

	run := exec.CommandContext(ctx, node, "inspect_brk.js", bin)
	run.Env = append(os.Environ(), "NODE_OPTIONS=") // no inherited --inspect or loaders
	out, err := run.CombinedOutput()
	t.Logf("node inspect_brk.js:\n%s", out)
	if err != nil {
		t.Fatalf("the chrome-remote-interface session failed: %v", err)
	}
}
