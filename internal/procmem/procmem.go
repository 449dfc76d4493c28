// Package procmem reads what the operating system says about the process's memory: the resident set that
// process.memoryUsage().rss reports and the benchmarks and the soak compare.
package procmem

import (
	"os"
	"strconv"
	"strings"
)

// Resident returns the process's resident set size in bytes, read from /proc/self/statm; 0 where that file does
// not exist or cannot be read (outside Linux).
func Resident() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}
