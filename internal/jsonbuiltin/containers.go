package jsonbuiltin

import (
	"math"
	"reflect"
	"strconv"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// call calls fn and passes on what it throws.
func call(fn goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := fn(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// enter puts o on the stack of objects being written: a TypeError if it is there already (a cycle), Overflow's
// RangeError past MaxStringifyDepth or when the Go stack is too deep.
func (s *serializer) enter(o *goja.Object, k jsonKey) {
	if len(s.stack) >= MaxStringifyDepth || s.r.deep() {
		s.r.overflow()
	}
	cycle := false
	if s.onStack != nil {
		cycle = s.onStack[o]
	} else {
		for _, x := range s.stack {
			if x == o {
				cycle = true
				break
			}
		}
	}
	if cycle {
		panic(s.rt.NewTypeError(s.circular(o, k)))
	}
	s.stack = append(s.stack, o)
	s.path = append(s.path, k)
	if s.onStack != nil {
		s.onStack[o] = true
	} else if len(s.stack) > stackScan {
		s.onStack = make(map[*goja.Object]bool, 2*len(s.stack))
		for _, x := range s.stack {
			s.onStack[x] = true
		}
	}
}

func (s *serializer) leave() {
	o := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	s.path = s.path[:len(s.path)-1]
	if s.onStack != nil {
		delete(s.onStack, o)
	}
}

// newline writes a line break and the indentation of the current depth (len(stack) gaps), when there is a gap.
func (s *serializer) newline(depth int) {
	s.buf = append(s.buf, '\n')
	for i := 0; i < depth; i++ {
		s.buf = append(s.buf, s.gap...)
	}
	if n := depth * len(s.gap); n >= 1<<12 {
		s.st.step(n >> 12)
		s.checkLength()
	}
}

// array is SerializeJSONArray.
func (s *serializer) array(o *goja.Object, k jsonKey) {
	s.enter(o, k)
	depth := len(s.stack)
	n, fast := int64(0), false
	if l, ok := gojainternal.ArrayLength(o); ok {
		n, fast = int64(l), true
	} else {
		n = lengthOf(o)
	}
	if n == 0 {
		s.buf = append(s.buf, "[]"...)
		s.leave()
		return
	}
	s.buf = append(s.buf, '[')
	for i := int64(0); i < n; i++ {
		if i > 0 {
			s.buf = append(s.buf, ',')
		}
		if s.gap != "" {
			s.newline(depth)
		}
		var v goja.Value
		got := false
		if fast && i <= math.MaxUint32 {
			v, got = gojainternal.ArrayElement(o, uint32(i))
			got = got && v != nil // a hole reads through the prototype: Get
		}
		if !got {
			v = o.Get(strconv.FormatInt(i, 10))
		}
		if !s.property(o, jsonKey{kind: keyIndex, index: i}, v) {
			s.buf = append(s.buf, "null"...)
		}
	}
	if s.gap != "" {
		s.newline(depth - 1)
	}
	s.buf = append(s.buf, ']')
	s.leave()
}

// object is SerializeJSONObject.
func (s *serializer) object(o *goja.Object, k jsonKey) {
	s.enter(o, k)
	depth := len(s.stack)
	s.buf = append(s.buf, '{')
	mark := len(s.buf)
	wrote := false
	// member writes one property, or nothing (and takes back its key) when its value writes nothing.
	member := func(k jsonKey, v goja.Value) {
		off, extra := len(s.buf), s.extra
		if wrote {
			s.buf = append(s.buf, ',')
		}
		if s.gap != "" {
			s.newline(depth)
		}
		if k.kind == keyUni {
			s.quoteUni(k.uname)
		} else {
			s.quoteString(k.name)
		}
		s.buf = append(s.buf, ':')
		if s.gap != "" {
			s.buf = append(s.buf, ' ')
		}
		if s.property(o, k, v) {
			wrote = true
		} else {
			s.buf, s.extra = s.buf[:off], extra
		}
	}
	switch {
	case s.hasList:
		for i, name := range s.list {
			v, ok := gojainternal.PlainGet(o, s.listKeys[i])
			if !ok || v == nil { // an accessor, or not an own property: Get, through the prototype
				v = o.Get(name)
			}
			member(jsonKey{kind: keyUni, uname: s.listKeys[i]}, v)
		}
	default:
		for len(s.keys) < depth {
			s.keys = append(s.keys, nil)
		}
		keys, ok := gojainternal.PlainKeys(o, s.keys[depth-1][:0])
		var names []string
		if !ok {
			// goja puts integer-like names in order when it lists them: then the exact names can be read.
			names = o.Keys()
			keys, ok = gojainternal.PlainKeys(o, keys)
		}
		if ok {
			s.keys[depth-1] = keys
			for _, name := range keys {
				v, ok := gojainternal.PlainGet(o, name)
				if !ok || v == nil { // an accessor, or deleted meanwhile: Get, through the prototype
					v = o.Get(name.String())
				}
				member(jsonKey{kind: keyUni, uname: name}, v)
			}
			clear(keys)
			break
		}
		// Another kind of object (a proxy, an arguments object...): its names as Go strings, where a lone
		// surrogate reads as U+FFFD.
		for _, name := range names {
			member(jsonKey{kind: keyString, name: name}, o.Get(name))
		}
	}
	if wrote && s.gap != "" {
		s.newline(depth - 1)
	}
	if !wrote {
		s.buf = s.buf[:mark]
	}
	s.buf = append(s.buf, '}')
	s.leave()
}

// lengthOf is LengthOfArrayLike: ToLength(Get(o, "length")).
func lengthOf(o *goja.Object) int64 {
	v := o.Get("length")
	if v == nil {
		return 0
	}
	f := v.ToFloat()
	switch {
	case math.IsNaN(f) || f <= 0:
		return 0
	case f >= 1<<53-1:
		return 1<<53 - 1
	}
	return int64(f)
}

var proxyType = reflect.TypeFor[goja.Proxy]()

// isArray is IsArray: an Array exotic object, or a proxy whose target is one (a TypeError for a revoked proxy).
func isArray(rt *goja.Runtime, o *goja.Object) bool {
	for {
		switch gojainternal.ObjectKind(o) {
		case gojainternal.KindArray:
			return true
		case gojainternal.KindPlain:
			return false
		}
		if o.ExportType() == proxyType {
			p, _ := o.Export().(goja.Proxy)
			t := p.Target()
			if t == nil {
				panic(rt.NewTypeError("Cannot perform 'IsArray' on a proxy that has been revoked"))
			}
			o = t
			continue
		}
		return o.ClassName() == "Array"
	}
}
