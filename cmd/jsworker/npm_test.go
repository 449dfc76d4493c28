package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRun_NpmWorkerLibraries: the basic documented examples of npm worker libraries run under `jsworker run` from
// a local node_modules and print what node prints. The packages come from the registry through npm: the test is
// skipped with -short, without npm, or when the install fails (no network). threads finds its worker file through
// V8's stack trace API (Error.prepareStackTrace with CallSites), which node/stacktrace.go emulates.
func TestRun_NpmWorkerLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the npm packages come from the registry")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed")
	}
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: cannot compare with Node's output")
	}
	dir := t.TempDir()
	src, _ := filepath.Abs("testdata/npm")
	files, _ := filepath.Glob(filepath.Join(src, "*.js"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), long)
	defer cancel()
	install := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--no-save", "piscina@4", "workerpool@9", "poolifier@4", "threads@1")
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Skipf("npm install failed (offline?): %v\n%s", err, out)
	}
	for _, name := range []string{"piscina.js", "workerpool.js", "poolifier.js", "threads.js"} {
		t.Run(name, func(t *testing.T) {
			prog := filepath.Join(dir, name)
			want, err := exec.Command(nodeBin, prog).Output()
			if err != nil {
				t.Fatalf("node %s: %v", prog, err)
			}
			code, out, errOut := jsworker(t, "run", prog)
			if code != 0 || out != string(want) {
				t.Fatalf("exit %d\n--- jsworker\n%s\n--- node\n%s\n--- stderr\n%s", code, out, want, errOut)
			}
		})
	}
}
