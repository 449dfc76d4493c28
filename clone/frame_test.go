package clone_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// Frames of every size, including the small ones whose bytes share their
// Frame's allocation, start on an 8-byte boundary and are read back (the
// small ones hold exactly their bytes); a small ArrayBuffer read in place from such a
// frame stays intact after the frame is released and others are made.
func TestFrameBytesAligned(t *testing.T) {
	src := goja.New()
	for n := 0; n < 600; n += 7 {
		f, err := clone.Serialize(src, src.ToValue(strings.Repeat("x", n)), clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		b := f.Bytes()
		if uintptr(unsafe.Pointer(unsafe.SliceData(b)))%8 != 0 {
			t.Fatalf("string of %d: frame bytes not 8-aligned", n)
		}
		if len(b) <= 240 && cap(b) != len(b) {
			t.Fatalf("string of %d: frame has %d bytes of capacity for %d", n, cap(b), len(b))
		}
		dst := goja.New()
		v, err := clone.Deserialize(dst, f)
		if err != nil || v.String() != strings.Repeat("x", n) {
			t.Fatalf("string of %d: %v", n, err)
		}
	}

	dst := goja.New()
	var bufs []goja.ArrayBuffer
	for i := range 64 {
		v := run(t, src, `var u = new Uint8Array(24); u.fill(`+strconv.Itoa(i+1)+`); ({b: u.buffer})`)
		f, err := clone.Serialize(src, v, clone.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := clone.Deserialize(dst, f)
		if err != nil {
			t.Fatal(err)
		}
		ab, _ := out.(*goja.Object).Get("b").Export().(goja.ArrayBuffer)
		bufs = append(bufs, ab)
	}
	for i, ab := range bufs {
		if want := bytes.Repeat([]byte{byte(i + 1)}, 24); !bytes.Equal(ab.Bytes(), want) {
			t.Fatalf("buffer %d changed: %v", i, ab.Bytes())
		}
	}
}
