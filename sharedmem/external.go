package sharedmem

import (
	"errors"
	"sync/atomic"
	"unsafe"
)

// Memory shared with a C host.
//
// A host can give a block its own memory (NewExternalBlock: the C API's
// ZJSSharedArrayBufferCreateWithBytesNoCopy), which is then given back
// through free when the block's last reference goes, on whichever goroutine
// releases it. And a host thread that writes a block's memory with its own
// atomics can wake the Atomics.wait waiters on an element by its address
// (NotifyAddress), without a runtime.

// ErrMisaligned is returned by NewExternalBlock for memory that is not
// 8-byte aligned: the atomics of every element type need it.
var ErrMisaligned = errors.New("sharedmem: external memory must be 8-byte aligned")

// NewExternalBlock makes a fixed-length block over byteLength bytes of
// memory the Go collector does not manage, starting at p, with one
// reference owned by the caller. The memory must stay valid and must not be
// moved until free runs: exactly once, after the last reference was
// released, on the releasing goroutine. p must be 8-byte aligned (else
// ErrMisaligned, and free is not called); byteLength may be zero (p is then
// not used).
func NewExternalBlock(p unsafe.Pointer, byteLength int, free func()) (*Block, error) {
	if byteLength < 0 {
		return nil, ErrInvalidLength
	}
	if byteLength > MaxByteLength {
		return nil, ErrTooLarge
	}
	var mem []byte
	if byteLength == 0 || p == nil {
		if byteLength != 0 {
			return nil, ErrInvalidLength
		}
		var err error
		if mem, err = alloc(0); err != nil { // a distinct address of its own, as every block has
			return nil, err
		}
	} else {
		if uintptr(p)%8 != 0 {
			return nil, ErrMisaligned
		}
		mem = unsafe.Slice((*byte)(p), byteLength)
	}
	b := &Block{max: byteLength, mem: mem, free: free}
	b.start = b.base()
	b.refs.Store(1)
	b.length.Store(int64(byteLength))
	liveBlocks.Add(1)
	blockByBaseMu.Lock()
	blockByBase[b.base()] = b
	blockByBaseMu.Unlock()
	return b, nil
}

// Base returns the address of the block's first byte (valid while the block
// holds a reference).
func (b *Block) Base() unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b.mem)) }

// lastNotified caches the block NotifyAddress found last: a producer thread
// notifies the same block again and again.
var lastNotified atomic.Pointer[Block]

// NotifyAddress wakes up to count waiters (count < 0: all) blocked in
// Atomics.wait or Atomics.waitAsync on the element at address p of a live
// block's memory, oldest first, and returns how many it woke. An address in
// no live block wakes nobody. Any goroutine or thread may call it; the
// caller must hold the memory alive (as a C host does while a worker uses
// it).
func NotifyAddress(p uintptr, count int) int {
	b := blockAt(p)
	if b == nil {
		return 0
	}
	c := float64(count)
	if count < 0 {
		c = float64(MaxByteLength) * 8
	}
	return b.notify(int(p-b.start), c)
}

// blockAt returns the live block whose current bytes contain address p.
func blockAt(p uintptr) *Block {
	contains := func(b *Block) bool {
		base := b.start
		return b.refs.Load() > 0 && p >= base && p < base+uintptr(b.ByteLength())
	}
	if b := lastNotified.Load(); b != nil && contains(b) {
		return b
	}
	blockByBaseMu.RLock()
	defer blockByBaseMu.RUnlock()
	if b := blockByBase[p]; b != nil && contains(b) {
		lastNotified.Store(b)
		return b
	}
	for _, b := range blockByBase {
		if contains(b) {
			lastNotified.Store(b)
			return b
		}
	}
	return nil
}
