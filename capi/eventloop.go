package capi

// #include "capi.h"
import "C"

import (
	"math"
	"time"
)

// The main context's event loop (ZJSContextRunPendingEvents): what JavaScript-created workers, MessagePorts and
// BroadcastChannels deliver into a main context waits in the event loop of its core.HostRealm until the host runs
// it here, on the context's owner thread.

// ZJSContextRunPendingEvents runs ctx's pending events for up to timeoutMs milliseconds (0: only those ready,
// negative: until nothing ref'd is left). It returns 1 when more events may come, 0 when the loop is dry, -1 when
// ctx is not a live context of the calling thread.
//
//export ZJSContextRunPendingEvents
func ZJSContextRunPendingEvents(ctx uintptr, timeoutMs int32) (result int32) {
	const fn = "ZJSContextRunPendingEvents"
	result = -1
	defer fence(fn, ctx, nil)
	c, err := enter(fn, ctx)
	if err != nil || c.host == nil { // a worker's context: its worker runs the loop
		return -1
	}
	timeout := time.Duration(timeoutMs) * time.Millisecond
	if timeoutMs < 0 {
		timeout = time.Duration(math.MinInt64)
	}
	alive := c.host.RunPending(timeout) // endpoint sessions' commands run here too
	// Answers of awaitPromise evaluations that settled in the events' microtasks.
	c.flushInspector()
	if alive {
		return 1
	}
	return 0
}

// closeEventLoop closes the context's realm as the context is destroyed: the workers its JavaScript created are
// terminated and waited for, its ports and channels closed, it is unlisted from the endpoint and its inspector
// sessions are told (endInspectorSessions then delivers their last messages).
func closeEventLoop(c *context) { c.host.Close() }
