package clone

import (
	"math/bits"
	"sync"
)

// Large frame buffers are pooled.
//
// A large message (a 1 MB object graph) used to cost its encoder a dozen
// regrowths from 512 bytes, each copying what was written so far, into
// memory the Go heap had often just given back to the system: the page
// faults of that fresh memory were a quarter of a round trip's CPU. Now an
// encoder that outgrows its small buffer takes a buffer of a power-of-two
// class from 64 KiB to 64 MiB from these pools, a large frame takes the
// buffer over without a copy, and Deserialize gives its bytes back once the
// value is built, unless the value uses them in place (an ArrayBuffer
// aliasing the frame, see readBuffer), in which case they stay the
// ArrayBuffer's. Only frames made by Serialize are recycled, and only by
// Deserialize: a frame's bytes are then no one else's (a frame has one
// owner, Bytes are valid until Release). sync.Pool drops what is not reused
// within two collections, so an idle process keeps nothing.

const (
	minLargeShift = 16 // 64 KiB: the smallest pooled class
	maxLargeShift = 26 // 64 MiB: larger buffers are neither pooled nor reused
	largeClasses  = maxLargeShift - minLargeShift + 1
)

var largeBufs [largeClasses]sync.Pool

// largeClass returns the class of the smallest pooled buffer holding n
// bytes, or -1 if n is beyond the largest class.
func largeClass(n int) int {
	if n <= 1<<minLargeShift {
		return 0
	}
	c := bits.Len(uint(n-1)) - minLargeShift
	if c >= largeClasses {
		return -1
	}
	return c
}

// getLarge returns an empty buffer with room for at least n bytes: a pooled
// one of n's class, or a new one; beyond the largest class, one of exactly n.
func getLarge(n int) []byte {
	c := largeClass(n)
	if c < 0 {
		return make([]byte, 0, n)
	}
	if p, _ := largeBufs[c].Get().(*[]byte); p != nil {
		return (*p)[:0]
	}
	return make([]byte, 0, 1<<(minLargeShift+c))
}

// putLarge gives b back to its class's pool. Buffers not of a class's exact
// capacity (not made by getLarge) are left to the collector. The caller must
// not use b afterwards, nor any slice of it.
func putLarge(b []byte) {
	if !isLarge(b) {
		return
	}
	c := largeClass(cap(b))
	p := new([]byte) // (a pointer, so that Put does not box the slice header)
	*p = b[:0]
	largeBufs[c].Put(p)
}

// isLarge reports whether b's capacity is exactly a pooled class's.
func isLarge(b []byte) bool {
	n := cap(b)
	return n >= 1<<minLargeShift && n <= 1<<maxLargeShift && n&(n-1) == 0
}
