package node

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed lib/blob.js
var blobJS string

// blobSource is Blob and File (internal/blob): classes in JavaScript over bytes held in Go.
var blobSource = jsutil.NewSource("node:internal/blob", blobJS)

// A blobHandle holds a Blob's bytes. They never change once made: slices share them and a clone copies them into
// the frame, so no realm can see another's writes.
type blobHandle struct{ b []byte }

// hostKinds are the realm's structured-clone kinds (Blob, File, DOMException): the classes' prototypes and the
// module functions that read an object's state and make one, each set when its module loads.
type hostKinds struct {
	blobProto, fileProto, domProto *goja.Object
	blobState, fileState, domState goja.Callable
	makeBlob, makeFile, makeDOM    goja.Callable
}

// blobNatives are blob.js's natives.
func blobNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	handle := func(v goja.Value) *blobHandle {
		h, ok := v.Export().(*blobHandle)
		if !ok {
			panic(rt.NewTypeError("jsworker: not a Blob handle"))
		}
		return h
	}
	// make concatenates parts (Blob handles, Uint8Arrays, strings as UTF-8) into a new handle; with native, a
	// string's line ends (\r\n, \r, \n) become \n, the platform's.
	def("make", 2, func(c goja.FunctionCall) goja.Value {
		parts, _ := c.Argument(0).(*goja.Object)
		native := c.Argument(1).ToBoolean()
		var b []byte
		if parts != nil {
			for i, l := int64(0), parts.Get("length").ToInteger(); i < l; i++ {
				switch p := parts.Get(strconv.FormatInt(i, 10)).Export().(type) {
				case *blobHandle:
					b = append(b, p.b...)
				case []byte:
					b = append(b, p...)
				case string:
					if native {
						p = strings.ReplaceAll(strings.ReplaceAll(p, "\r\n", "\n"), "\r", "\n")
					}
					b = append(b, p...)
				}
			}
		}
		return rt.ToValue(&blobHandle{b: b})
	})
	def("size", 1, func(c goja.FunctionCall) goja.Value { return rt.ToValue(len(handle(c.Argument(0)).b)) })
	def("slice", 3, func(c goja.FunctionCall) goja.Value {
		h := handle(c.Argument(0))
		s, e := int(c.Argument(1).ToInteger()), int(c.Argument(2).ToInteger())
		return rt.ToValue(&blobHandle{b: h.b[s:e:e]})
	})
	def("text", 1, func(c goja.FunctionCall) goja.Value {
		b := handle(c.Argument(0)).b
		if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
			b = b[3:]
		}
		return rt.ToValue(decodeUTF8(b))
	})
	def("arrayBuffer", 1, func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(rt.NewArrayBuffer(append([]byte(nil), handle(c.Argument(0)).b...)))
	})
	def("register", 6, func(c goja.FunctionCall) goja.Value {
		n.hk.blobProto, _ = c.Argument(0).(*goja.Object)
		n.hk.fileProto, _ = c.Argument(1).(*goja.Object)
		n.hk.blobState, _ = goja.AssertFunction(c.Argument(2))
		n.hk.fileState, _ = goja.AssertFunction(c.Argument(3))
		n.hk.makeBlob, _ = goja.AssertFunction(c.Argument(4))
		n.hk.makeFile, _ = goja.AssertFunction(c.Argument(5))
		n.setHostKinds()
		return goja.Undefined()
	})
}

// globalsNatives are internal/globals' natives: DOMException's structured-clone hooks.
func globalsNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	def("registerDOMException", 3, func(c goja.FunctionCall) goja.Value {
		n.hk.domProto, _ = c.Argument(0).(*goja.Object)
		n.hk.domState, _ = goja.AssertFunction(c.Argument(1))
		n.hk.makeDOM, _ = goja.AssertFunction(c.Argument(2))
		n.setHostKinds()
		return goja.Undefined()
	})
}

// setHostKinds teaches structured clone the realm's Blob, File and DOMException. A kind whose module has not
// loaded has no prototype yet: reading one loads the module.
func (n *nodeState) setHostKinds() {
	if n.hk.blobProto == nil && n.hk.fileProto == nil && n.hk.domProto == nil {
		// No class made yet, so nothing to write: the kinds are made when the realm first reads a host object.
		clone.SetReadHostKinds(n.r.Runtime(), n.hostKinds)
		return
	}
	clone.SetHostKinds(n.r.Runtime(), n.hostKinds()...)
}

// hostKinds are the realm's Blob, File and DOMException clone kinds, with the prototypes of the modules loaded so far.
func (n *nodeState) hostKinds() []clone.HostKind {
	rt := n.r.Runtime()
	state := func(fn *goja.Callable) func(o *goja.Object) ([]goja.Value, bool) {
		return func(o *goja.Object) ([]goja.Value, bool) {
			v, err := (*fn)(goja.Undefined(), o)
			if err != nil {
				panic(err)
			}
			arr, ok := v.(*goja.Object)
			if !ok {
				return nil, false
			}
			var out []goja.Value
			for i, l := int64(0), arr.Get("length").ToInteger(); i < l; i++ {
				out = append(out, arr.Get(strconv.FormatInt(i, 10)))
			}
			return out, true
		}
	}
	blobState, fileState, domState := state(&n.hk.blobState), state(&n.hk.fileState), state(&n.hk.domState)
	// ensure loads a module whose maker is not set yet.
	ensure := func(fn *goja.Callable, module string) goja.Callable {
		if *fn == nil {
			n.mustBuiltin(module)
		}
		return *fn
	}
	call := func(fn goja.Callable, args ...goja.Value) (*goja.Object, error) {
		v, err := fn(goja.Undefined(), args...)
		if err != nil {
			return nil, err
		}
		return v.(*goja.Object), nil
	}
	blob := clone.HostKind{Name: "Blob", Proto: n.hk.blobProto,
		Write: func(o *goja.Object) ([]goja.Value, []byte, bool) {
			st, ok := blobState(o) // [handle, type]
			if !ok || len(st) != 2 {
				return nil, nil, false
			}
			return st[1:], st[0].Export().(*blobHandle).b, true
		},
		Read: func(f []goja.Value, data []byte) (*goja.Object, error) {
			if len(f) != 1 {
				return nil, &clone.DataCloneError{Message: "a Blob's state is malformed."}
			}
			return call(ensure(&n.hk.makeBlob, "internal/blob"), rt.ToValue(&blobHandle{b: append([]byte(nil), data...)}), f[0])
		}}
	file := clone.HostKind{Name: "File", Proto: n.hk.fileProto,
		Write: func(o *goja.Object) ([]goja.Value, []byte, bool) {
			b, ok1 := blobState(o)
			f, ok2 := fileState(o) // [name, lastModified]
			if !ok1 || !ok2 || len(b) != 2 || len(f) != 2 {
				return nil, nil, false
			}
			return []goja.Value{b[1], f[0], f[1]}, b[0].Export().(*blobHandle).b, true
		},
		Read: func(f []goja.Value, data []byte) (*goja.Object, error) {
			if len(f) != 3 {
				return nil, &clone.DataCloneError{Message: "a File's state is malformed."}
			}
			h := rt.ToValue(&blobHandle{b: append([]byte(nil), data...)})
			return call(ensure(&n.hk.makeFile, "internal/blob"), h, f[0], f[1], f[2])
		}}
	dom := clone.HostKind{Name: "DOMException", Proto: n.hk.domProto,
		Write: func(o *goja.Object) ([]goja.Value, []byte, bool) {
			st, ok := domState(o) // [name, message, stack]
			return st, nil, ok && len(st) == 3
		},
		Read: func(f []goja.Value, _ []byte) (*goja.Object, error) {
			if len(f) != 3 {
				return nil, &clone.DataCloneError{Message: "a DOMException's state is malformed."}
			}
			return call(ensure(&n.hk.makeDOM, "internal/globals"), f...)
		}}
	if blob.Proto == nil {
		blob.Write, file.Write = nil, nil
	}
	if dom.Proto == nil {
		dom.Write = nil
	}
	return []clone.HostKind{blob, file, dom}
}

// installHostKinds gives the realm its clone kinds and makes the clone's DataCloneError a DOMException.
func (n *nodeState) installHostKinds(rt *goja.Runtime) {
	n.setHostKinds()
	clone.SetDataCloneError(rt, func(msg string) *goja.Object {
		ctor := n.mustBuiltin("internal/globals").Get("DOMException")
		o, err := rt.New(ctor, rt.ToValue(msg), rt.ToValue("DataCloneError"))
		if err != nil {
			panic(err)
		}
		return o
	})
}
