package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"

	"github.com/jsworker/jsworker/internal/procmem"
)

// memoryClasses are the runtime/metrics figures printMemory reports, in its order, with short names.
var memoryClasses = []struct{ name, metric string }{
	{"objects", "/memory/classes/heap/objects:bytes"},      // allocated: live, and dead not yet swept
	{"free-in-spans", "/memory/classes/heap/unused:bytes"}, // free slots of spans in use (size-class fragmentation)
	{"free-spans", "/memory/classes/heap/free:bytes"},      // whole free spans, still mapped (not yet scavenged)
	{"released", "/memory/classes/heap/released:bytes"},    // free spans returned to the OS
	{"stacks", "/memory/classes/heap/stacks:bytes"},
	{"metadata", "/memory/classes/metadata/other:bytes"}, // GC bitmaps, arenas' metadata
	{"mspans", "/memory/classes/metadata/mspan/inuse:bytes"},
	{"other", "/memory/classes/other:bytes"},
	{"total", "/memory/classes/total:bytes"},
	{"heap-goal", "/gc/heap/goal:bytes"},
	{"live-at-last-gc", "/gc/heap/live:bytes"},
}

// printMemory writes one line to stderr: the process's RSS, the Go runtime's memory classes (MiB), and the
// collections so far.
func printMemory(when string) {
	samples := make([]metrics.Sample, len(memoryClasses), len(memoryClasses)+1)
	for i, c := range memoryClasses {
		samples[i].Name = c.metric
	}
	samples = append(samples, metrics.Sample{Name: "/gc/cycles/total:gc-cycles"})
	metrics.Read(samples)
	const mib = 1 << 20
	var b strings.Builder
	fmt.Fprintf(&b, "idleprof: %s: rss %.1f MiB", when, float64(procmem.Resident())/mib)
	for i, c := range memoryClasses {
		if samples[i].Value.Kind() == metrics.KindUint64 {
			fmt.Fprintf(&b, ", %s %.1f", c.name, float64(samples[i].Value.Uint64())/mib)
		}
	}
	fmt.Fprintf(&b, " (MiB); goroutines %d; collections %d\n", runtime.NumGoroutine(), samples[len(samples)-1].Value.Uint64())
	os.Stderr.WriteString(b.String())
}
