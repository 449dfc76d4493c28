package core

import (
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// TestProgramCache_SharedByWorkersOfOneScript: workers spawned at once with the same name and text run one
// program, each in its own realm (a global one sets is not another's), a different text gets its own, a syntax
// error is not kept, and once the workers are gone the collector frees the program and the entry goes.
func TestProgramCache_SharedByWorkersOfOneScript(t *testing.T) {
	const name = "programcache-test.js"
	const src = `var n = 0; onmessage = function (e) { n++; postMessage(n * 100 + e.data); };`
	rt := goja.New()
	ws := make([]*Worker, 8)
	var wg sync.WaitGroup
	errs := make([]error, len(ws))
	for i := range ws {
		wg.Add(1)
		go func() { // spawn concurrently: the cache is shared by every spawning goroutine
			defer wg.Done()
			ws[i], errs[i] = Spawn(src, Options{Filename: name})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Spawn %d: %v", i, err)
		}
	}
	defer func() {
		for _, w := range ws {
			if w != nil {
				w.Release()
			}
		}
	}()
	for i, w := range ws {
		if w.prg != ws[0].prg {
			t.Fatalf("worker %d runs a program of its own; want the one of worker 0", i)
		}
		if err := w.PostMessage(rt, rt.ToValue(i)); err != nil {
			t.Fatalf("PostMessage %d: %v", i, err)
		}
	}
	for i, w := range ws {
		v, err := w.Receive(rt, 20*time.Second)
		if err != nil {
			t.Fatalf("Receive %d: %v", i, err)
		}
		if got := v.ToInteger(); got != int64(100+i) { // n is 1 in every realm
			t.Errorf("worker %d answered %d, want %d", i, got, 100+i)
		}
	}
	other, err := Spawn(src+"\n", Options{Filename: name})
	if err != nil {
		t.Fatal(err)
	}
	if other.prg == ws[0].prg {
		t.Error("a different text shares the program")
	}
	other.Release()
	for range 2 {
		_, err := Spawn("onmessage = (", Options{Filename: name})
		var syn *goja.CompilerSyntaxError
		if !errors.As(err, &syn) {
			t.Fatalf("Spawn of a syntax error = %v, want a *goja.CompilerSyntaxError", err)
		}
	}
	if cachedProgram(name, "onmessage = (") {
		t.Error("a text that does not compile is cached")
	}
	if !cachedProgram(name, src) {
		t.Fatal("the shared program is not listed while its workers live")
	}

	for _, w := range ws {
		w.Release()
	}
	for i := range ws {
		ws[i] = nil
	}
	other = nil
	deadline := time.Now().Add(20 * time.Second)
	for cachedProgram(name, src) || cachedProgram(name, src+"\n") {
		if time.Now().After(deadline) {
			t.Fatal("the programs are still listed after their workers were released and collected")
		}
		runtime.GC() // the cleanup that drops an entry runs after the collection that freed its program
		time.Sleep(time.Millisecond)
	}
}
