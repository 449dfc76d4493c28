package main

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRun_PoolProgramMatchesNode: a typical worker_threads pool — sized by os.availableParallelism, waiting with
// events.once(worker, 'message'), finding its worker with path.join(__dirname, …), sending Buffers, hashing with
// crypto and checking itself with assert — runs under `jsworker run` and prints what node prints.
func TestRun_PoolProgramMatchesNode(t *testing.T) {
	main, err := filepath.Abs("testdata/pool/main.js")
	if err != nil {
		t.Fatal(err)
	}
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: cannot compare with Node's output")
	}
	want, err := exec.Command(nodeBin, main).Output()
	if err != nil {
		t.Fatalf("node %s: %v", main, err)
	}
	code, out, errOut := jsworker(t, "run", main)
	if code != 0 || out != string(want) {
		t.Fatalf("exit %d\n--- jsworker\n%s\n--- node\n%s\n--- stderr\n%s", code, out, want, errOut)
	}
}
