package core

import (
	"crypto/rand"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// Transferring MessagePorts: core's implementation of clone.MessagePorts.
//
// Take registers the end under a random single-use token; the frame carries
// the token. Commit (the frame was accepted) unbinds the end from the
// sender's object, which stays behind inert. Attach (the receiver reads the
// frame) binds the end to a new MessagePort object of the receiving realm,
// with the messages that queued meanwhile. A frame released unread gives
// the end back to the sender if the commit never ran, and closes it (the
// peer gets 'close') if it did.

func init() { clone.SetMessagePorts(portHook{}) }

type portHook struct{}

// A portTransit is one end on its way.
type portTransit struct {
	b         *portBinding // the sender's binding
	committed bool
	released  bool // the frame was released without Attach
	attached  bool
}

var transits struct {
	sync.Mutex
	m map[clone.PortToken]*portTransit
}

func (portHook) Ports(rt *goja.Runtime) func(*goja.Object) bool {
	r := realmOf(rt)
	if r == nil || len(r.ports) == 0 {
		return nil
	}
	return func(o *goja.Object) bool {
		_, ok := r.ports[o]
		return ok
	}
}

func (portHook) Take(rt *goja.Runtime, o *goja.Object) (clone.PortToken, clone.Ref, func(), error) {
	var tok clone.PortToken
	r := realmOf(rt)
	if r == nil {
		return tok, nil, nil, &clone.DataCloneError{Message: "the object is not a MessagePort of this realm."}
	}
	b, ok := r.ports[o].(*portBinding)
	if !ok || b.detached {
		return tok, nil, nil, &clone.DataCloneError{Message: "the MessagePort cannot be transferred (a parentPort, or already transferred or closed)."}
	}
	if _, err := rand.Read(tok[:]); err != nil {
		return tok, nil, nil, err
	}
	t := &portTransit{b: b}
	transits.Lock()
	if transits.m == nil {
		transits.m = make(map[clone.PortToken]*portTransit)
	}
	transits.m[tok] = t
	transits.Unlock()
	commit := func() {
		transits.Lock()
		t.committed = true
		lost := t.released
		transits.Unlock()
		// The sender's object goes inert.
		delete(r.ports, o)
		b.detached = true
		b.updateRef()
		p := b.pair
		p.mu.Lock()
		if p.owner[b.side] == b {
			p.owner[b.side] = nil // travelling (unless Attach already took it)
		}
		p.mu.Unlock()
		if lost {
			p.leave(b.side, nil)
		}
	}
	return tok, transitRef(tok), commit, nil
}

// transitRef is the frame's reference to a port in transit.
type transitRef clone.PortToken

func (ref transitRef) Release() {
	tok := clone.PortToken(ref)
	transits.Lock()
	t := transits.m[tok]
	delete(transits.m, tok)
	if t == nil || t.attached {
		transits.Unlock()
		return
	}
	t.released = true
	committed := t.committed
	transits.Unlock()
	if committed {
		t.b.pair.leave(t.b.side, nil) // gone with the frame: the peer gets 'close'
	}
	// Not committed: the message was refused and the port stays with the
	// sender.
}

func (portHook) Attach(rt *goja.Runtime, tok clone.PortToken) (*goja.Object, error) {
	transits.Lock()
	t := transits.m[tok]
	if t == nil || t.attached || t.released {
		transits.Unlock()
		return nil, &clone.DataCloneError{Message: "the MessagePort's token is unknown or was already used"}
	}
	t.attached = true
	delete(transits.m, tok)
	transits.Unlock()
	r := realmOfOrNew(rt)
	if r == nil {
		return nil, &clone.DataCloneError{Message: "MessagePorts cannot be received in this realm"}
	}
	b := r.bindPort(t.b.pair, t.b.side, nil)
	return b.obj, nil
}
