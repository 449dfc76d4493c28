package capi

import (
	"errors"
	"time"

	"github.com/dop251/goja"

	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
)

// receiveSpin is how long a blocking receive polls the worker's outbox before it parks its thread (0: it parks at
// once). A C host's thread that parks in the kernel must be woken by a futex when the reply arrives; polling first
// spares that wake when the reply comes within the spin. It is 0 because that did not pay on the measured machine
// (docs/benchmarks.md, "Issue 17: the C ABI message path (c17)"); the benchmarks set it to measure it.
var receiveSpin time.Duration

// receiveFrame takes the oldest frame the worker posted, waiting up to wait (core's timeout), polling for
// receiveSpin first.
func receiveFrame(w *core.Worker, wait time.Duration) (*clone.Frame, error) {
	if wait != 0 && receiveSpin > 0 {
		start := time.Now()
		for time.Since(start) < receiveSpin {
			if f, err := w.ReceiveFrame(0); !errors.Is(err, core.ErrNoMessage) {
				return f, err
			}
		}
		if wait > 0 {
			wait = max(wait-time.Since(start), time.Nanosecond)
		}
	}
	return w.ReceiveFrame(wait)
}

// receiveValue is receiveFrame, then the frame's value deserialized into rt (Worker.Receive with the spin).
func receiveValue(w *core.Worker, rt *goja.Runtime, wait time.Duration) (goja.Value, error) {
	f, err := receiveFrame(w, wait)
	if err != nil {
		return nil, err
	}
	return clone.Deserialize(rt, f)
}
