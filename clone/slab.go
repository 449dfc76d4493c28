package clone

import "unsafe"

// Slabs: the memory of the numbers and short strings a decoder makes.
//
// goja boxes every Number that is not a small integer, and every string,
// into an allocation of its own (8 or 16 bytes). A large graph has
// thousands: the reader's allocations and the collector's work grew with
// them. A decoder instead hands goja pointers into slabs of its own
// (gojainternal.NewInt, NewFloat, NewASCII): a slot, once written, is never
// written again, and a used-up slab is replaced, not reused. A slab lives
// while any value in it does, so a value kept from a message keeps at most
// one slab alive (a few KiB); slabs are filled across messages (the decoder
// is pooled with what is left of its slabs).
type slabs struct {
	ints   []int64
	floats []float64
	heads  []string // string headers
	bytes  []byte   // string contents
}

const (
	slabValues    = 128  // numbers or string headers per slab
	slabBytes     = 4096 // bytes of string contents per slab
	maxSlabString = 64   // longer strings get their own allocation
)

// int returns a pointer to a new slot holding x.
func (s *slabs) int(x int64) *int64 {
	if len(s.ints) == 0 {
		s.ints = make([]int64, slabValues)
	}
	p := &s.ints[0]
	*p = x
	s.ints = s.ints[1:]
	return p
}

// float returns a pointer to a new slot holding f.
func (s *slabs) float(f float64) *float64 {
	if len(s.floats) == 0 {
		s.floats = make([]float64, slabValues)
	}
	p := &s.floats[0]
	*p = f
	s.floats = s.floats[1:]
	return p
}

// str returns a pointer to a new string header holding a copy of b (at
// most maxSlabString bytes), both in slabs.
func (s *slabs) str(b []byte) *string {
	if len(s.heads) == 0 {
		s.heads = make([]string, slabValues)
	}
	p := &s.heads[0]
	s.heads = s.heads[1:]
	if len(b) == 0 {
		*p = ""
		return p
	}
	if len(s.bytes) < len(b) {
		s.bytes = make([]byte, slabBytes)
	}
	n := copy(s.bytes, b)
	// The bytes are never written again (the slab moves past them), which
	// is what a Go string needs.
	*p = unsafe.String(&s.bytes[0], n)
	s.bytes = s.bytes[n:]
	return p
}
