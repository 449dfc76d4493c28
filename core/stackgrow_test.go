package core

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// stackProbeEnv makes TestPresizeStack_GrowsTheGoroutineStack measure, in the fresh process it runs itself in.
const stackProbeEnv = "JSWORKER_TEST_STACK_PROBE"

// TestPresizeStack_GrowsTheGoroutineStack: presizeStack leaves the goroutine with the 16 KiB stack a Node-style
// worker's setup needs (if the compiler ever dropped its frame, the stack would stay at Go's 2 KiB and the setup
// would be back to growing it by copying, deep in goja's recursion). The stacks are counted in a fresh process of
// this test binary: in this one, the stacks of the workers earlier tests ended wait in the runtime's caches, and a
// goroutine growing its stack may take one of those without the count moving.
func TestPresizeStack_GrowsTheGoroutineStack(t *testing.T) {
	if os.Getenv(stackProbeEnv) == "1" {
		plain, grown := stackPerGoroutine(false), stackPerGoroutine(true)
		fmt.Printf("stack-probe %d %d\n", int(plain), int(grown))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestPresizeStack_GrowsTheGoroutineStack$", "-test.count", "1")
	cmd.Env = append(os.Environ(), stackProbeEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the probe process: %v\n%s", err, out)
	}
	var plain, grown int
	if _, err := fmt.Sscanf(findLine(string(out), "stack-probe "), "stack-probe %d %d", &plain, &grown); err != nil {
		t.Fatalf("the probe printed no figures (%v):\n%s", err, out)
	}
	t.Logf("stack per goroutine: %.1f KiB plain, %.1f KiB after presizeStack", float64(plain)/1024, float64(grown)/1024)
	if grown-plain < 10<<10 {
		t.Errorf("after presizeStack a goroutine's stack is %.1f KiB (plain %.1f KiB), want 16 KiB", float64(grown)/1024, float64(plain)/1024)
	}
	if grown > 20<<10 {
		t.Errorf("after presizeStack a goroutine's stack is %.1f KiB, want 16 KiB (not the next size up)", float64(grown)/1024)
	}
}

// stackPerGoroutine starts goroutines that park (after presizeStack, with presize) and returns the stack memory
// each added, in bytes. The runtime counts stacks by the span, with what its caches hold: a grown goroutine's first
// stack (2 KiB, 4 under the race detector) may still be counted.
func stackPerGoroutine(presize bool) float64 {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // a collection would shrink the parked goroutines' stacks
	const n = 256
	var ready, done sync.WaitGroup
	release := make(chan struct{})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			if presize {
				presizeStack(i)
			}
			ready.Done()
			<-release
		}()
	}
	ready.Wait()
	runtime.ReadMemStats(&after)
	close(release)
	done.Wait()
	return float64(int64(after.StackInuse)-int64(before.StackInuse)) / n
}

// findLine returns the first line of s that starts with prefix, or "".
func findLine(s, prefix string) string {
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}
