package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/jsworker/jsworker/sharedmem"
)

// Memory shared with C (ZJSSharedArrayBuffer*, ZJSAtomicsNotify). A SharedArrayBuffer is a sharedmem.Block, the
// same bytes in every realm it is posted to; the host gets their address and uses them with C11 atomics while
// workers use Atomics. A NoCopy one is a block over the host's memory, given back through the deallocator when the
// block's last reference goes (the last realm's buffer collected, the last message carrying it dropped), on
// whichever thread that happens.

// sharedError converts a sharedmem error for fn.
func sharedError(fn string, err error) error {
	switch {
	case errors.Is(err, sharedmem.ErrMisaligned):
		return &jsError{ctor: "RangeError", msg: fn + ": bytes must be 8-byte aligned"}
	case errors.Is(err, sharedmem.ErrTooLarge), errors.Is(err, sharedmem.ErrInvalidLength):
		return &jsError{ctor: "RangeError", msg: fmt.Sprintf("%s: %v", fn, err)}
	}
	return err
}

// wrapBlock makes c's SharedArrayBuffer over b, taking over the caller's reference.
func (c *context) wrapBlock(fn string, b *sharedmem.Block, exception *uintptr) uintptr {
	defer b.Release() // Wrap took the wrapper's own reference
	o, err := sharedmem.Wrap(c.rt, b)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	return c.newValue(o)
}

//export ZJSSharedArrayBufferCreate
func ZJSSharedArrayBufferCreate(ctx, byteLength uintptr, exception *uintptr) (result uintptr) {
	const fn = "ZJSSharedArrayBufferCreate"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	if uint64(byteLength) > uint64(sharedmem.MaxByteLength) {
		c.throw(exception, sharedError(fn, sharedmem.ErrTooLarge))
		return 0
	}
	b, err := sharedmem.NewBlock(int(byteLength), -1)
	if err != nil {
		c.throw(exception, sharedError(fn, err))
		return 0
	}
	return c.wrapBlock(fn, b, exception)
}

//export ZJSSharedArrayBufferCreateWithBytesNoCopy
func ZJSSharedArrayBufferCreateWithBytesNoCopy(ctx uintptr, bytes unsafe.Pointer, byteLength uintptr,
	bytesDeallocator, deallocatorContext uintptr, exception *uintptr) (result uintptr) {
	const fn = "ZJSSharedArrayBufferCreateWithBytesNoCopy"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		deallocateNow(bytes, bytesDeallocator, deallocatorContext)
		return 0
	}
	if uint64(byteLength) > uint64(sharedmem.MaxByteLength) {
		err = sharedmem.ErrTooLarge
	} else if bytes == nil && byteLength > 0 {
		err = &jsError{ctor: "TypeError", msg: fn + ": bytes is NULL with a byteLength of " + fmt.Sprint(byteLength)}
	}
	var b *sharedmem.Block
	if err == nil {
		b, err = sharedmem.NewExternalBlock(bytes, int(byteLength), func() {
			deallocateNow(bytes, bytesDeallocator, deallocatorContext)
		})
	}
	if err != nil {
		deallocateNow(bytes, bytesDeallocator, deallocatorContext) // as for the other NoCopy calls
		c.throw(exception, sharedError(fn, err))
		return 0
	}
	return c.wrapBlock(fn, b, exception)
}

//export ZJSSharedArrayBufferGetBytesPtr
func ZJSSharedArrayBufferGetBytesPtr(ctx, buffer uintptr, byteLength *uintptr, exception *uintptr) (result uintptr) {
	const fn = "ZJSSharedArrayBufferGetBytesPtr"
	defer fence(fn, ctx, exception)
	if byteLength != nil {
		*byteLength = 0
	}
	c, o, ok := objectCall(fn, ctx, buffer, exception)
	if !ok {
		return 0
	}
	b, ok := sharedmem.BlockOf(c.rt, o)
	if !ok {
		c.throw(exception, &jsError{ctor: "TypeError", msg: fn + ": object is not a SharedArrayBuffer"})
		return 0
	}
	if byteLength != nil {
		*byteLength = uintptr(b.ByteLength())
	}
	return uintptr(b.Base()) // an integer, as the other BytesPtr functions: cgo's checks never see Go memory
}

//export ZJSAtomicsNotify
func ZJSAtomicsNotify(address unsafe.Pointer, count uintptr) (result uintptr) {
	defer fence("ZJSAtomicsNotify", 0, nil)
	n := -1 // SIZE_MAX and anything beyond int: all
	if uint64(count) <= uint64(^uint(0)>>1) {
		n = int(count)
	}
	return uintptr(sharedmem.NotifyAddress(uintptr(address), n))
}
