package sharedmem

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// Memory operations on one element, by size in bytes (1, 2, 4, 8), on raw
// bits (zero-extended to 64).
//
// Shared blocks are 8-byte aligned with a capacity rounded up to 8 bytes, and
// goja only makes views whose byte offset is a multiple of the element size,
// so every element of a view over a block is naturally aligned: 32- and
// 64-bit elements use sync/atomic directly, 8- and 16-bit elements a
// compare-and-swap loop on the aligned 32-bit word that contains them (the
// word always lies inside the block). A non-shared ArrayBuffer is not
// necessarily aligned (goja allocates small ones anywhere); when an element
// or its word is misaligned or would reach outside the buffer's memory, it is
// accessed plainly — no other thread can see a non-shared buffer.

type rmwOp uint8

const (
	opAdd rmwOp = iota
	opSub
	opAnd
	opOr
	opXor
	opExchange
)

func apply(op rmwOp, old, v uint64) uint64 {
	switch op {
	case opAdd:
		return old + v
	case opSub:
		return old - v
	case opAnd:
		return old & v
	case opOr:
		return old | v
	case opXor:
		return old ^ v
	default:
		return v
	}
}

var bigEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 0
}()

// subword locates an 8- or 16-bit element inside its aligned 32-bit word.
// ok is false when that word is not entirely inside data's memory.
func subword(data []byte, i, size int) (word *uint32, shift uint, mask uint32, ok bool) {
	p := unsafe.Pointer(&data[i])
	k := uintptr(p) & 3
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	if uintptr(p)-k < base || uintptr(p)-k+4 > base+uintptr(cap(data)) {
		return nil, 0, 0, false
	}
	word = (*uint32)(unsafe.Add(p, -int(k)))
	if bigEndian {
		shift = uint(4-uintptr(size)-k) * 8
	} else {
		shift = uint(k) * 8
	}
	return word, shift, uint32(1)<<(size*8) - 1, true
}

func aligned(data []byte, i, size int) bool {
	return uintptr(unsafe.Pointer(&data[i]))%uintptr(size) == 0
}

// memLoad is an atomic (sequentially consistent) load.
func memLoad(data []byte, i, size int) uint64 {
	switch size {
	case 4:
		if aligned(data, i, 4) {
			return uint64(atomic.LoadUint32((*uint32)(unsafe.Pointer(&data[i]))))
		}
	case 8:
		if aligned(data, i, 8) {
			return atomic.LoadUint64((*uint64)(unsafe.Pointer(&data[i])))
		}
	default:
		if w, shift, mask, ok := subword(data, i, size); ok {
			return uint64(atomic.LoadUint32(w) >> shift & mask)
		}
	}
	return plainLoad(data, i, size)
}

// memStore is an atomic store of the low size*8 bits of v.
func memStore(data []byte, i, size int, v uint64) {
	switch size {
	case 4:
		if aligned(data, i, 4) {
			atomic.StoreUint32((*uint32)(unsafe.Pointer(&data[i])), uint32(v))
			return
		}
	case 8:
		if aligned(data, i, 8) {
			atomic.StoreUint64((*uint64)(unsafe.Pointer(&data[i])), v)
			return
		}
	default:
		if w, shift, mask, ok := subword(data, i, size); ok {
			for {
				old := atomic.LoadUint32(w)
				if atomic.CompareAndSwapUint32(w, old, old&^(mask<<shift)|(uint32(v)&mask)<<shift) {
					return
				}
			}
		}
	}
	plainStore(data, i, size, v)
}

// memRMW atomically replaces the element by op(old, v) and returns old.
func memRMW(data []byte, i, size int, op rmwOp, v uint64) uint64 {
	switch size {
	case 4:
		if aligned(data, i, 4) {
			p := (*uint32)(unsafe.Pointer(&data[i]))
			x := uint32(v)
			switch op {
			case opAdd:
				return uint64(atomic.AddUint32(p, x) - x)
			case opSub:
				return uint64(atomic.AddUint32(p, -x) + x)
			case opAnd:
				return uint64(atomic.AndUint32(p, x))
			case opOr:
				return uint64(atomic.OrUint32(p, x))
			case opExchange:
				return uint64(atomic.SwapUint32(p, x))
			}
			for {
				old := atomic.LoadUint32(p)
				if atomic.CompareAndSwapUint32(p, old, old^x) {
					return uint64(old)
				}
			}
		}
	case 8:
		if aligned(data, i, 8) {
			p := (*uint64)(unsafe.Pointer(&data[i]))
			switch op {
			case opAdd:
				return atomic.AddUint64(p, v) - v
			case opSub:
				return atomic.AddUint64(p, -v) + v
			case opAnd:
				return atomic.AndUint64(p, v)
			case opOr:
				return atomic.OrUint64(p, v)
			case opExchange:
				return atomic.SwapUint64(p, v)
			}
			for {
				old := atomic.LoadUint64(p)
				if atomic.CompareAndSwapUint64(p, old, old^v) {
					return old
				}
			}
		}
	default:
		if w, shift, mask, ok := subword(data, i, size); ok {
			for {
				old := atomic.LoadUint32(w)
				field := old >> shift & mask
				nf := uint32(apply(op, uint64(field), v)) & mask
				if atomic.CompareAndSwapUint32(w, old, old&^(mask<<shift)|nf<<shift) {
					return uint64(field)
				}
			}
		}
	}
	old := plainLoad(data, i, size)
	plainStore(data, i, size, apply(op, old, v))
	return old
}

// memCAS atomically replaces the element by repl if it equals expected (both
// already truncated to the element's size) and returns the old value.
func memCAS(data []byte, i, size int, expected, repl uint64) uint64 {
	switch size {
	case 4:
		if aligned(data, i, 4) {
			p := (*uint32)(unsafe.Pointer(&data[i]))
			for {
				old := atomic.LoadUint32(p)
				if uint64(old) != expected || atomic.CompareAndSwapUint32(p, old, uint32(repl)) {
					return uint64(old)
				}
			}
		}
	case 8:
		if aligned(data, i, 8) {
			p := (*uint64)(unsafe.Pointer(&data[i]))
			for {
				old := atomic.LoadUint64(p)
				if old != expected || atomic.CompareAndSwapUint64(p, old, repl) {
					return old
				}
			}
		}
	default:
		if w, shift, mask, ok := subword(data, i, size); ok {
			for {
				old := atomic.LoadUint32(w)
				field := old >> shift & mask
				if uint64(field) != expected {
					return uint64(field)
				}
				if atomic.CompareAndSwapUint32(w, old, old&^(mask<<shift)|uint32(repl)&mask<<shift) {
					return uint64(field)
				}
			}
		}
	}
	old := plainLoad(data, i, size)
	if old == expected {
		plainStore(data, i, size, repl)
	}
	return old
}

func plainLoad(data []byte, i, size int) uint64 {
	switch size {
	case 1:
		return uint64(data[i])
	case 2:
		return uint64(binary.NativeEndian.Uint16(data[i:]))
	case 4:
		return uint64(binary.NativeEndian.Uint32(data[i:]))
	default:
		return binary.NativeEndian.Uint64(data[i:])
	}
}

func plainStore(data []byte, i, size int, v uint64) {
	switch size {
	case 1:
		data[i] = byte(v)
	case 2:
		binary.NativeEndian.PutUint16(data[i:], uint16(v))
	case 4:
		binary.NativeEndian.PutUint32(data[i:], uint32(v))
	default:
		binary.NativeEndian.PutUint64(data[i:], v)
	}
}

// truncate keeps the low size*8 bits.
func truncate(v uint64, size int) uint64 {
	if size == 8 {
		return v
	}
	return v & (1<<(size*8) - 1)
}
