package capi

/*
#include <stdlib.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/dop251/goja"

	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
)

// The JSON calls move a message as text: ZJSWorkerPostJSON turns the host's JSON text straight into a frame and
// ZJSWorkerReceiveJSON turns a frame straight into JSON text, so a host whose data already is text makes one library
// entry per message and no value handles, and no goja object is made on the host's side (json_frame.go,
// json_text.go).

// jsonPost is ZJSWorkerPostJSON without the fence.
func jsonPost(fn string, worker, ctx uintptr, text unsafe.Pointer, length uintptr, exc *uintptr) bool {
	c, wr, ok := workerCall(fn, worker, ctx, exc)
	if !ok {
		return false
	}
	if text == nil && length > 0 {
		c.throw(exc, fmt.Errorf("%s: json is NULL but the length is %d", fn, length))
		return false
	}
	var b []byte
	if length > 0 {
		b = unsafe.Slice((*byte)(text), length)
	}
	f, err := jsonToFrame(b, wr.w.Inbox().Limits().MaxFrameBytes)
	if err == nil {
		err = wr.w.PostFrame(f)
	}
	if err != nil {
		var se *jsonSyntaxError
		if errors.As(err, &se) {
			err = &jsError{ctor: "SyntaxError", msg: fn + ": invalid JSON: " + se.Error()}
		} else {
			err = postCause(fn, wr, err)
		}
		c.throw(exc, err)
		return false
	}
	return true
}

//export ZJSWorkerPostJSON
func ZJSWorkerPostJSON(worker, ctx uintptr, json unsafe.Pointer, length uintptr, exception *uintptr) (result bool) {
	defer fence("ZJSWorkerPostJSON", ctx, exception)
	return jsonPost("ZJSWorkerPostJSON", worker, ctx, json, length, exception)
}

// jsonBuffers recycles the Go-side buffer the JSON text is written into before it is copied to C memory.
var jsonBuffers = sync.Pool{New: func() any { return new([]byte) }}

// jsonReceive is ZJSWorkerReceiveJSON without the fence. It returns the text's C copy, or nil.
func jsonReceive(fn string, worker, ctx uintptr, timeoutMs uint64, length *uintptr, exc *uintptr) unsafe.Pointer {
	if length != nil {
		*length = 0
	}
	c, wr, ok := workerCall(fn, worker, ctx, exc)
	if !ok {
		return nil
	}
	f, err := receiveFrame(wr.w, timeout(timeoutMs))
	switch {
	case errors.Is(err, core.ErrNoMessage), errors.Is(err, core.ErrClosed):
		return nil
	case err != nil:
		c.throw(exc, err)
		return nil
	}
	buf := jsonBuffers.Get().(*[]byte)
	defer func() {
		if cap(*buf) <= 1<<20 { // keep small buffers only
			*buf = (*buf)[:0]
			jsonBuffers.Put(buf)
		}
	}()
	text, undefined, fast := frameJSON(f.Bytes(), (*buf)[:0])
	if fast {
		f.Release()
		*buf = text
	} else {
		text, undefined, err = c.stringifyFrame(f) // consumes f
		if err != nil {
			c.throw(exc, err)
			return nil
		}
	}
	if undefined {
		c.throw(exc, &jsError{ctor: "TypeError", msg: fn + ": the message is undefined, which has no JSON text"})
		return nil
	}
	p := C.malloc(C.size_t(len(text) + 1))
	if p == nil {
		c.throw(exc, &jsError{ctor: "RangeError", msg: fn + ": out of memory"})
		return nil
	}
	out := unsafe.Slice((*byte)(p), len(text)+1)
	copy(out, text)
	out[len(text)] = 0
	if length != nil {
		*length = uintptr(len(text))
	}
	return p
}

// stringifyFrame is ZJSWorkerReceiveJSON's full path: the frame's value is deserialized into c's realm and given to
// the realm's builtin JSON.stringify. undefined is true when JSON.stringify returns undefined.
func (c *context) stringifyFrame(f *clone.Frame) (text []byte, undefined bool, err error) {
	v, err := clone.Deserialize(c.rt, f)
	if err != nil {
		return nil, false, err
	}
	s, err := c.call(c.in.jsonStringify, goja.Undefined(), v) // the builtin, captured with the context
	if err != nil {
		return nil, false, err
	}
	if s == nil || goja.IsUndefined(s) {
		return nil, true, nil
	}
	return []byte(s.String()), false, nil
}

//export ZJSWorkerReceiveJSON
func ZJSWorkerReceiveJSON(worker, ctx uintptr, timeoutMs uint64, length *uintptr, exception *uintptr) (result unsafe.Pointer) {
	defer fence("ZJSWorkerReceiveJSON", ctx, exception)
	return jsonReceive("ZJSWorkerReceiveJSON", worker, ctx, timeoutMs, length, exception)
}

// cFree frees C memory the library allocated with malloc, for the package's tests (Go test files cannot use cgo).
func cFree(p unsafe.Pointer) { C.free(p) }
