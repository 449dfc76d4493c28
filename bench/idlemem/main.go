// Command idlemem measures the resident memory an idle worker costs, the way
// Node's bench/node/memory.js does for worker_threads: read RSS after a
// settle pause, start N workers that each install a message handler and post
// "ready", settle, read RSS again, terminate them all, settle, read it once
// more. It prints one JSON line. MB means MiB (2^20 bytes), as in memory.js.
//
//	go run ./bench/idlemem [-n 100] [-dedicated]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/procmem"
)

const settle = 500 * time.Millisecond

func main() {
	n := flag.Int("n", 100, "number of idle workers")
	dedicated := flag.Bool("dedicated", false, "run each worker on a dedicated OS thread")
	flag.Parse()
	if err := run(*n, *dedicated); err != nil {
		fmt.Printf(`{"bench":"memory","error":%q}`+"\n", err.Error())
		os.Exit(1)
	}
}

func run(n int, dedicated bool) error {
	host := goja.New()
	time.Sleep(settle)
	base := procmem.Resident()

	start := time.Now()
	ws := make([]*core.Worker, n)
	for i := range ws {
		w, err := core.Spawn(`onmessage = function () {}; postMessage("ready");`, core.Options{DedicatedThread: dedicated})
		if err != nil {
			return err
		}
		ws[i] = w
	}
	for _, w := range ws {
		if v, err := w.Receive(host, time.Minute); err != nil || v.String() != "ready" {
			return fmt.Errorf("worker %d: %v %v", w.ID(), v, err)
		}
	}
	readyMs := float64(time.Since(start).Microseconds()) / 1000
	time.Sleep(settle)
	runtime.GC()
	withWorkers := procmem.Resident()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)

	for _, w := range ws {
		w.Release()
	}
	runtime.GC()
	debug.FreeOSMemory()
	time.Sleep(settle)
	after := procmem.Resident()

	mode := "goroutine"
	if dedicated {
		mode = "dedicated"
	}
	const mb = 1 << 20
	out := map[string]any{
		"bench":              "memory",
		"runtime":            "jsworker core (Go API, " + mode + ")",
		"workers":            n,
		"rss_base_MB":        r3(float64(base) / mb),
		"rss_workers_MB":     r3(float64(withWorkers) / mb),
		"per_worker_MB":      r3(float64(withWorkers-base) / mb / float64(n)),
		"heap_per_worker_MB": r3(float64(ms.HeapInuse+ms.StackInuse) / mb / float64(n)),
		"rss_after_MB":       r3(float64(after) / mb),
		"all_ready_ms":       r3(readyMs),
	}
	return json.NewEncoder(os.Stdout).Encode(out)
}

func r3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
