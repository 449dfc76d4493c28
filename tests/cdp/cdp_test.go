// Package cdp holds the real-client test of the DevTools endpoint: chrome-remote-interface (from npm, pinned in
// package-lock.json) debugging `jsworker run --inspect-brk`. The test needs node and npm; without them it skips and
// says so. It installs the client with `npm ci` into tests/cdp/node_modules.
package cdp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestChromeRemoteInterface(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	node, bin := setup(ctx, t)
	run := exec.CommandContext(ctx, node, "inspect_brk.js", bin)
	run.Env = append(os.Environ(), "NODE_OPTIONS=") // no inherited --inspect or loaders
	out, err := run.CombinedOutput()
	t.Logf("node inspect_brk.js:\n%s", out)
	if err != nil {
		t.Fatalf("the chrome-remote-interface session failed: %v", err)
	}
}

var (
	setupOnce sync.Once
	setupBin  string
	setupErr  string
)

// setup finds node and npm (skipping the test without them), installs the
// client exactly as locked, and builds the command under test, once per test
// binary. It returns node's path and the jsworker binary.
func setup(ctx context.Context, t *testing.T) (node, bin string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the real-client tests of the DevTools endpoint need node and npm " +
			"(Debian: apt-get install nodejs npm)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the real-client tests of the DevTools endpoint need it to install " +
			"the client (Debian: apt-get install npm)")
	}
	setupOnce.Do(func() {
		install := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
		install.Dir = "."
		if out, err := install.CombinedOutput(); err != nil {
			setupErr = fmt.Sprintf("npm ci in tests/cdp failed (is the npm registry reachable?): %v\n%s", err, out)
			return
		}
		dir, err := os.MkdirTemp("", "jsworker-cdp-")
		if err != nil {
			setupErr = err.Error()
			return
		}
		setupBin = filepath.Join(dir, "jsworker")
		build := exec.CommandContext(ctx, "go", "build", "-o", setupBin, "../../cmd/jsworker")
		if out, err := build.CombinedOutput(); err != nil {
			setupErr = fmt.Sprintf("go build ./cmd/jsworker: %v\n%s", err, out)
		}
	})
	if setupErr != "" {
		t.Fatal(setupErr)
	}
	return node, setupBin
}
