package core

import (
	"runtime"
	"sync"
	"weak"

	"github.com/dop251/goja"
)

// The compiled programs of classic worker scripts, shared by every worker that runs the same text under the same
// name: a program starting many workers of one script (worker_threads' `new Worker(code, { eval: true })`, a pool)
// compiles it once, and its workers hold one program instead of one each (idle_many.js: ~70 µs of the spawning
// thread's time and ~7.5 KiB of garbage per spawn, ~1.5 KiB kept per worker).
//
// A goja.Program is not tied to a runtime and may run in several at once (goja clones what a run could change, the
// regular-expression literals; the source file's line table has its own lock): the Node layer's own scripts are
// shared the same way (jsutil.Source). An entry holds its program weakly, so the cache keeps nothing alive that no
// worker uses: when the last worker of a script has gone, the collector frees the program and a cleanup drops the
// entry. A text that does not compile is not cached; inspectable workers compile their own (inspector.Debugger).

// programKey names a cached program: the script's name (in its stack traces) and its text.
type programKey struct{ name, src string }

var programs struct {
	mu sync.Mutex
	m  map[programKey]weak.Pointer[goja.Program]
}

// compileShared is CompileScript(name, src, false) through the cache.
func compileShared(name, src string) (*goja.Program, error) {
	key := programKey{name, src}
	programs.mu.Lock()
	prg := programs.m[key].Value()
	programs.mu.Unlock()
	if prg != nil {
		return prg, nil
	}
	prg, err := CompileScript(name, src, false)
	if err != nil {
		return nil, err
	}
	programs.mu.Lock()
	defer programs.mu.Unlock()
	if p := programs.m[key].Value(); p != nil { // another spawn compiled it meanwhile: share theirs
		return p, nil
	}
	if programs.m == nil {
		programs.m = make(map[programKey]weak.Pointer[goja.Program])
	}
	programs.m[key] = weak.Make(prg)
	runtime.AddCleanup(prg, dropProgram, key)
	return prg, nil
}

// dropProgram forgets key once its program has been collected (unless a newer one took its place).
func dropProgram(key programKey) {
	programs.mu.Lock()
	defer programs.mu.Unlock()
	if e, ok := programs.m[key]; ok && e.Value() == nil {
		delete(programs.m, key)
	}
}

// cachedProgram reports whether the cache lists the program of name and src (tests).
func cachedProgram(name, src string) bool {
	programs.mu.Lock()
	defer programs.mu.Unlock()
	_, ok := programs.m[programKey{name, src}]
	return ok
}
