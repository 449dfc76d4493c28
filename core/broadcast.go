package core

import (
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// BroadcastChannel: every open channel of the process with the same name
// receives what any other one posts (never its own messages). A message is
// cloned once per receiver, in the sender's realm, and queued on the
// receiver, whose realm is woken through its loop. Order is kept per
// sender and receiver.

var broadcasts struct {
	sync.Mutex
	m map[string][]*bcMember
}

// A bcMember is one open BroadcastChannel object.
type bcMember struct {
	name  string
	realm *Realm
	obj   *goja.Object

	mu     sync.Mutex
	q      []*clone.Frame
	closed bool

	scheduled atomic.Bool

	// Realm thread only.
	refWanted, listening, counted bool
}

func (m *bcMember) schedule() {
	if m.scheduled.CompareAndSwap(false, true) {
		if !m.realm.loop.RunOnLoop(func(*goja.Runtime) { m.drain() }) {
			m.scheduled.Store(false)
		}
	}
}

func (m *bcMember) updateRef() {
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	want := m.refWanted && m.listening && !closed && !m.realm.ended
	if want != m.counted {
		m.counted = want
		if want {
			m.realm.AddRef(1)
		} else {
			m.realm.AddRef(-1)
		}
	}
}

func (m *bcMember) drain() {
	m.scheduled.Store(false)
	r := m.realm
	for range deliveryBatch {
		m.mu.Lock()
		if m.closed || len(m.q) == 0 {
			m.mu.Unlock()
			return
		}
		f := m.q[0]
		m.q[0] = nil
		m.q = m.q[1:]
		m.mu.Unlock()
		v, err := clone.Deserialize(r.rt, f)
		var lerr error
		if err != nil {
			lerr = r.Emit(m.obj, evMessageError, r.CloneErrorValue(err))
		} else {
			lerr = r.Emit(m.obj, evMessage, v)
		}
		if r.Report(lerr) {
			return
		}
	}
	m.schedule()
}

// leave closes the channel: it leaves its name and drops what is queued.
func (m *bcMember) leave() {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	drop := m.q
	m.q = nil
	m.mu.Unlock()
	for _, f := range drop {
		f.Release()
	}
	broadcasts.Lock()
	list := broadcasts.m[m.name]
	for i, x := range list {
		if x == m {
			list = append(list[:i:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(broadcasts.m, m.name)
	} else {
		broadcasts.m[m.name] = list
	}
	broadcasts.Unlock()
	m.updateRef()
}

// broadcastNatives are the prelude's BroadcastChannel natives.
func (r *Realm) broadcastNatives(def func(string, int, func(goja.FunctionCall) goja.Value)) {
	member := func(v goja.Value) *bcMember {
		o, _ := v.(*goja.Object)
		return r.bcs[o]
	}
	def("bcOpen", 2, func(c goja.FunctionCall) goja.Value {
		obj, _ := c.Argument(0).(*goja.Object)
		m := &bcMember{name: c.Argument(1).String(), realm: r, obj: obj, refWanted: true}
		r.bcs[obj] = m
		broadcasts.Lock()
		if broadcasts.m == nil {
			broadcasts.m = make(map[string][]*bcMember)
		}
		broadcasts.m[m.name] = append(broadcasts.m[m.name], m)
		broadcasts.Unlock()
		return goja.Undefined()
	})
	def("bcPost", 2, func(c goja.FunctionCall) goja.Value {
		m := member(c.Argument(0))
		if m == nil {
			panic(r.NewError("Error", "InvalidStateError", "BroadcastChannel is closed."))
		}
		broadcasts.Lock()
		peers := append([]*bcMember(nil), broadcasts.m[m.name]...)
		broadcasts.Unlock()
		for _, p := range peers {
			if p == m {
				continue
			}
			f, err := clone.Serialize(r.rt, c.Argument(1), clone.Options{MaxBytes: jsMaxFrameBytes})
			if err != nil {
				r.Throw("BroadcastChannel.postMessage", err)
			}
			p.mu.Lock()
			if p.closed {
				p.mu.Unlock()
				f.Release()
				continue
			}
			p.q = append(p.q, f)
			p.mu.Unlock()
			p.schedule()
		}
		return goja.Undefined()
	})
	def("bcClose", 1, func(c goja.FunctionCall) goja.Value {
		if m := member(c.Argument(0)); m != nil {
			delete(r.bcs, m.obj)
			m.leave()
		}
		return goja.Undefined()
	})
	def("bcRef", 2, func(c goja.FunctionCall) goja.Value {
		if m := member(c.Argument(0)); m != nil {
			m.refWanted = c.Argument(1).ToBoolean()
			m.updateRef()
		}
		return goja.Undefined()
	})
	def("bcListen", 2, func(c goja.FunctionCall) goja.Value {
		if m := member(c.Argument(0)); m != nil {
			m.listening = c.Argument(1).ToBoolean()
			m.updateRef()
		}
		return goja.Undefined()
	})
}
