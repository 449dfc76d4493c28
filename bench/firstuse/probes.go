package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jsworker/jsworker/internal/gojainternal"
)

// probeSteps are internal/gojainternal's one-time probes in the order -probes runs them: each one's own cost, the
// ones it depends on having run before it (LazyGuard after the probes it starts on another goroutine, so that they
// have nothing left to do; LazyProps, which needs LazyGuard, after it).
var probeSteps = []struct {
	name string
	run  func() error
}{
	{"Kinds", gojainternal.Kinds},
	{"TypedArrays", gojainternal.TypedArrays},
	{"FillPlainObject", func() error {
		if !gojainternal.CanFillPlain() {
			return fmt.Errorf("FillPlainObject's probe failed")
		}
		return nil
	}},
	{"LazyGuard", gojainternal.LazyGuard},
	{"LazyProps", gojainternal.LazyProps},
	{"Verify (the rest)", gojainternal.Verify},
}

// probeCosts measures each probe once in this process: wall-clock time, the process's CPU time, bytes allocated and
// minor page faults; one line of "name ms cpu_ms kB faults" per probe.
func probeCosts() error {
	for _, s := range probeSteps {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		c0, f0 := usage()
		t0 := time.Now()
		err := s.run()
		d := time.Since(t0)
		c1, f1 := usage()
		runtime.ReadMemStats(&m1)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		fmt.Printf("%s\t%.3f\t%.3f\t%d\t%d\n", s.name, float64(d.Microseconds())/1000, c1-c0, (m1.TotalAlloc-m0.TotalAlloc)>>10, f1-f0)
	}
	return nil
}

// probeMedians runs probeCosts in n fresh child processes and prints each probe's medians.
func probeMedians(n int) error {
	cols := map[string][4][]float64{}
	for range n {
		out, err := exec.Command(os.Args[0], "-probes", "-child").Output()
		if err != nil {
			return err
		}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			f := strings.Split(line, "\t")
			if len(f) != 5 {
				return fmt.Errorf("unexpected line %q", line)
			}
			c := cols[f[0]]
			for i := range 4 {
				v, err := strconv.ParseFloat(f[i+1], 64)
				if err != nil {
					return err
				}
				c[i] = append(c[i], v)
			}
			cols[f[0]] = c
		}
	}
	fmt.Printf("probe (medians of %d fresh processes)\twall ms\tCPU ms\tallocated KiB\tminor faults\n", n)
	for _, s := range probeSteps {
		c := cols[s.name]
		fmt.Printf("%s\t%.3f\t%.3f\t%.0f\t%.0f\n", s.name, median(c[0]), median(c[1]), median(c[2]), median(c[3]))
	}
	return nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// usage is the process's CPU time (user + system) in ms and its minor page faults.
func usage() (float64, int64) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6, ru.Minflt
}
