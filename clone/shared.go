package clone

import (
	"sync/atomic"

	"github.com/dop251/goja"
)

// A SharedToken names one SharedArrayBuffer in transit: 128 random bits,
// valid for one Attach.
type SharedToken [16]byte

// SharedMemory is the hook through which package sharedmem lets frames carry
// SharedArrayBuffers by reference. clone defines the wire side (the tag 'u'
// and the manifest entry that holds the token, see doc.go); the
// implementation owns the memory, the tokens and their registry.
//
// Until an implementation is registered with SetSharedMemory no
// SharedArrayBuffer exists in any realm, Serialize never writes one, and
// Deserialize rejects a frame that holds one with a *DataCloneError
// ("SharedArrayBuffer is not supported yet").
//
// The life of one SharedArrayBuffer in a message:
//
//  1. Serialize (on the sender's goroutine) calls IsShared for every
//     ArrayBuffer object it meets; for a shared one it calls Share once and
//     writes the token into the frame's manifest. The returned Ref joins the
//     frame's references.
//  2. Deserialize (on the receiver's goroutine) calls Attach once per
//     token, in manifest order, before it builds the value, and checks that
//     the returned object is an ArrayBuffer of at least byteLength bytes (a
//     growable SharedArrayBuffer may have grown since it was sent).
//  3. Frame.Release (after Deserialize, or when the frame is dropped
//     unread) calls each Ref's Release exactly once, whether or not Attach
//     ran. A token must be usable at most once: a forged, replayed or
//     already released token must make Attach fail.
type SharedMemory interface {
	// IsShared reports whether o, an ArrayBuffer object of rt, is a
	// SharedArrayBuffer. It runs no JavaScript.
	IsShared(rt *goja.Runtime, o *goja.Object) bool

	// Share issues a single-use token for the memory of the
	// SharedArrayBuffer o and returns its current byte length and a
	// reference that keeps the memory alive until the frame is released.
	// Growability and maximum length belong to the memory, not to the
	// frame: Attach's buffer has them.
	Share(rt *goja.Runtime, o *goja.Object) (tok SharedToken, byteLength int, ref Ref, err error)

	// Attach consumes tok and returns a SharedArrayBuffer of rt over the
	// memory it names.
	Attach(rt *goja.Runtime, tok SharedToken, byteLength int) (*goja.Object, error)
}

var sharedHook atomic.Pointer[SharedMemory]

// SetSharedMemory registers the SharedArrayBuffer implementation; package
// sharedmem calls it from an init function. A nil s unregisters it (for
// tests).
func SetSharedMemory(s SharedMemory) {
	if s == nil {
		sharedHook.Store(nil)
		return
	}
	sharedHook.Store(&s)
}

// sharedMemory returns the registered implementation, or nil.
func sharedMemory() SharedMemory {
	if p := sharedHook.Load(); p != nil {
		return *p
	}
	return nil
}
