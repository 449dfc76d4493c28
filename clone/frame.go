package clone

import (
	"errors"
	"sync/atomic"
)

// ErrFrameTooLarge is returned when a value would serialize to more bytes than
// the cap the caller gave, or when a frame is larger than a channel accepts.
// Serialize stops as soon as the cap is crossed: an oversized frame is never
// materialized.
var ErrFrameTooLarge = errors.New("jsworker: frame too large")

// Ref is something a frame holds besides its bytes: a reference that must be
// given back exactly once when the frame is consumed or dropped. The
// shared-memory package implements it for SharedArrayBuffer storage handed
// from one realm to another.
type Ref interface {
	// Release gives the reference back. Frame.Release calls it at most once.
	Release()
}

// A Frame is one serialized message: the bytes of the wire format (see
// doc.go), the memory of the ArrayBuffers it transfers, and the references
// it carries (shared memory). A frame belongs to no runtime; it can cross
// goroutines freely. Exactly one owner holds a frame at a time: whoever
// creates it, then the channel it was pushed into, then the reader that
// popped it. The owner either hands it on or calls Release.
//
// A Frame must not be copied after first use.
type Frame struct {
	data []byte
	x    *frameExtra // what few frames carry besides bytes; nil for most

	// aligned says that data starts on an 8-byte boundary and is owned by
	// the frame alone: Serialize made it. The reader may then use an
	// ArrayBuffer's bytes in place instead of copying them. That is safe
	// because bytes are recycled (recycle) only when the reader did not.
	aligned bool

	// recycle says that data is a pooled large buffer (bufpool.go) that
	// Deserialize gives back once it has read it, unless it used some of
	// it in place.
	recycle bool

	released atomic.Bool
}

// frameExtra is the part of a frame that only frames with references,
// transferred memory or MessagePorts have, kept apart so that the Frame of
// an ordinary message stays small (it is allocated once per message).
type frameExtra struct {
	refs    []Ref
	buffers [][]byte    // memory of transferred ArrayBuffers, in manifest order
	exts    []*External // per buffer: the external memory's reference the frame holds, or nil (external.go)

	// ticket is set by SerializeTransfer until the sender commits.
	ticket *transferTicket
}

// extra returns f's frameExtra, making it if needed.
func (f *Frame) extra() *frameExtra {
	if f.x == nil {
		f.x = new(frameExtra)
	}
	return f.x
}

// NewFrame returns a frame owning data and refs. The caller must not use data
// afterwards. It is meant for the serializer and for tests; most callers get
// frames from Serialize. A frame made by NewFrame carries no transferred
// memory, so its manifest must not list transferred ArrayBuffers.
func NewFrame(data []byte, refs ...Ref) *Frame {
	f := &Frame{data: data}
	if len(refs) > 0 {
		f.extra().refs = refs
	}
	return f
}

// Bytes returns the frame's wire bytes. They stay valid until Release.
// Transferred ArrayBuffers are not in them: their memory travels beside.
func (f *Frame) Bytes() []byte { return f.data }

// Len returns the number of wire bytes, the size that channel limits count.
// The memory of transferred ArrayBuffers is not counted: it is moved, not
// copied.
func (f *Frame) Len() int {
	if f == nil {
		return 0
	}
	return len(f.data)
}

// Released reports whether Release has been called.
func (f *Frame) Released() bool { return f.released.Load() }

// Release drops the frame's bytes and transferred memory and releases every
// reference it carries. The first call does the work; later calls, and
// calls on a nil frame, are no-ops, so a frame is released exactly once
// however many owners try.
//
// Releasing a frame made by SerializeTransfer before its commit function
// ran means the message was not sent: the sender's ArrayBuffers stay
// attached, and the commit function must then not be called.
func (f *Frame) Release() {
	if f == nil || !f.released.CompareAndSwap(false, true) {
		return
	}
	x := f.x
	f.data, f.x = nil, nil
	if x == nil {
		return
	}
	refs, t, exts := x.refs, x.ticket, x.exts
	if t != nil {
		t.unmark()
	}
	for _, r := range refs {
		r.Release()
	}
	for _, e := range exts {
		if e != nil {
			e.Release()
		}
	}
}
