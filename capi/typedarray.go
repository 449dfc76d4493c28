package capi

// #include "capi.h"
import "C"

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"unsafe"
	"weak"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// Typed arrays and ArrayBuffers (JSTypedArray.h). Buffers the library allocates are Go memory that JavaScript and C
// share while the buffer lives (the Go collector never moves it); NoCopy buffers are the host's memory, viewed by a
// goja ArrayBuffer through unsafe.Slice, and given back to the host's deallocator exactly once (extBuffer).

// JSTypedArrayType values (include/jsworker.h), in JavaScriptCore's order.
const (
	taInt8 = iota
	taInt16
	taInt32
	taUint8
	taUint8Clamped
	taUint16
	taUint32
	taFloat32
	taFloat64
	taArrayBuffer
	taNone
	taBigInt64
	taBigUint64
	taCount
)

// taElemSize is the element size of each typed array type (0: not a typed array).
var taElemSize = [taCount]int{1, 2, 4, 1, 1, 2, 4, 4, 8, 0, 0, 8, 8}

// taNames maps the %TypedArray%.prototype[Symbol.toStringTag] of a view to its type.
var taNames = map[string]int32{
	"Int8Array": taInt8, "Int16Array": taInt16, "Int32Array": taInt32, "Uint8Array": taUint8,
	"Uint8ClampedArray": taUint8Clamped, "Uint16Array": taUint16, "Uint32Array": taUint32,
	"Float32Array": taFloat32, "Float64Array": taFloat64, "BigInt64Array": taBigInt64,
	"BigUint64Array": taBigUint64,
}

var arrayBufferType = reflect.TypeFor[goja.ArrayBuffer]()

// arrayBufferOf returns o's goja ArrayBuffer (a SharedArrayBuffer is one too), without converting other objects.
func arrayBufferOf(o *goja.Object) (goja.ArrayBuffer, bool) {
	if o.ExportType() != arrayBufferType {
		return goja.ArrayBuffer{}, false
	}
	ab, ok := o.Export().(goja.ArrayBuffer)
	return ab, ok
}

// typedArrayType classifies v as JSValueGetTypedArrayType does.
func (c *context) typedArrayType(v goja.Value) int32 {
	o, isObj := v.(*goja.Object)
	if !isObj {
		return taNone
	}
	if _, ok := arrayBufferOf(o); ok {
		return taArrayBuffer
	}
	tag, err := c.x.in.taTag(o) // the intrinsic getter: undefined for anything but a typed array
	if err != nil {
		return taNone
	}
	if t, ok := taNames[tag.String()]; ok && !goja.IsUndefined(tag) {
		return t
	}
	return taNone
}

// typedArray resolves an object parameter that must be a typed array.
func typedArray(fn string, ctx, object uintptr, exception *uintptr) (*context, *goja.Object, bool) {
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return c, nil, false
	}
	if t := c.typedArrayType(o); t == taNone || t == taArrayBuffer {
		c.throw(exception, errors.New(fn+": object is not a typed array"))
		return c, nil, false
	}
	return c, o, true
}

// arrayBuffer resolves an object parameter that must be an ArrayBuffer.
func arrayBuffer(fn string, ctx, object uintptr, exception *uintptr) (*context, goja.ArrayBuffer, bool) {
	c, o, ok := objectCall(fn, ctx, object, exception)
	if !ok {
		return c, goja.ArrayBuffer{}, false
	}
	ab, ok := arrayBufferOf(o)
	if !ok {
		c.throw(exception, errors.New(fn+": object is not an ArrayBuffer"))
		return c, goja.ArrayBuffer{}, false
	}
	return c, ab, true
}

// viewCtor returns the constructor of a typed array type, or an error naming the bad type.
func (c *context) viewCtor(fn string, arrayType int32) (*goja.Object, error) {
	if arrayType < 0 || arrayType >= taCount || c.x.in.taCtors[arrayType] == nil {
		return nil, fmt.Errorf("%s: arrayType %d is not a typed array type", fn, arrayType)
	}
	return c.x.in.taCtors[arrayType], nil
}

// An extBuffer is one context's hold on the host memory behind a NoCopy ArrayBuffer. The memory itself is a
// clone.External, a reference count whose last release runs the deallocator: the context's ArrayBuffer holds one
// reference, and a transfer (postMessage, structuredClone, ZJSWorkerPostMessageWithTransfer) hands one to the frame
// and from there to the receiving realm's buffer (clone/external.go), so the memory lives as long as any realm can
// reach it. The context drops its reference on its owner thread: when the transfer detaches its buffer (Detached),
// at the first safe point after the collector found the ArrayBuffer unreachable (realm_ext.go), or at the latest in
// the last JSGlobalContextRelease of its context. A buffer that never left its context therefore gets its
// deallocator on the owner thread; one that was transferred gets it wherever the last reference goes.
type extBuffer struct {
	key     weak.Pointer[goja.Object] // the ArrayBuffer, in c.x.extObjs
	c       *context
	mem     *clone.External
	done    bool // owner thread only
	dq      *deathQueue
	cleanup runtime.Cleanup
}

// queue is where the record goes when the collector finds the ArrayBuffer unreachable.
func (b *extBuffer) queue() *deathQueue { return b.dq }

// finalize drops the context's reference if it has not yet.
func (b *extBuffer) finalize(c *context) {
	if b.done {
		return
	}
	b.done = true
	b.cleanup.Stop()
	delete(c.x.buffers, b)
	delete(c.x.extObjs, b.key)
	clone.UnregisterExternal(b.key)
	b.mem.Release()
}

// Memory is clone.ExternalBuffer's: the memory the buffer views.
func (b *extBuffer) Memory() *clone.External { return b.mem }

// Detached is clone.ExternalBuffer's: a transfer detached the buffer (on the owner thread, in the sender's commit).
func (b *extBuffer) Detached() { b.finalize(b.c) }

// deallocateNow gives bytes back at once: the NoCopy call failed (JavaScriptCore calls the deallocator then too).
func deallocateNow(bytes unsafe.Pointer, dealloc, dctx uintptr) {
	if dealloc != 0 {
		C.jsw_call_dealloc(C.uintptr_t(dealloc), C.uintptr_t(uintptr(bytes)), C.uintptr_t(dctx))
	}
}

// externalBuffer makes an ArrayBuffer over the host's byteLength bytes at bytes.
func (c *context) externalBuffer(bytes unsafe.Pointer, byteLength, dealloc, dctx uintptr) *goja.Object {
	var data []byte
	if bytes != nil && byteLength > 0 {
		data = unsafe.Slice((*byte)(bytes), byteLength)
	} else {
		data = []byte{}
	}
	o := c.rt.ToValue(c.rt.NewArrayBuffer(data)).(*goja.Object)
	b := &extBuffer{c: c, dq: c.x.dead, key: weak.Make(o), mem: clone.NewExternal(func() {
		deallocateNow(bytes, dealloc, dctx)
	})}
	b.cleanup = c.watch(o, b)
	c.x.buffers[b] = struct{}{}
	c.x.extObjs[b.key] = b
	clone.RegisterExternal(o, b)
	return o
}

//export JSObjectMakeTypedArray
func JSObjectMakeTypedArray(ctx uintptr, arrayType int32, length uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeTypedArray"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		return 0
	}
	ctor, err := c.viewCtor(fn, arrayType)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	o, err := c.construct(ctor, c.rt.ToValue(float64(length)))
	return c.finish(o, err, exception)
}

//export JSObjectMakeTypedArrayWithBytesNoCopy
func JSObjectMakeTypedArrayWithBytesNoCopy(ctx uintptr, arrayType int32, bytes unsafe.Pointer, byteLength uintptr,
	bytesDeallocator, deallocatorContext uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeTypedArrayWithBytesNoCopy"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		deallocateNow(bytes, bytesDeallocator, deallocatorContext)
		return 0
	}
	ctor, err := c.viewCtor(fn, arrayType)
	if err == nil {
		err = checkExternal(fn, bytes, byteLength, taElemSize[arrayType])
	}
	if err != nil {
		deallocateNow(bytes, bytesDeallocator, deallocatorContext)
		c.throw(exception, err)
		return 0
	}
	ab := c.externalBuffer(bytes, byteLength, bytesDeallocator, deallocatorContext)
	o, err := c.construct(ctor, ab)
	return c.finish(o, err, exception)
}

// checkExternal refuses host memory a view of elemSize cannot cover: a length that is not a whole number of
// elements, or a start not aligned to the element size (goja reads elements through typed pointers).
func checkExternal(fn string, bytes unsafe.Pointer, byteLength uintptr, elemSize int) error {
	switch {
	case bytes == nil && byteLength > 0:
		return fmt.Errorf("%s: bytes is NULL but byteLength is %d", fn, byteLength)
	case byteLength%uintptr(elemSize) != 0:
		return &jsError{ctor: "RangeError", msg: fmt.Sprintf("%s: byteLength %d is not a multiple of the element size %d", fn, byteLength, elemSize)}
	case uintptr(bytes)%uintptr(elemSize) != 0:
		return &jsError{ctor: "RangeError", msg: fmt.Sprintf("%s: bytes is not aligned to the element size %d", fn, elemSize)}
	case byteLength > 1<<53:
		return &jsError{ctor: "RangeError", msg: fn + ": byteLength is too large"}
	}
	return nil
}

//export JSObjectMakeArrayBufferWithBytesNoCopy
func JSObjectMakeArrayBufferWithBytesNoCopy(ctx uintptr, bytes unsafe.Pointer, byteLength uintptr,
	bytesDeallocator, deallocatorContext uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeArrayBufferWithBytesNoCopy"
	defer fence(fn, ctx, exception)
	c, err := enter(fn, ctx)
	if err != nil {
		deallocateNow(bytes, bytesDeallocator, deallocatorContext)
		return 0
	}
	if err := checkExternal(fn, bytes, byteLength, 1); err != nil {
		deallocateNow(bytes, bytesDeallocator, deallocatorContext)
		c.throw(exception, err)
		return 0
	}
	return c.newValue(c.externalBuffer(bytes, byteLength, bytesDeallocator, deallocatorContext))
}

// viewOnBuffer makes a typed array of arrayType over an ArrayBuffer parameter: new Ctor(buffer, ...rest).
func viewOnBuffer(fn string, ctx uintptr, arrayType int32, buffer uintptr, exception *uintptr,
	rest ...uintptr) uintptr {
	c, o, ok := objectCall(fn, ctx, buffer, exception)
	if !ok {
		return 0
	}
	if _, isAB := arrayBufferOf(o); !isAB {
		c.throw(exception, errors.New(fn+": buffer is not an ArrayBuffer"))
		return 0
	}
	ctor, err := c.viewCtor(fn, arrayType)
	if err != nil {
		c.throw(exception, err)
		return 0
	}
	args := []goja.Value{o}
	for _, n := range rest {
		args = append(args, c.rt.ToValue(float64(n)))
	}
	v, err := c.construct(ctor, args...)
	return c.finish(v, err, exception)
}

//export JSObjectMakeTypedArrayWithArrayBuffer
func JSObjectMakeTypedArrayWithArrayBuffer(ctx uintptr, arrayType int32, buffer uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeTypedArrayWithArrayBuffer"
	defer fence(fn, ctx, exception)
	return viewOnBuffer(fn, ctx, arrayType, buffer, exception)
}

//export JSObjectMakeTypedArrayWithArrayBufferAndOffset
func JSObjectMakeTypedArrayWithArrayBufferAndOffset(ctx uintptr, arrayType int32, buffer, byteOffset, length uintptr,
	exception *uintptr) (result uintptr) {
	const fn = "JSObjectMakeTypedArrayWithArrayBufferAndOffset"
	defer fence(fn, ctx, exception)
	return viewOnBuffer(fn, ctx, arrayType, buffer, exception, byteOffset, length)
}

// viewGetter runs one of the %TypedArray%.prototype getters on a typed array parameter.
func viewGetter(fn string, ctx, object uintptr, exception *uintptr, get func(*extIntrinsics) goja.Callable) (*context, goja.Value) {
	c, o, ok := typedArray(fn, ctx, object, exception)
	if !ok {
		return c, nil
	}
	v, err := get(&c.x.in)(o)
	if err != nil {
		c.throw(exception, err)
		return c, nil
	}
	return c, v
}

// bytesPtr is the address of b's first byte, or 0 for an empty or detached buffer.
func bytesPtr(b []byte) uintptr {
	if len(b) == 0 {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}

//export JSObjectGetTypedArrayBytesPtr
func JSObjectGetTypedArrayBytesPtr(ctx, object uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetTypedArrayBytesPtr"
	defer fence(fn, ctx, exception)
	_, v := viewGetter(fn, ctx, object, exception, func(in *extIntrinsics) goja.Callable { return in.taBuffer })
	if v == nil {
		return 0
	}
	ab, _ := arrayBufferOf(v.(*goja.Object))
	return bytesPtr(ab.Bytes()) // the start of the view's buffer, as in JavaScriptCore
}

// viewNumber returns one of a typed array's sizes.
func viewNumber(fn string, ctx, object uintptr, exception *uintptr, get func(*extIntrinsics) goja.Callable) uintptr {
	_, v := viewGetter(fn, ctx, object, exception, get)
	if v == nil {
		return 0
	}
	return uintptr(v.ToInteger())
}

//export JSObjectGetTypedArrayLength
func JSObjectGetTypedArrayLength(ctx, object uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetTypedArrayLength"
	defer fence(fn, ctx, exception)
	return viewNumber(fn, ctx, object, exception, func(in *extIntrinsics) goja.Callable { return in.taLength })
}

//export JSObjectGetTypedArrayByteLength
func JSObjectGetTypedArrayByteLength(ctx, object uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetTypedArrayByteLength"
	defer fence(fn, ctx, exception)
	return viewNumber(fn, ctx, object, exception, func(in *extIntrinsics) goja.Callable { return in.taByteLength })
}

//export JSObjectGetTypedArrayByteOffset
func JSObjectGetTypedArrayByteOffset(ctx, object uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetTypedArrayByteOffset"
	defer fence(fn, ctx, exception)
	return viewNumber(fn, ctx, object, exception, func(in *extIntrinsics) goja.Callable { return in.taByteOff })
}

//export JSObjectGetTypedArrayBuffer
func JSObjectGetTypedArrayBuffer(ctx, object uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetTypedArrayBuffer"
	defer fence(fn, ctx, exception)
	c, v := viewGetter(fn, ctx, object, exception, func(in *extIntrinsics) goja.Callable { return in.taBuffer })
	if v == nil {
		return 0
	}
	return c.newValue(v)
}

//export JSObjectGetArrayBufferBytesPtr
func JSObjectGetArrayBufferBytesPtr(ctx, object uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetArrayBufferBytesPtr"
	defer fence(fn, ctx, exception)
	_, ab, ok := arrayBuffer(fn, ctx, object, exception)
	if !ok {
		return 0
	}
	return bytesPtr(ab.Bytes())
}

//export JSObjectGetArrayBufferByteLength
func JSObjectGetArrayBufferByteLength(ctx, object uintptr, exception *uintptr) (result uintptr) {
	const fn = "JSObjectGetArrayBufferByteLength"
	defer fence(fn, ctx, exception)
	_, ab, ok := arrayBuffer(fn, ctx, object, exception)
	if !ok {
		return 0
	}
	return uintptr(len(ab.Bytes()))
}

//export JSValueGetTypedArrayType
func JSValueGetTypedArrayType(ctx, value uintptr, exception *uintptr) (result int32) {
	const fn = "JSValueGetTypedArrayType"
	result = taNone
	defer fence(fn, ctx, exception)
	c, v, ok := valueOf(fn, ctx, value)
	if !ok {
		if c != nil {
			_, err := c.jsValue(fn, "value", value)
			c.throw(exception, err)
		}
		return taNone
	}
	return c.typedArrayType(v)
}
