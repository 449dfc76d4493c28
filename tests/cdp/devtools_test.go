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
// DevTools front end debugging `jsworker run --inspect-brk`, a program's
// worker in the same window, and a C host's endpoint (c_host.c), driven by
// keys and clicks, with every command the front end sends recorded (none may
// be answered -32601). Screenshots and the command list land in
// build/devtools. Without Chromium the test skips and says so; without a C
// compiler the C host part is skipped and the log says so.
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
	args := []string{"devtools_browser.js", bin, chromium}
	if host := cHost(ctx, t); host != "" {
		args = append(args, host)
	}
	run := exec.CommandContext(ctx, node, args...)
	run.Env = append(os.Environ(), "NODE_OPTIONS=", "SHOTS="+shots)
	began := time.Now()
	out, err := run.CombinedOutput()
	t.Logf("node devtools_browser.js (%v):\n%s", time.Since(began).Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("the DevTools front end session failed: %v (screenshots in %s)", err, shots)
	}
}

// cHost builds c_host.c against a libjsworker.so built from this tree, or
// returns "" (and logs why) when there is no C compiler.
func cHost(ctx context.Context, t *testing.T) string {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Log("no C compiler (cc): the C host part of the real-browser test is skipped")
		return ""
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "libjsworker.so")
	build := exec.CommandContext(ctx, "go", "build", "-buildmode=c-shared", "-o", lib, "../../cmd/libbuild")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=c-shared: %v\n%s", err, out)
	}
	host := filepath.Join(dir, "c_host")
	compile := exec.CommandContext(ctx, cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", "../../include", filepath.Join("testdata", "c_host.c"),
		"-o", host, lib, "-Wl,-rpath,"+dir)
	if out, err := compile.CombinedOutput(); err != nil {
		t.Fatalf("cc c_host.c: %v\n%s", err, out)
	}
	return host
}
