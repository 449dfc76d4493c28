package procmem

import (
	"os"
	"runtime"
	"testing"
)

// TestResident_GrowsWithTouchedMemory checks that the figure is the resident set: 64 MiB written page by page
// shows up in it.
func TestResident_GrowsWithTouchedMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		if Resident() != 0 {
			t.Fatal("Resident answered without /proc/self/statm")
		}
		t.Skip("no /proc/self/statm")
	}
	before := Resident()
	if before <= 0 {
		t.Fatalf("Resident() = %d", before)
	}
	const size = 64 << 20
	buf := make([]byte, size)
	for i := 0; i < size; i += os.Getpagesize() {
		buf[i] = 1
	}
	after := Resident()
	runtime.KeepAlive(buf)
	if after-before < size/2 {
		t.Fatalf("resident set grew by %d bytes after touching %d", after-before, size)
	}
}
