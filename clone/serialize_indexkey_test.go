package clone

import (
	"strconv"
	"testing"
)

// TestIndexKey: the cached names of small indices and the computed ones above them are the decimal names.
func TestIndexKey(t *testing.T) {
	for _, i := range []uint32{0, 1, 9, 10, 99, 100, 999, 1000, 1023, 1024, 4294967294} {
		if got := indexKey(i); got != strconv.FormatUint(uint64(i), 10) {
			t.Errorf("indexKey(%d) = %q", i, got)
		}
	}
}
