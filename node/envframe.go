package node

import (
	"bytes"
	"reflect"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// A Worker spawned without options.env gets a copy of its parent's process.env as it is at the spawn: a frame of
// it, read in the child's realm. Serializing process.env for every spawn cost the parent ~20–35 µs (a few dozen
// variables), so the parent keeps what it last sent (envSnapshot): while process.env is the same plain object with
// the same names, in the same order, bound to the same primitive values, its serialization would be the same bytes,
// and the child gets a frame over the bytes the earlier children share (one copy between them). Any other state —
// another object, a name added, removed or reordered, a value changed, an accessor, an object value (whose contents
// could have changed), an object goja's plain-object reader does not know — serializes again.

// An envSnapshot is process.env as it was when its bytes were last serialized for a child. Parent realm thread only.
type envSnapshot struct {
	obj    *goja.Object       // process.env then; nil: no snapshot
	names  []unistring.String // its own enumerable names, in order
	values []goja.Value       // their values, each a primitive
	bytes  []byte             // the serialized frame's bytes, shared by every child spawned since (read only)
	buf    []unistring.String // scratch for same
}

// parentEnvFrame returns the frame of the parent's process.env for a new child; mk serializes a value into a frame
// (throwing on failure).
func (n *nodeState) parentEnvFrame(mk func(goja.Value) *clone.Frame) *clone.Frame {
	env := n.proc().Get("env")
	s := &n.envSent
	o, _ := env.(*goja.Object)
	if o != nil && s.same(o) {
		return clone.NewFrame(s.bytes)
	}
	f := n.sharedEnv(mk(env))
	s.take(o)
	return f
}

// sharedEnv returns f, the frame of the parent's process.env for a new child, or, when its bytes are those of the
// last such frame, a frame over the bytes the children spawned since share (f is released): workers spawned while
// process.env does not change hold one copy of it between them, not one each. The shared bytes are a copy nobody
// writes to, and a frame made of them is not aligned (clone.NewFrame), so no reader uses them in place. A frame
// with shared memory never matches (its tokens are new each time).
func (n *nodeState) sharedEnv(f *clone.Frame) *clone.Frame {
	s := &n.envSent
	if b := f.Bytes(); s.bytes != nil && bytes.Equal(b, s.bytes) {
		f.Release()
		return clone.NewFrame(s.bytes)
	}
	s.bytes = bytes.Clone(f.Bytes())
	return f
}

// take records o (just serialized into s.bytes) as the snapshot, when its state can be compared cheaply: a plain
// object whose enumerable own properties are data properties with primitive values. Otherwise there is none.
func (s *envSnapshot) take(o *goja.Object) {
	s.obj, s.names, s.values = nil, s.names[:0], s.values[:0]
	if o == nil {
		return
	}
	names, ok := gojainternal.PlainKeys(o, s.names)
	if !ok {
		return
	}
	for _, name := range names {
		v, ok := gojainternal.PlainGet(o, name)
		if !ok || v == nil {
			return
		}
		if _, isObj := v.(*goja.Object); isObj {
			return
		}
		s.values = append(s.values, v)
	}
	s.obj, s.names = o, names
}

// same reports whether o is the snapshot's object in the snapshot's state (names, order and values).
func (s *envSnapshot) same(o *goja.Object) bool {
	if s.obj != o || s.bytes == nil {
		return false
	}
	names, ok := gojainternal.PlainKeys(o, s.buf[:0])
	s.buf = names[:0]
	if !ok || len(names) != len(s.names) {
		return false
	}
	for i, name := range names {
		if name != s.names[i] {
			return false
		}
		v, ok := gojainternal.PlainGet(o, name)
		// the same kind of value (goja's representation: an int and a float of one number may serialize
		// differently) and the same value
		if !ok || v == nil || reflect.TypeOf(v) != reflect.TypeOf(s.values[i]) || !v.SameAs(s.values[i]) {
			return false
		}
	}
	return true
}
