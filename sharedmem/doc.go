// Package sharedmem will provide SharedArrayBuffer and Atomics for every
// worker realm: a shared byte block owned jointly by every realm (and every
// in-flight frame) that references it, a per-realm SharedArrayBuffer
// constructor over it, and the Atomics namespace on real hardware atomics,
// with Atomics.wait woken by notify, timeout or the worker's terminate.
//
// It is not implemented yet (see the shared-memory issue). Until then
// goja's realms have neither global, and package clone rejects what it
// cannot send. The hooks it will plug into already exist: clone.Ref for the
// references a frame carries (released exactly once by Frame.Release), and
// core.Worker.Terminating for interruptible waits.
package sharedmem
