package core

import (
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/inspector"
)

// MessagePorts.
//
// A MessageChannel is a portPair: two ends, each with the FIFO of messages
// posted to it by the other end. The queue belongs to the end, not to the
// realm holding it, so an end can move to another realm (in a message's
// transfer list, port_transfer.go) with its queued messages, and messages
// posted while it travels wait for it: order is kept per port. The realm
// holding an end binds it to one of its MessagePort objects (a portBinding)
// and is woken through its loop's RunOnLoop when a message arrives.

// portLimits bound one message on a port, as the channels of JS-created
// workers are bounded (nodeworker_parent.go).
const portMaxFrame = jsMaxFrameBytes

// A PortBackend is what stands behind a MessagePort object of a realm: one end of a MessageChannel, or (in the
// Node layer) a Node-style worker's parentPort. Every method runs on the realm's thread.
type PortBackend interface {
	// Post sends v (with the transferables in transfer) to the other end; it throws (Realm.Throw) on failure.
	Post(r *Realm, v goja.Value, transfer []goja.Value)
	// Listen says a 'message' listener was added (on) or the last one removed.
	Listen(on bool)
	// Start starts delivery (port.start()).
	Start()
	// Close closes the port (port.close()): both ends get 'close'.
	Close()
	// SetRef is port.ref() (on) and port.unref().
	SetRef(on bool)
	// HasRef is port.hasRef().
	HasRef() bool
	// Receive takes one queued message without an event (receiveMessageOnPort), or false.
	Receive() (goja.Value, bool)
	// RealmEnded runs once when the realm holding the port ends.
	RealmEnded()
}

// A portPair is one MessageChannel.
type portPair struct {
	mu     sync.Mutex
	closed bool              // either end was closed, or its realm ended
	q      [2][]*clone.Frame // q[i]: messages for end i, oldest first
	owner  [2]*portBinding   // the binding holding end i; nil while it travels
	gone   [2]bool           // end i will never be bound again

	// async: where each message still queued for an end held by the realm that posted it was posted, for a
	// debugger's async stack traces (inspector.AsyncScheduled); nil unless a session asked for them.
	async map[*clone.Frame]*inspector.AsyncTask
}

// A portBinding is one end of a portPair held by a realm.
type portBinding struct {
	pair  *portPair
	side  int
	realm *Realm
	obj   *goja.Object

	// Realm thread only.
	started   bool // start() or a 'message' listener: messages are delivered
	refWanted bool // ref() (the default) rather than unref()
	counted   bool // counted in realm.refs
	closeSent bool // 'close' was emitted
	detached  bool // transferred away, or the realm ended

	scheduled atomic.Bool // a drain task is queued
}

// NewPort makes a MessagePort object of the realm whose operations go to b (the Node layer's parentPort).
func (r *Realm) NewPort(b PortBackend) *goja.Object {
	obj := r.newPort()
	r.ports[obj] = b
	return obj
}

// bindPort binds end side of p to a new MessagePort object of r, or to obj
// if it is not nil.
func (r *Realm) bindPort(p *portPair, side int, obj *goja.Object) *portBinding {
	if obj == nil {
		obj = r.newPort()
	}
	b := &portBinding{pair: p, side: side, realm: r, obj: obj, refWanted: true}
	r.ports[obj] = b
	p.mu.Lock()
	p.owner[side] = b
	pending := len(p.q[side]) > 0 || p.closed
	p.mu.Unlock()
	if pending {
		b.schedule()
	}
	return b
}

func (b *portBinding) Post(r *Realm, v goja.Value, transfer []goja.Value) {
	for _, t := range transfer {
		if o, ok := t.(*goja.Object); ok && o == b.obj {
			panic(clone.JSError(r.rt, &clone.DataCloneError{Message: "the transfer list contains the port the message is posted on."}))
		}
	}
	if b.detached {
		return
	}
	f, commit, err := clone.SerializeTransfer(r.rt, v, clone.Options{MaxBytes: portMaxFrame, Transfer: transfer})
	if err != nil {
		r.Throw("postMessage", err)
	}
	p := b.pair
	peer := 1 - b.side
	task := inspector.AsyncScheduled(r.rt, "postMessage") // nil (one lookup) unless a debugger asked for it
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		f.Release() // as in Node, a message posted on a closed port is dropped
		return
	}
	p.q[peer] = append(p.q[peer], f)
	o := p.owner[peer]
	if task != nil && o != nil && o.realm == b.realm {
		// Only within one realm: another realm's stack means nothing to its debugger (V8's async stacks stay in
		// one isolate too).
		if p.async == nil {
			p.async = make(map[*clone.Frame]*inspector.AsyncTask)
		}
		p.async[f] = task
	}
	p.mu.Unlock()
	commit()
	if o != nil {
		o.schedule()
	}
}

// schedule queues a drain on the holding realm's loop, once.
func (b *portBinding) schedule() {
	if b.scheduled.CompareAndSwap(false, true) {
		if !b.realm.loop.RunOnLoop(func(*goja.Runtime) { b.drain() }) {
			b.scheduled.Store(false)
		}
	}
}

// pop takes the oldest message for b's end. mine is false when the end is
// no longer b's (it was transferred away).
func (b *portBinding) pop() (f *clone.Frame, task *inspector.AsyncTask, closed, mine bool) {
	p := b.pair
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.owner[b.side] != b {
		return nil, nil, false, false
	}
	if q := p.q[b.side]; len(q) > 0 {
		f = q[0]
		q[0] = nil
		p.q[b.side] = q[1:]
		if p.async != nil {
			if task = p.async[f]; task != nil {
				delete(p.async, f)
				if task.Realm() != b.realm.rt {
					task = nil // the end moved to another realm since
				}
			}
		}
	}
	return f, task, p.closed && len(p.q[b.side]) == 0, true
}

// drain delivers up to deliveryBatch messages, then 'close' once the pair is
// closed and the queue empty. Realm thread.
func (b *portBinding) drain() {
	b.scheduled.Store(false)
	r := b.realm
	if b.detached || r.ended {
		return
	}
	for range deliveryBatch {
		if !b.started {
			if _, closed, mine := b.peekClosed(); mine && closed {
				b.sendClose()
			}
			return
		}
		f, task, closed, mine := b.pop()
		if !mine {
			return
		}
		if f == nil {
			if closed {
				b.sendClose()
			}
			return
		}
		v, err := clone.Deserialize(r.rt, f)
		var lerr error
		if task == nil {
			lerr = b.emit(v, err)
		} else { // where it was posted, for a debugger's async stack traces
			lerr = inspector.AsyncRun(r.rt, task, func() error { return b.emit(v, err) })
		}
		if r.Report(lerr) || b.detached {
			return
		}
	}
	b.schedule()
}

// emit dispatches one received message: 'message' with v, or 'messageerror' when it could not be read (err).
func (b *portBinding) emit(v goja.Value, err error) error {
	if err != nil {
		return b.realm.Emit(b.obj, evMessageError, b.realm.CloneErrorValue(err))
	}
	return b.realm.Emit(b.obj, evMessage, v)
}

func (b *portBinding) peekClosed() (n int, closed, mine bool) {
	p := b.pair
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.q[b.side]), p.closed, p.owner[b.side] == b
}

func (b *portBinding) sendClose() {
	if b.closeSent {
		return
	}
	b.closeSent = true
	b.updateRef()
	r := b.realm
	r.Report(r.Emit(b.obj, "close"))
}

// updateRef keeps b counted in the realm's refs exactly while it is started,
// ref'd and open.
func (b *portBinding) updateRef() {
	want := b.started && b.refWanted && !b.closeSent && !b.detached && !b.realm.ended
	if want != b.counted {
		b.counted = want
		if want {
			b.realm.AddRef(1)
		} else {
			b.realm.AddRef(-1)
		}
	}
}

func (b *portBinding) Listen(on bool) {
	b.refWanted = on
	if on {
		b.Start()
		return
	}
	b.updateRef()
}

func (b *portBinding) Start() {
	if b.started || b.detached {
		return
	}
	b.started = true
	b.updateRef()
	b.schedule()
}

func (b *portBinding) SetRef(on bool) {
	b.refWanted = on
	b.updateRef()
}

func (b *portBinding) HasRef() bool { return b.counted }

// close closes the pair: both ends get 'close' once their queued messages
// are delivered; later posts on either end are dropped.
func (b *portBinding) Close() {
	if b.detached {
		return
	}
	p := b.pair
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	owners := p.owner
	p.mu.Unlock()
	for _, o := range owners {
		if o != nil {
			o.schedule()
		}
	}
}

// receive implements receiveMessageOnPort: the oldest queued message, or
// false when none.
func (b *portBinding) Receive() (goja.Value, bool) {
	if b.detached {
		return nil, false
	}
	f, _, _, mine := b.pop()
	if !mine || f == nil {
		return nil, false
	}
	v, err := clone.Deserialize(b.realm.rt, f)
	if err != nil {
		b.realm.Throw("receiveMessageOnPort", err)
	}
	return v, true
}

// realmEnded closes the pair (the peer gets 'close') and releases the
// messages nobody will read.
func (b *portBinding) RealmEnded() {
	b.detached = true
	b.updateRef()
	b.pair.leave(b.side, b)
}

// leave marks end side as gone for good (its realm ended, or it was lost in
// transit) and closes the pair.
func (p *portPair) leave(side int, b *portBinding) {
	p.mu.Lock()
	if b != nil && p.owner[side] != b {
		p.mu.Unlock() // transferred away meanwhile: not ours to close
		return
	}
	p.owner[side] = nil
	p.gone[side] = true
	p.closed = true
	var drop []*clone.Frame
	drop = append(drop, p.q[side]...)
	p.q[side] = nil
	if p.gone[1-side] {
		drop = append(drop, p.q[1-side]...)
		p.q[1-side] = nil
	}
	peer := p.owner[1-side]
	p.mu.Unlock()
	for _, f := range drop {
		f.Release()
	}
	if peer != nil {
		peer.schedule()
	}
}

// hasListeners reports whether t, an event target of ports.js, has listeners of typ.
func (r *Realm) hasListeners(t goja.Value, typ string) bool {
	o, _ := t.(*goja.Object)
	if o == nil {
		return false
	}
	m, _ := o.GetSymbol(r.kListeners).(*goja.Object)
	if m == nil {
		return false
	}
	v := m.Get(typ)
	return v != nil && !goja.IsUndefined(v)
}

// portNatives are the prelude's MessagePort natives.
func (r *Realm) portNatives(def func(string, int, func(goja.FunctionCall) goja.Value)) {
	port := func(v goja.Value) PortBackend {
		o, _ := v.(*goja.Object)
		p := r.ports[o]
		if p == nil {
			return nil
		}
		return p
	}
	def("portPost", 3, func(c goja.FunctionCall) goja.Value {
		if p := port(c.Argument(0)); p != nil {
			p.Post(r, c.Argument(1), r.TransferList(c.Argument(2)))
		}
		return goja.Undefined()
	})
	def("portChanged", 1, func(c goja.FunctionCall) goja.Value { // MessagePort.prototype[kChanged]: this is the port
		if !c.Argument(0).StrictEquals(r.typeValue(evMessage)) {
			return goja.Undefined()
		}
		if p := port(c.This); p != nil {
			p.Listen(r.hasListeners(c.This, evMessage))
		}
		return goja.Undefined()
	})
	def("portStart", 1, func(c goja.FunctionCall) goja.Value {
		if p := port(c.Argument(0)); p != nil {
			p.Start()
		}
		return goja.Undefined()
	})
	def("portClose", 1, func(c goja.FunctionCall) goja.Value {
		if p := port(c.Argument(0)); p != nil {
			p.Close()
		}
		return goja.Undefined()
	})
	def("portRef", 2, func(c goja.FunctionCall) goja.Value {
		if p := port(c.Argument(0)); p != nil {
			p.SetRef(c.Argument(1).ToBoolean())
		}
		return goja.Undefined()
	})
	def("portHasRef", 1, func(c goja.FunctionCall) goja.Value {
		p := port(c.Argument(0))
		return r.rt.ToValue(p != nil && p.HasRef())
	})
	def("portReceive", 1, func(c goja.FunctionCall) goja.Value {
		p := port(c.Argument(0))
		if p == nil {
			return goja.Undefined()
		}
		v, ok := p.Receive()
		if !ok {
			return goja.Undefined()
		}
		return r.rt.NewArray(v)
	})
	def("channel", 2, func(c goja.FunctionCall) goja.Value {
		p1, _ := c.Argument(0).(*goja.Object)
		p2, _ := c.Argument(1).(*goja.Object)
		pair := &portPair{}
		r.bindPort(pair, 0, p1)
		r.bindPort(pair, 1, p2)
		return goja.Undefined()
	})
}
