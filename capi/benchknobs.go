//go:build jsworkerbench

package capi

import (
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

// The measurement knobs of a library built with -tags jsworkerbench (never a release build): the C benchmarks run
// against such a build to profile the library from a C host and to try settings that are constants otherwise.
//
//	JSWORKER_BENCH_RECEIVE_SPIN_US=N   a blocking receive polls for N µs before it parks (receiveSpin)
//	JSWORKER_BENCH_CPUPROFILE=path     a CPU profile of the first JSWORKER_BENCH_CPUPROFILE_SECONDS (default 20)
func init() {
	if us, err := strconv.Atoi(os.Getenv("JSWORKER_BENCH_RECEIVE_SPIN_US")); err == nil && us > 0 {
		receiveSpin = time.Duration(us) * time.Microsecond
	}
	path := os.Getenv("JSWORKER_BENCH_CPUPROFILE")
	if path == "" {
		return
	}
	secs, err := strconv.Atoi(os.Getenv("JSWORKER_BENCH_CPUPROFILE_SECONDS"))
	if err != nil || secs <= 0 {
		secs = 20
	}
	f, err := os.Create(path)
	if err != nil {
		return
	}
	if pprof.StartCPUProfile(f) != nil {
		f.Close()
		return
	}
	time.AfterFunc(time.Duration(secs)*time.Second, func() {
		pprof.StopCPUProfile()
		f.Close()
	})
}
