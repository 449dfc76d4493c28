package clone

import (
	"sync/atomic"

	"github.com/dop251/goja"
)

// A PortToken names one MessagePort in transit: 128 random bits, valid for
// one Attach.
type PortToken [16]byte

// MessagePorts is the hook through which package core lets frames carry
// MessagePorts in their transfer list. clone defines the wire side (the
// manifest entry 'p' holding the token and the value tag 'p', see doc.go);
// the implementation owns the ports, their message queues and the tokens.
//
// Until an implementation is registered with SetMessagePorts no object is a
// MessagePort to Serialize, and Deserialize rejects a frame that holds one
// with a *DataCloneError.
//
// The life of one MessagePort in a message:
//
//  1. SerializeTransfer (on the sender's goroutine) calls Ports once; for
//     every transfer-list item that function accepts it calls Take, which
//     issues the token the manifest holds, the Ref the frame keeps, and the
//     commit that SerializeTransfer's own commit runs once the frame is
//     accepted (the port then leaves the sender's realm for good). A port
//     met while walking the value must be in the transfer list; otherwise
//     Serialize fails with a *DataCloneError.
//  2. Deserialize (on the receiver's goroutine) calls Attach once per token,
//     in manifest order, before it builds the value.
//  3. Frame.Release calls each Ref's Release exactly once, whether or not
//     Attach ran. Released before its commit ran, the port stays with the
//     sender; released after the commit but never attached, the port is
//     gone and must be closed. A token must be usable at most once.
type MessagePorts interface {
	// Ports returns a function that tells whether an object of rt is one
	// of its MessagePorts, or nil when rt has none. It runs no JavaScript.
	Ports(rt *goja.Runtime) func(o *goja.Object) bool

	// Take prepares port o of rt to travel in one frame. It fails (with a
	// *DataCloneError) for a port that cannot be transferred.
	Take(rt *goja.Runtime, o *goja.Object) (tok PortToken, ref Ref, commit func(), err error)

	// Attach consumes tok and returns a MessagePort of rt entangled with
	// the peer of the port that was sent.
	Attach(rt *goja.Runtime, tok PortToken) (*goja.Object, error)
}

var portHook atomic.Pointer[MessagePorts]

// SetMessagePorts registers the MessagePort implementation; package core
// calls it from an init function. A nil p unregisters it (for tests).
func SetMessagePorts(p MessagePorts) {
	if p == nil {
		portHook.Store(nil)
		return
	}
	portHook.Store(&p)
}

// messagePorts returns the registered implementation, or nil.
func messagePorts() MessagePorts {
	if p := portHook.Load(); p != nil {
		return *p
	}
	return nil
}

// writePort writes a MessagePort met in the value: a reference to its
// manifest entry when it is in the transfer list, else a DataCloneError.
func (e *encoder) writePort(o *goja.Object) {
	if e.tl != nil {
		if j, ok := e.tl.portIndex[o]; ok {
			e.register(o)
			e.putTagUvarint(tagPort, uint32(len(e.tl.buffers))+j)
			return
		}
	}
	e.reject("a MessagePort could not be cloned: it must be listed in the transfer list.")
}
