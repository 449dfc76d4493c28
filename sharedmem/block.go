package sharedmem

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"unsafe"
)

// MaxByteLength is the largest byte length (or maximum byte length, for a
// growable block) NewBlock accepts: 4 GiB, Node's limit (less on 32-bit
// platforms). A JavaScript request beyond it throws a RangeError instead of
// asking Go for memory it cannot give back on failure.
const MaxByteLength = min(1<<32, math.MaxInt)

// Errors returned by NewBlock and Block.Grow. JavaScript sees them as a
// RangeError.
var (
	ErrInvalidLength = errors.New("sharedmem: invalid byte length")
	ErrTooLarge      = errors.New("sharedmem: byte length exceeds the limit")
)

// A Block is one shared byte region, referenced by every SharedArrayBuffer
// wrapper (in any realm) and every in-flight frame that holds it. It is
// reference-counted: NewBlock returns it with one reference, owned by the
// caller; Retain adds one and Release gives one back; the memory is dropped
// when the last holder releases it.
//
// A growable block allocates its maximum byte length up front, so growing
// never moves the memory: every realm's wrapper keeps pointing at the same
// bytes, which is what makes sharing a growable buffer safe.
//
// Every method may be called from any goroutine. A Block must not be used
// after its last reference is released (Retain then panics).
type Block struct {
	refs   atomic.Int64
	length atomic.Int64 // current byte length; only grows
	max    int          // maximum byte length (== the initial length when not growable)
	grows  bool
	mem    []byte  // len(mem) == max, cap(mem) == allocation (a multiple of 8); nil once freed
	start  uintptr // the memory's address, fixed at creation (NotifyAddress reads it without a lock)
	free   func()  // gives external memory back after the last Release (external.go); nil for Go memory

	// Atomics.wait and waitAsync: FIFO waiter lists keyed by byte index.
	wmu     sync.Mutex
	waiters map[int]*waitList
}

var (
	liveBlocks atomic.Int64
	// blockByBase maps the address of each live block's memory to the block.
	// Only a wrapper made by this package can have a data pointer equal to
	// a live block's memory: that is how a genuine SharedArrayBuffer is told
	// from an ArrayBuffer whose prototype was swapped.
	blockByBase   = map[uintptr]*Block{}
	blockByBaseMu sync.RWMutex
)

// NewBlock allocates a zeroed block of byteLength bytes with one reference,
// owned by the caller. maxByteLength is -1 for a fixed-length block, or the
// largest length Grow may reach (≥ byteLength); all of it is allocated now.
// It fails with ErrInvalidLength for negative or inconsistent lengths and
// with ErrTooLarge beyond MaxByteLength or when the memory cannot be had.
func NewBlock(byteLength int, maxByteLength int) (*Block, error) {
	if byteLength < 0 || maxByteLength < -1 || (maxByteLength >= 0 && byteLength > maxByteLength) {
		return nil, ErrInvalidLength
	}
	size := byteLength
	if maxByteLength >= 0 {
		size = maxByteLength
	}
	if size > MaxByteLength {
		return nil, ErrTooLarge
	}
	mem, err := alloc(size)
	if err != nil {
		return nil, err
	}
	b := &Block{max: size, grows: maxByteLength >= 0, mem: mem}
	b.start = b.base()
	b.refs.Store(1)
	b.length.Store(int64(byteLength))
	liveBlocks.Add(1)
	blockByBaseMu.Lock()
	blockByBase[b.base()] = b
	blockByBaseMu.Unlock()
	return b, nil
}

// alloc returns size zeroed bytes, 8-byte aligned, with a capacity rounded up
// to a multiple of 8 (at least 8, so every block has its own address). The
// alignment lets 16-, 32- and 64-bit atomics address any element of any
// typed array over the block, and 8- and 16-bit atomics work on the aligned
// 32-bit word that contains them.
func alloc(size int) (mem []byte, err error) {
	defer func() {
		if recover() != nil {
			mem, err = nil, ErrTooLarge
		}
	}()
	words := make([]uint64, max(1, (size+7)/8))
	p := (*byte)(unsafe.Pointer(unsafe.SliceData(words)))
	return unsafe.Slice(p, len(words)*8)[:size], nil
}

func (b *Block) base() uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b.mem))) }

// Retain adds a reference. It panics if the block was already freed.
func (b *Block) Retain() {
	if b.refs.Add(1) <= 1 {
		panic("sharedmem: Retain of a released Block")
	}
}

// Release gives back one reference; the last one frees the memory (the
// bytes are garbage once no wrapper references them either, which by then
// none does). Releasing more often than retained panics.
func (b *Block) Release() {
	switch n := b.refs.Add(-1); {
	case n > 0:
	case n == 0:
		blockByBaseMu.Lock()
		delete(blockByBase, b.base())
		blockByBaseMu.Unlock()
		lastNotified.CompareAndSwap(b, nil)
		b.wmu.Lock()
		b.mem = nil
		b.waiters = nil
		free := b.free
		b.free = nil
		b.wmu.Unlock()
		liveBlocks.Add(-1)
		if free != nil {
			free()
		}
	default:
		panic("sharedmem: Release of a released Block")
	}
}

// ByteLength returns the current byte length (it only ever grows).
func (b *Block) ByteLength() int { return int(b.length.Load()) }

// MaxByteLength returns the length a growable block may grow to, or the
// byte length of a fixed-length one.
func (b *Block) MaxByteLength() int { return b.max }

// Growable reports whether the block was created with a maximum byte length.
func (b *Block) Growable() bool { return b.grows }

// Grow sets the byte length of a growable block to n. Growing to the current
// length is a no-op; shrinking, exceeding the maximum or growing a fixed
// block fails (ErrInvalidLength). Concurrent calls are linearized: each
// either takes effect or reports the length it lost to.
func (b *Block) Grow(n int) error {
	if !b.grows {
		return fmt.Errorf("%w: the block is not growable", ErrInvalidLength)
	}
	for {
		cur := b.length.Load()
		if int64(n) == cur {
			return nil
		}
		if int64(n) < cur || n > b.max {
			return fmt.Errorf("%w: cannot grow from %d to %d bytes (maximum %d)", ErrInvalidLength, cur, n, b.max)
		}
		if b.length.CompareAndSwap(cur, int64(n)) {
			growEpoch.Add(1)
			return nil
		}
	}
}

// growEpoch counts successful grows of any block; a realm whose last look
// is older refreshes the byte length its wrappers show (see realm.refresh).
var growEpoch atomic.Uint64

// LiveBlocks returns the number of blocks not yet freed, process-wide, for
// leak checks in tests (blocks held by wrappers are freed only after the
// wrappers are garbage-collected). Any goroutine may call it.
func LiveBlocks() int { return int(liveBlocks.Load()) }

// lookupBase returns the live block whose memory starts at p.
func lookupBase(p uintptr) *Block {
	blockByBaseMu.RLock()
	b := blockByBase[p]
	blockByBaseMu.RUnlock()
	return b
}
