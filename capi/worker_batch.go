package capi

/*
#include "capi.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/jsworker/jsworker/core"
)

// The batch calls move many messages per C→Go transition: a host that posts or drains in bursts pays the cgo entry,
// the handle look-ups of the worker and context, and the deferred fence once per batch instead of once per message.

//export ZJSWorkerPostMessages
func ZJSWorkerPostMessages(worker, ctx, count uintptr, values *uintptr, exception *uintptr) (result uintptr) {
	const fn = "ZJSWorkerPostMessages"
	defer fence(fn, ctx, exception)
	c, wr, ok := workerCall(fn, worker, ctx, exception)
	if !ok || count == 0 {
		return 0
	}
	if values == nil {
		c.throw(exception, fmt.Errorf("%s: values is NULL but the count is %d", fn, count))
		return 0
	}
	hs := unsafeSlice(values, count)
	for i, h := range hs { // every handle checked first: an invalid one posts nothing
		if _, err := c.jsValue(fn, "values", h); err != nil {
			_, err = c.jsValue(fn, fmt.Sprintf("values[%d]", i), h)
			c.throw(exception, err)
			return 0
		}
	}
	for i, h := range hs {
		v, _ := c.jsValue(fn, "values", h)
		if err := wr.w.PostMessage(c.rt, v); err != nil {
			c.throw(exception, postCause(fn, wr, err))
			return uintptr(i)
		}
	}
	return count
}

//export ZJSWorkerReceiveMessages
func ZJSWorkerReceiveMessages(worker, ctx uintptr, timeoutMs uint64, limit uintptr, values *uintptr, exception *uintptr) (result uintptr) {
	const fn = "ZJSWorkerReceiveMessages"
	defer fence(fn, ctx, exception)
	c, wr, ok := workerCall(fn, worker, ctx, exception)
	if !ok || limit == 0 {
		return 0
	}
	if values == nil {
		c.throw(exception, fmt.Errorf("%s: values is NULL but max is %d", fn, limit))
		return 0
	}
	out := unsafeSlice(values, limit)
	wait := timeout(timeoutMs)
	n := uintptr(0)
	for n < limit {
		v, err := receiveValue(wr.w, c.rt, wait)
		switch {
		case err == nil:
			out[n] = c.newValue(v)
			n++
			wait = 0 // after the first message, only those already queued
			continue
		case errors.Is(err, core.ErrNoMessage), errors.Is(err, core.ErrClosed):
		default:
			c.throw(exception, err)
		}
		break
	}
	return n
}

//export ZJSSetGCPercent
func ZJSSetGCPercent(percent int32) (result int32) {
	defer fence("ZJSSetGCPercent", 0, nil)
	return int32(debug.SetGCPercent(int(percent)))
}
