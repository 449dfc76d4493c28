package clone

import (
	"strconv"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Transfer.
//
// A transferred ArrayBuffer's memory goes into the frame as it is (the same
// backing array, no copy), and the receiver's new ArrayBuffer wraps that
// same memory. The sender's buffer is detached only by the commit function
// that SerializeTransfer returns, which the caller runs once the frame has
// been accepted; a frame that is released instead leaves the sender's
// buffers attached and usable.
//
// Between SerializeTransfer and commit the memory belongs to two buffers.
// That is safe because nothing runs in the sender's realm in between (the
// caller commits right after pushing the frame, before returning to
// JavaScript), and because a buffer listed by a frame not yet committed or
// released cannot be listed again (pending, below).

// pending holds the ArrayBuffers listed by frames whose commit has not run
// and which have not been released. Frames are released on any goroutine,
// hence the lock; the map only compares pointers and never touches a
// runtime.
var pending struct {
	sync.Mutex
	m map[*goja.Object]struct{}
}

// A transferTicket remembers what a SerializeTransfer frame marked pending.
type transferTicket struct {
	objs []*goja.Object
	done bool // guarded by pending
}

// mark marks every object pending, or none if one already is; it reports
// the index of the one already pending, or -1.
func (t *transferTicket) mark() int {
	pending.Lock()
	defer pending.Unlock()
	for i, o := range t.objs {
		if _, busy := pending.m[o]; busy {
			return i
		}
	}
	if pending.m == nil {
		pending.m = make(map[*goja.Object]struct{})
	}
	for _, o := range t.objs {
		pending.m[o] = struct{}{}
	}
	return -1
}

// unmark removes the ticket's marks; later calls do nothing.
func (t *transferTicket) unmark() {
	pending.Lock()
	defer pending.Unlock()
	if t.done {
		return
	}
	t.done = true
	for _, o := range t.objs {
		delete(pending.m, o)
	}
}

// pendingCount returns the number of buffers marked pending (for tests).
func pendingCount() int {
	pending.Lock()
	defer pending.Unlock()
	return len(pending.m)
}

// A transferList is the validated transfer list of one Serialize call.
type transferList struct {
	objs       []*goja.Object
	buffers    []goja.ArrayBuffer
	bufferObjs []*goja.Object          // the ArrayBuffer objects of buffers
	index      map[*goja.Object]uint32 // buffer -> manifest index

	// MessagePorts (port.go): their manifest entries follow the buffers'.
	ports     []*goja.Object
	portIndex map[*goja.Object]uint32 // port -> index in ports
	portToks  []PortToken             // filled by SerializeTransfer once taken
}

// checkTransfer validates the transfer list as the HTML algorithm does
// before serializing anything: every item must be a distinct, attached,
// non-shared ArrayBuffer. It changes nothing.
func checkTransfer(rt *goja.Runtime, list []goja.Value) (*transferList, error) {
	tl := &transferList{index: make(map[*goja.Object]uint32, len(list))}
	shared := sharedMemory()
	var isPort func(*goja.Object) bool
	if h := messagePorts(); h != nil {
		isPort = h.Ports(rt)
	}
	for i, v := range list {
		at := "at index " + strconv.Itoa(i) + " of the transfer list"
		o, ok := v.(*goja.Object)
		if ok && o != nil && isPort != nil && isPort(o) {
			if _, dup := tl.portIndex[o]; dup {
				return nil, &DataCloneError{Message: "the MessagePort " + at + " is listed more than once."}
			}
			if tl.portIndex == nil {
				tl.portIndex = make(map[*goja.Object]uint32)
			}
			tl.portIndex[o] = uint32(len(tl.ports))
			tl.ports = append(tl.ports, o)
			tl.objs = append(tl.objs, o)
			continue
		}
		if !ok || o == nil || !isArrayBuffer(o) {
			what := "only ArrayBuffers are"
			if messagePorts() != nil {
				what = "only ArrayBuffers and MessagePorts are"
			}
			return nil, &DataCloneError{Message: "the value " + at + " is not transferable (" + what + ")."}
		}
		if _, dup := tl.index[o]; dup {
			return nil, &DataCloneError{Message: "the ArrayBuffer " + at + " is listed more than once."}
		}
		if shared != nil && shared.IsShared(rt, o) {
			return nil, &DataCloneError{Message: "the SharedArrayBuffer " + at + " cannot be transferred."}
		}
		ab, _ := o.Export().(goja.ArrayBuffer)
		if ab.Detached() {
			return nil, &DataCloneError{Message: "the ArrayBuffer " + at + " is detached."}
		}
		if uint64(len(ab.Bytes())) > maxVarint {
			return nil, &DataCloneError{Message: "the ArrayBuffer " + at + " is too large to be transferred."}
		}
		tl.index[o] = uint32(len(tl.buffers))
		tl.objs = append(tl.objs, o)
		tl.buffers = append(tl.buffers, ab)
		tl.bufferObjs = append(tl.bufferObjs, o)
	}
	return tl, nil
}

// SerializeTransfer is Serialize with a transfer list whose effect on the
// sender is deferred. The frame takes the memory of every ArrayBuffer in
// opts.Transfer without copying it, but the sender's buffers stay attached
// until the caller runs commit:
//
//	f, commit, err := clone.SerializeTransfer(rt, v, opts)
//	if err != nil { ... }               // nothing changed
//	if err := ch.Push(f); err != nil {  // the channel refused (and released) f:
//		...                             // the sender's buffers are intact
//	} else {
//		commit()                        // now they are detached (byteLength 0)
//	}
//
// The caller must do exactly one of: run commit once the frame is accepted,
// or release the frame without running commit. commit must run on the
// goroutine that owns rt, before any JavaScript runs in rt again (until then
// the sender and the receiver share the memory). commit is never nil; it
// does nothing when the list is empty, and nothing the second time.
//
// The transfer list is validated before anything is serialized: an item
// that is not an ArrayBuffer, a SharedArrayBuffer, a detached buffer, a
// buffer listed twice, or one listed by another frame still waiting for its
// commit fails with a *DataCloneError and changes nothing. Listed buffers
// that the value does not reach are transferred (and detached) too, as the
// HTML algorithm says.
//
// Other errors are those of Serialize. SerializeTransfer must be called on
// the goroutine that owns rt.
func SerializeTransfer(rt *goja.Runtime, v goja.Value, opts Options) (f *Frame, commit func(), err error) {
	var tl *transferList
	if len(opts.Transfer) > 0 {
		if err := gojainternal.Kinds(); err != nil {
			return nil, noCommit, err
		}
		if tl, err = checkTransfer(rt, opts.Transfer); err != nil {
			return nil, noCommit, err
		}
	}
	var t *transferTicket
	if tl != nil {
		t = &transferTicket{objs: tl.objs}
		if i := t.mark(); i >= 0 {
			return nil, noCommit, &DataCloneError{Message: "the object at index " + strconv.Itoa(i) +
				" of the transfer list is already being transferred by another message."}
		}
	}
	var portRefs []Ref
	var portCommits []func()
	if tl != nil && len(tl.ports) > 0 {
		h := messagePorts()
		for _, o := range tl.ports {
			tok, ref, commit, err := h.Take(rt, o)
			if err != nil {
				for _, r := range portRefs {
					r.Release()
				}
				t.unmark()
				return nil, noCommit, err
			}
			tl.portToks = append(tl.portToks, tok)
			portRefs = append(portRefs, ref)
			portCommits = append(portCommits, commit)
		}
	}
	f, err = serialize(rt, v, opts.MaxBytes, tl)
	if err != nil {
		for _, r := range portRefs {
			r.Release()
		}
		if t != nil {
			t.unmark()
		}
		return nil, noCommit, err
	}
	if tl == nil {
		return f, noCommit, nil
	}
	x := f.extra()
	x.refs = append(x.refs, portRefs...)
	x.ticket = t
	// External memory (external.go): the frame takes a reference of its
	// own; the commit tells each sender's holder its buffer is detached.
	var held []ExternalBuffer // parallel to tl.buffers
	for i, o := range tl.bufferObjs {
		if b := externalOf(o); b != nil {
			if held == nil {
				held = make([]ExternalBuffer, len(tl.buffers))
				x.exts = make([]*External, len(tl.buffers))
			}
			held[i] = b
			m := b.Memory()
			m.Retain()
			x.exts[i] = m
		}
	}
	committed := false
	return f, func() {
		if committed {
			return
		}
		committed = true
		for i, ab := range tl.buffers {
			ab.Detach()
			if held != nil && held[i] != nil {
				held[i].Detached()
			}
		}
		for _, c := range portCommits {
			c()
		}
		t.unmark()
	}, nil
}

func noCommit() {}
