// Command idlesplit writes an exact heap profile (every allocation sampled) of N idle Node-style workers, the way
// TestIdleWorkers_Budget holds them, with the parent's side marked: what the parent allocates while it makes the
// Worker objects runs under main.parentSide, so that the worker's realm and the parent's Worker objects can be told
// apart (docs/benchmarks.md, h19):
//
//	go run ./bench/idlesplit -heap build/split.pprof 500
//	go tool pprof -sample_index=inuse_space -focus 'main.parentSide|Child..drain' -ignore 'core.SpawnFile' -top build/split.pprof
//
// core.SpawnFile (the child's runtime and worker, made on the parent's thread) belongs to the worker's side. It
// prints the live heap per worker, as the test does.
package main

import (
	_ "embed"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/node"
)

//go:embed idle.js
var program string

// parentSide calls fn; its frame marks what the parent allocates in the profile.
//
//go:noinline
func parentSide(fn goja.Callable) goja.Value {
	v, err := fn(goja.Undefined())
	if err != nil {
		panic(err)
	}
	return v
}

func liveHeap() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc)
}

func main() {
	heap := flag.String("heap", "split.pprof", "write the heap profile here")
	flag.Parse()
	n := 500
	if flag.NArg() > 0 {
		if v, err := strconv.Atoi(flag.Arg(0)); err == nil && v > 0 {
			n = v
		}
	}
	runtime.MemProfileRate = 1
	setup := func(w *core.Worker, rt *goja.Runtime) error {
		_ = rt.Set("__parent", func(c goja.FunctionCall) goja.Value {
			fn, _ := goja.AssertFunction(c.Argument(0))
			return parentSide(fn)
		})
		_ = rt.Set("__live", liveHeap)
		_ = rt.Set("__heap", func() float64 {
			live := liveHeap()
			f, err := os.Create(*heap)
			if err != nil {
				panic(rt.NewGoError(err))
			}
			defer f.Close()
			if err := pprof.WriteHeapProfile(f); err != nil {
				panic(rt.NewGoError(err))
			}
			return live
		})
		return nil
	}
	p, err := node.StartProgram(node.ProgramOptions{
		Filename: "idle.js", Source: program, Argv: []string{"jsworker", "idle.js", strconv.Itoa(n)},
		Env: os.Environ(), Options: core.Options{Filename: "idle.js", Stdout: os.Stdout, Stderr: os.Stderr, Setup: setup},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "idlesplit:", err)
		os.Exit(1)
	}
	os.Exit(p.Wait())
}
