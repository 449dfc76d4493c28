package clone_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// FuzzDeserialize feeds arbitrary bytes to Deserialize, which must never
// panic; whatever it accepts must serialize again without panicking, and
// that frame must deserialize. Under plain `go test` only the seeds run; use
// `go test -fuzz FuzzDeserialize ./clone/` (or `make fuzz`) to explore.
func FuzzDeserialize(f *testing.F) {
	for _, frame := range validFrames(f) {
		f.Add(frame)
	}
	f.Add([]byte{0x01, 'a', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00})
	f.Add([]byte{0x01, '"', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a'})
	f.Add([]byte{0x01, 'A', 0x02, '^', 0x00, '-'})
	f.Add(deepFrame(256, false))
	f.Add(deepFrame(257, true))
	f.Fuzz(func(t *testing.T, data []byte) {
		rt := goja.New()
		v, err := clone.Deserialize(rt, clone.NewFrame(data))
		if err != nil {
			return
		}
		again, err := clone.Serialize(rt, v, clone.Options{})
		if err != nil {
			return // e.g. a key holding U+FFFD, which version 1 does not write
		}
		if _, err := clone.Deserialize(goja.New(), again); err != nil {
			t.Fatalf("re-serialized frame % x of input % x: %v", again.Bytes(), data, err)
		}
	})
}
