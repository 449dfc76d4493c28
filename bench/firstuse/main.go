// Command firstuse measures what a process pays the first time it uses the library, as a C host does after dlopen:
// the first host realm (JSGlobalContextCreate), then the first worker's reply (JSWorkerCreate, JSWorkerReceive),
// then the same again, warm. With -cpu it writes a CPU profile of -n fresh repetitions of the first use, each in a
// child process (the costs are once per process):
//
//	go run ./bench/firstuse                  # one line of timings
//	go run ./bench/firstuse -cpu build/firstuse.pprof -n 20
//	GODEBUG=inittrace=1 go run ./bench/firstuse   # package initializers
//	go run ./bench/firstuse -probes -n 7          # each one-time probe of internal/gojainternal, medians
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/jsworker/jsworker/core"
)

var start = time.Now() // as early as this package's initialization: after every imported package's init

func main() {
	cpu := flag.String("cpu", "", "write a CPU profile of the first uses here")
	n := flag.Int("n", 1, "repetitions, each in a fresh child process when profiling")
	child := flag.Bool("child", false, "internal: measure once in this process")
	probes := flag.Bool("probes", false, "measure each probe of internal/gojainternal instead (-n fresh processes)")
	flag.Parse()
	if *probes {
		run := func() error { return probeMedians(*n) }
		if *child {
			run = probeCosts
		}
		if err := run(); err != nil {
			fmt.Fprintln(os.Stderr, "firstuse:", err)
			os.Exit(1)
		}
		return
	}
	if *cpu != "" && !*child {
		for i := 0; i < *n; i++ {
			c := exec.Command(os.Args[0], "-child", "-cpu", *cpu+"."+strconv.Itoa(i))
			c.Stdout, c.Stderr = os.Stdout, os.Stderr
			if err := c.Run(); err != nil {
				fmt.Fprintln(os.Stderr, "firstuse:", err)
				os.Exit(1)
			}
		}
		fmt.Fprintf(os.Stderr, "firstuse: merge with: go tool pprof -proto %s.* > %s\n", *cpu, *cpu)
		return
	}
	if *cpu != "" {
		f, err := os.Create(*cpu)
		if err != nil {
			fmt.Fprintln(os.Stderr, "firstuse:", err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "firstuse:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	out, err := measure()
	if err != nil {
		fmt.Fprintln(os.Stderr, "firstuse:", err)
		os.Exit(1)
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}

func measure() (map[string]float64, error) {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	out := map[string]float64{}
	for _, pass := range []string{"first", "warm"} {
		t0 := time.Now()
		h, err := core.OpenHostRealm(core.HostRealmOptions{})
		if err != nil {
			return nil, err
		}
		t1 := time.Now()
		w, err := core.Spawn(`postMessage('ready')`, core.Options{})
		if err != nil {
			return nil, err
		}
		if _, err := w.Receive(h.Runtime(), 10*time.Second); err != nil {
			return nil, err
		}
		t2 := time.Now()
		w.Release()
		h.Close()
		out[pass+"_context_ms"], out[pass+"_reply_ms"] = ms(t1.Sub(t0)), ms(t2.Sub(t1))
	}
	out["since_init_ms"] = ms(time.Since(start))
	return out, nil
}
