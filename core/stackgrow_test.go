package core

import (
	"runtime"
	"sync"
	"testing"
)

// TestPresizeStack_GrowsTheGoroutineStack: presizeStack leaves the goroutine with the 16 KiB stack a Node-style
// worker's setup needs (if the compiler ever dropped its frame, the stack would stay at Go's 2 KiB and the setup
// would be back to growing it by copying, deep in goja's recursion).
func TestPresizeStack_GrowsTheGoroutineStack(t *testing.T) {
	const n = 64
	perGoroutine := func(presize bool) float64 {
		var ready sync.WaitGroup
		release := make(chan struct{})
		var done sync.WaitGroup
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
	plain, grown := perGoroutine(false), perGoroutine(true)
	t.Logf("stack per goroutine: %.1f KiB plain, %.1f KiB after presizeStack", plain/1024, grown/1024)
	// StackInuse counts stack spans, with what the per-P caches hold: a grown goroutine's first stack (2 KiB, 4
	// under the race detector) may still be counted. So: at least 10 KiB more than a plain goroutine.
	if grown-plain < 10<<10 {
		t.Fatalf("after presizeStack a goroutine's stack is %.1f KiB (plain %.1f KiB), want 16 KiB", grown/1024, plain/1024)
	}
	if grown > 20<<10 {
		t.Fatalf("after presizeStack a goroutine's stack is %.1f KiB, want 16 KiB (not the next size up)", grown/1024)
	}
}
