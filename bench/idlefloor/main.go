// Command idlefloor measures what goja alone costs per idle realm that answers a message: the floor under
// bench/node/idle_many.js's per-worker figure (docs/benchmarks.md, issue 17). It starts N goroutines; each makes a
// goja runtime, runs a one-line script that keeps a listener function, and waits; main sends each one number, the
// goroutine calls the listener with it and sends the answer back. When all have answered it collects, reads the live
// Go heap and RSS, and prints one JSON line. -script picks what each realm runs (the default is the smallest
// listener; "none" makes the runtime and nothing else).
//
//	go run ./bench/idlefloor [-n 10000] [-script 'globalThis.on = (m) => m + 1']
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/procmem"
)

func main() {
	n := flag.Int("n", 10000, "number of idle realms")
	script := flag.String("script", "globalThis.on = (m) => m + 1", `what each realm runs ("none": nothing)`)
	flag.Parse()
	out, err := measure(*n, *script)
	if err != nil {
		fmt.Fprintln(os.Stderr, "idlefloor:", err)
		os.Exit(1)
	}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}

type result struct {
	Bench        string  `json:"bench"`
	Realms       int     `json:"realms"`
	Script       string  `json:"script"`
	LiveKiB      float64 `json:"live_heap_per_realm_KiB"`
	RSSKiB       float64 `json:"rss_per_realm_KiB"`
	StackKiB     float64 `json:"stack_per_realm_KiB"`
	AllReadyMs   int64   `json:"all_ready_ms"`
	GoMaxProcs   int     `json:"gomaxprocs"`
	GoVersion    string  `json:"go"`
	CompiledOnce bool    `json:"compiled_once"`
}

// measure runs n idle realms as described in the command's doc comment.
func measure(n int, script string) (result, error) {
	var prg *goja.Program
	if script != "none" {
		p, err := goja.Compile("idle.js", script, false)
		if err != nil {
			return result{}, err
		}
		prg = p
	}
	liveBase, rssBase, stackBase := sample()
	type realm struct {
		in  chan int
		out chan string
	}
	realms := make([]realm, n)
	start := time.Now()
	for i := range realms {
		r := realm{in: make(chan int), out: make(chan string, 1)}
		realms[i] = r
		go func() {
			rt := goja.New()
			var on goja.Callable
			if prg != nil {
				if _, err := rt.RunProgram(prg); err != nil {
					r.out <- err.Error()
					return
				}
				on, _ = goja.AssertFunction(rt.Get("on"))
			}
			for m := range r.in {
				if on == nil {
					r.out <- strconv.Itoa(m + 1)
					continue
				}
				v, err := on(goja.Undefined(), rt.ToValue(m))
				if err != nil {
					r.out <- err.Error()
					continue
				}
				r.out <- v.String()
			}
			runtime.KeepAlive(rt)
		}()
	}
	for i, r := range realms {
		r.in <- i
	}
	for i, r := range realms {
		if got := <-r.out; got != strconv.Itoa(i+1) {
			return result{}, fmt.Errorf("realm %d answered %q", i, got)
		}
	}
	ready := time.Since(start)
	time.Sleep(500 * time.Millisecond)
	live, rss, stack := sample()
	for _, r := range realms {
		close(r.in)
	}
	return result{
		Bench: "idlefloor", Realms: n, Script: script,
		LiveKiB:    round1(float64(live-liveBase) / float64(n) / 1024),
		RSSKiB:     round1(float64(rss-rssBase) / float64(n) / 1024),
		StackKiB:   round1(float64(stack-stackBase) / float64(n) / 1024),
		AllReadyMs: ready.Milliseconds(), GoMaxProcs: runtime.GOMAXPROCS(0), GoVersion: runtime.Version(),
		CompiledOnce: prg != nil,
	}, nil
}

// sample collects and returns the live heap, the resident set and the goroutine stacks in bytes.
func sample() (live, rss, stack uint64) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, uint64(procmem.Resident()), ms.StackInuse
}

func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }
