// Command idleprof runs a Node-style program the way `jsworker run` does and writes Go heap and CPU profiles of it,
// to find what idle workers cost (bench/node/idle_many.js, memory.js):
//
//	go run ./bench/idleprof -heap build/heap.pprof -cpu build/cpu.pprof bench/node/idle_many.js 2000
//	go tool pprof -sample_index=inuse_space -top build/heap.pprof
//
// The heap profile is written after -after of wall time (pick a moment when the workers are idle), or at the end.
// At that moment idleprof prints where the process's memory is, twice: as it is (as a program's own RSS
// reading finds it: garbage not yet collected, free space the collector keeps) and after a forced collection (the
// live heap); -memrate 1 records every allocation in the heap profile (slow: use a few hundred workers).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/node"
)

func main() {
	heap := flag.String("heap", "", "write a heap profile here")
	cpu := flag.String("cpu", "", "write a CPU profile of the whole run here")
	after := flag.Duration("after", 0, "take the heap profile after this long (0: at the end)")
	memRate := flag.Int("memrate", 0, "runtime.MemProfileRate for the heap profile (0: Go's default, one sample per 512 KiB)")
	flag.Parse()
	if *memRate > 0 {
		runtime.MemProfileRate = *memRate
	}
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: idleprof [-heap FILE] [-cpu FILE] [-after DUR] [-memrate N] PROGRAM.js [ARGS...]")
		os.Exit(2)
	}
	if err := run(*heap, *cpu, *after, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "idleprof:", err)
		os.Exit(1)
	}
}

func run(heap, cpu string, after time.Duration, args []string) error {
	path, err := filepath.Abs(args[0])
	if err != nil {
		return err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	p, err := node.StartProgram(node.ProgramOptions{
		Filename: path, Source: string(src), Argv: append([]string{"jsworker", path}, args[1:]...),
		Env: os.Environ(), Options: core.Options{Filename: path, Stdout: os.Stdout, Stderr: os.Stderr},
	})
	if err != nil {
		return err
	}
	done := make(chan int, 1)
	go func() { done <- p.Wait() }()
	var timer <-chan time.Time
	if heap != "" && after > 0 {
		timer = time.After(after)
	}
	for {
		select {
		case <-timer:
			if err := writeHeap(heap); err != nil {
				return err
			}
			heap = ""
		case code := <-done:
			if heap != "" {
				if err := writeHeap(heap); err != nil {
					return err
				}
			}
			if code != 0 {
				return fmt.Errorf("the program exited with code %d", code)
			}
			return nil
		}
	}
}

func writeHeap(path string) error {
	printMemory("as it is")
	runtime.GC()
	printMemory("after a collection")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return pprof.WriteHeapProfile(f)
}
