package clone

import (
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/dop251/goja"
)

// External memory.
//
// An ArrayBuffer may view memory the Go collector does not manage: a C
// host's bytes made into an ArrayBuffer without a copy (capi's NoCopy
// buffers). Transferring such a buffer moves its memory to the receiver
// without a copy, so the memory must stay alive for as long as any realm can
// still reach it. An External is that memory's reference count: every
// ArrayBuffer that views it holds one reference, a frame carrying it holds
// one, and the memory is given back (the free function runs) when the last
// reference goes, on whichever goroutine drops it.
//
// The owner of an ArrayBuffer over external memory registers it with
// RegisterExternal. SerializeTransfer then takes a reference for the frame
// for every such buffer it transfers, and the commit that detaches the
// sender's buffer tells the holder (ExternalBuffer.Detached) so it drops the
// sender's reference at once. Deserialize hands the frame's reference to the
// new ArrayBuffer it builds over the memory; that buffer is registered in
// turn (so it can be transferred on) and gives its reference back when the
// collector finds it unreachable or when it is itself transferred away.
// Frame.Release gives back the references of a frame that was never
// delivered.

// An External is a reference count on memory outside the Go heap. The zero
// value is not usable; make one with NewExternal.
type External struct {
	refs atomic.Int64
	free func()
}

// NewExternal returns an External holding one reference, the caller's.
// free runs exactly once, when the last reference is released, on the
// goroutine that releases it; it must not block for long.
func NewExternal(free func()) *External {
	e := &External{free: free}
	e.refs.Store(1)
	return e
}

// Retain adds a reference. It must only be called by a holder of one.
func (e *External) Retain() { e.refs.Add(1) }

// Release drops a reference; the last one runs free.
func (e *External) Release() {
	switch n := e.refs.Add(-1); {
	case n == 0:
		if e.free != nil {
			e.free()
		}
	case n < 0:
		panic("clone: External released more often than retained")
	}
}

// Refs returns the current number of references (for tests and leak checks).
func (e *External) Refs() int64 { return e.refs.Load() }

// An ExternalBuffer is one ArrayBuffer's hold on external memory, as
// registered with RegisterExternal.
type ExternalBuffer interface {
	// Memory returns the memory the buffer views. The buffer holds a
	// reference to it until Detached or until its owner drops it.
	Memory() *External
	// Detached says the buffer was transferred away and detached: the
	// holder must drop its reference (and its registration) now. It is
	// called on the goroutine that owns the buffer's runtime.
	Detached()
}

// externals maps an ArrayBuffer to its hold on external memory. Keys are
// weak: a registration never keeps a buffer alive.
var externals sync.Map // weak.Pointer[goja.Object] -> ExternalBuffer

// RegisterExternal records that the ArrayBuffer o views external memory
// held by b, so that transferring o carries the memory's reference count
// with it. The holder calls UnregisterExternal when it drops its reference
// other than through Detached.
func RegisterExternal(o *goja.Object, b ExternalBuffer) { externals.Store(weak.Make(o), b) }

// UnregisterExternal forgets o's registration (o may already be collected:
// pass the weak pointer made from it).
func UnregisterExternal(key weak.Pointer[goja.Object]) { externals.Delete(key) }

// externalOf returns o's registered hold on external memory, or nil.
func externalOf(o *goja.Object) ExternalBuffer {
	if v, ok := externals.Load(weak.Make(o)); ok {
		return v.(ExternalBuffer)
	}
	return nil
}

// ExternalCount returns the number of registered buffers (for leak checks).
func ExternalCount() int {
	n := 0
	externals.Range(func(_, _ any) bool { n++; return true })
	return n
}

// An adopted buffer is one Deserialize built over transferred external
// memory. It holds the reference the frame carried.
type adopted struct {
	mem     *External
	key     weak.Pointer[goja.Object]
	done    atomic.Bool
	cleanup runtime.Cleanup
}

func (a *adopted) Memory() *External { return a.mem }

func (a *adopted) Detached() {
	a.cleanup.Stop()
	a.drop()
}

// drop gives the reference back once.
func (a *adopted) drop() {
	if a.done.CompareAndSwap(false, true) {
		externals.Delete(a.key)
		a.mem.Release()
	}
}

// adopt gives o (a new ArrayBuffer over mem's memory) the reference the
// caller holds.
func adopt(o *goja.Object, mem *External) {
	a := &adopted{mem: mem, key: weak.Make(o)}
	a.cleanup = runtime.AddCleanup(o, (*adopted).drop, a)
	externals.Store(a.key, a)
}
