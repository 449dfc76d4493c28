package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestEventLoopOrder_MatchesNode runs each program of testdata/order under node and under jsworker and compares
// their output: process.nextTick before promise jobs, Node's phase order (timers, poll, check) in the main thread
// and in workers, inside message listeners, immediates and timers.
func TestEventLoopOrder_MatchesNode(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "order", "*.js"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no order programs: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			abs, err := filepath.Abs(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := exec.Command(nodeBin, abs).CombinedOutput()
			if err != nil {
				t.Fatalf("node %s: %v\n%s", f, err, want)
			}
			code, out, errOut := jsworker(t, abs)
			if code != 0 || errOut != "" {
				t.Fatalf("jsworker %s: exit %d\n%s%s", f, code, out, errOut)
			}
			if out != string(want) {
				t.Errorf("jsworker %s:\n%s\nnode:\n%s", f, out, want)
			}
		})
	}
}
