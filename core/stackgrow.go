package core

// A worker's goroutine starts with Go's smallest stack (2 KiB) and the stack doubles, by copying, each time a call
// needs more. Setting up a realm with an extension (the Node layer: require, worker_threads, the port) goes 16 KiB
// deep, so its stack was copied at 4, 8 and 16 KiB, the last copies deep in goja's recursion, where every frame is
// walked to adjust its pointers: ~50 µs of CPU per Node-style worker (idle_many.js, runtime.copystack ~4 % of the
// run). Growing the stack once at the goroutine's start, while it is two frames deep, costs one small copy; the
// stack is then what the setup would have made it anyway (measured: 16 KiB either way, with the collector off),
// and the collector shrinks it as before once the worker idles. A worker without an extension peaks at 8 KiB and
// is left alone.

// setupStackBytes is the frame presizeStack takes: with what is below it and the guard, the stack becomes 16 KiB.
const setupStackBytes = 12 << 10

// presizeStack grows the calling goroutine's stack to 16 KiB in one copy. seed only keeps the compiler from
// dropping the frame.
//
//go:noinline
func presizeStack(seed int) byte {
	var frame [setupStackBytes]byte
	frame[seed%len(frame)] = byte(seed)
	return frame[(seed*7)%len(frame)]
}
