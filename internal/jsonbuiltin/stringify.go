package jsonbuiltin

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Stringify is JSON.stringify(value, replacer, space) in r's realm. It returns the JSON text, or undefined where
// the specification does (a value that is undefined, a function or a symbol, after toJSON and the replacer). It
// throws (panics with a goja value) what the specification throws — a TypeError for a cycle (goja's message, the
// first line of V8's: "Converting circular structure to JSON") or a BigInt ("Do not know how to serialize a
// BigInt"), whatever toJSON, the replacer, getters and proxies throw — plus Overflow's RangeError past
// MaxStringifyDepth, RangeError "Invalid string length" for a result longer than MaxStringLength, and the realm's
// interruption when it is stopped.
func Stringify(r *Realm, value, replacer, space goja.Value) goja.Value {
	s := serializer{r: r, rt: r.RT, st: stepper{r: r}}
	s.st.limit = s.checkBuilt
	defer s.st.release() // the text is the realm's as it returns
	if o, ok := replacer.(*goja.Object); ok {
		if fn, ok := goja.AssertFunction(o); ok {
			s.replacer = fn
		} else if isArray(r.RT, o) {
			s.propertyList(o)
		}
	}
	s.gap = gapOf(space)
	var holder *goja.Object
	if s.replacer != nil { // the replacer is called with the wrapper as this: make it
		holder = r.RT.NewObject()
		_ = holder.DefineDataProperty("", value, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	if !s.property(holder, jsonKey{kind: keyString}, value) {
		return goja.Undefined()
	}
	s.checkLength()
	if len(s.buf) == 0 {
		return goja.Undefined() // not reached: a written value is never empty
	}
	return r.RT.ToValue(unsafe.String(&s.buf[0], len(s.buf))) // the buffer is not used again
}

// A serializer writes one value.
type serializer struct {
	r        *Realm
	rt       *goja.Runtime
	st       stepper
	buf      []byte
	extra    int // bytes of buf beyond its length in UTF-16 code units (non-ASCII characters)
	replacer goja.Callable
	list     []string // the replacer's property list; nil when none
	listKeys []unistring.String
	hasList  bool
	gap      string
	stack    []*goja.Object        // the objects being written, outermost first
	path     []jsonKey             // the key each of them was written under
	onStack  map[*goja.Object]bool // the same, as a set, once the stack is deep
	keys     [][]unistring.String  // a buffer of plain keys per depth
}

// stackScan is how deep the stack is searched linearly for a cycle before a set takes over.
const stackScan = 32

// A jsonKey is the key a value is written under, made into a goja string only when JavaScript is to see it.
type jsonKey struct {
	kind  uint8
	index int64
	name  string
	uname unistring.String
}

const (
	keyString uint8 = iota // name ("" for the root)
	keyIndex               // index, an array element
	keyUni                 // uname
)

func (k jsonKey) value(rt *goja.Runtime) goja.Value {
	switch k.kind {
	case keyIndex:
		return rt.ToValue(strconv.FormatInt(k.index, 10))
	case keyUni:
		if u := k.uname.AsUtf16(); u != nil {
			return goja.StringFromUTF16(u[1:])
		}
		return rt.ToValue(string(k.uname))
	}
	return rt.ToValue(k.name)
}

// checkBuilt is the check at every poll: the length, and the buffer as what the call has made (Realm.Building).
func (s *serializer) checkBuilt() {
	s.checkLength()
	s.st.built = int64(cap(s.buf))
}

func (s *serializer) checkLength() {
	if len(s.buf)-s.extra > maxLength {
		s.buf = nil
		s.r.rangeError("Invalid string length")
	}
}

// propertyList reads an array replacer: its strings and numbers (and String and Number objects), each once.
func (s *serializer) propertyList(o *goja.Object) {
	n := lengthOf(o)
	seen := map[string]bool{}
	s.hasList = true
	s.list = []string{}
	for i := int64(0); i < n; i++ {
		s.st.step(1)
		v := o.Get(strconv.FormatInt(i, 10))
		var item string
		switch x := v.(type) {
		case goja.String:
			item = x.String()
		case *goja.Object:
			if c := x.ClassName(); c != "String" && c != "Number" {
				continue
			}
			item = x.String()
		default:
			if v == nil || !goja.IsNumber(v) {
				continue
			}
			item = v.String()
		}
		if !seen[item] {
			seen[item] = true
			s.list = append(s.list, item)
		}
	}
	s.listKeys = make([]unistring.String, len(s.list))
	for i, k := range s.list {
		s.listKeys[i] = unistring.NewFromString(k)
	}
}

// gapOf is the indentation space asks for: up to 10 spaces, or the first 10 code units of a string.
func gapOf(space goja.Value) string {
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = o.ToNumber()
		case "String":
			space = o.ToString()
		}
	}
	if space == nil {
		return ""
	}
	if str, ok := space.(goja.String); ok {
		if str.Length() > 10 {
			str = str.Substring(0, 10)
		}
		return str.String()
	}
	if !goja.IsNumber(space) {
		return ""
	}
	f := space.ToFloat()
	switch {
	case math.IsNaN(f) || f < 1:
		return ""
	case f > 10:
		f = 10
	}
	return "          "[:int(f)]
}

// property is SerializeJSONProperty for the value v of key k of holder (nil for the root wrapper, which is made
// only when the replacer needs it). It reports whether it wrote anything (false: undefined).
func (s *serializer) property(holder *goja.Object, k jsonKey, v goja.Value) bool {
	s.st.step(1)
	if v == nil {
		v = goja.Undefined()
	}
	switch x := v.(type) {
	case *goja.Object:
		if toJSON, ok := goja.AssertFunction(x.Get("toJSON")); ok {
			v = call(toJSON, x, k.value(s.rt))
		}
	default:
		if goja.IsBigInt(v) {
			if toJSON, ok := goja.AssertFunction(v.ToObject(s.rt).Get("toJSON")); ok {
				v = call(toJSON, v, k.value(s.rt))
			}
		}
	}
	if s.replacer != nil {
		var this goja.Value = goja.Undefined()
		if holder != nil {
			this = holder
		}
		v = call(s.replacer, this, k.value(s.rt), v)
	}
	if o, ok := v.(*goja.Object); ok {
		if _, callable := goja.AssertFunction(o); callable {
			return false
		}
		if gojainternal.ObjectKind(o) == gojainternal.KindUnknown { // perhaps a Go value reflected into the realm
			switch g := o.Export().(type) {
			case goja.JsonEncodable: // as goja's own stringify: the value it gives, written as is
				v = s.rt.ToValue(g.JsonEncodable())
			case json.Marshaler:
				b, err := g.MarshalJSON()
				if err != nil {
					panic(s.rt.NewGoError(err))
				}
				s.appendUTF8(b)
				return true
			}
		}
	}
	if o, ok := v.(*goja.Object); ok {
		if _, callable := goja.AssertFunction(o); callable {
			return false
		}
		switch o.ClassName() {
		case "Number":
			v = o.ToNumber()
		case "String":
			v = o.ToString()
		case "Boolean":
			b, _ := o.Export().(bool)
			v = s.rt.ToValue(b)
		case "BigInt":
			panic(s.rt.NewTypeError("Do not know how to serialize a BigInt"))
		default:
			if gojainternal.ObjectKind(o) == gojainternal.KindPrimitive {
				if _, ok := o.Export().(*big.Int); ok { // a BigInt object
					panic(s.rt.NewTypeError("Do not know how to serialize a BigInt"))
				}
			}
			if isArray(s.rt, o) {
				s.array(o, k)
			} else {
				s.object(o, k)
			}
			return true
		}
	}
	switch x := v.(type) {
	case goja.String:
		s.quote(x)
		return true
	case *goja.Symbol:
		return false
	}
	switch {
	case goja.IsNumber(v):
		if f := v.ToFloat(); math.IsNaN(f) || math.IsInf(f, 0) {
			s.buf = append(s.buf, "null"...)
		} else {
			s.buf = append(s.buf, v.String()...)
		}
	case goja.IsNull(v):
		s.buf = append(s.buf, "null"...)
	case goja.IsUndefined(v):
		return false
	case goja.IsBigInt(v):
		panic(s.rt.NewTypeError("Do not know how to serialize a BigInt"))
	default: // a boolean
		if v.ToBoolean() {
			s.buf = append(s.buf, "true"...)
		} else {
			s.buf = append(s.buf, "false"...)
		}
	}
	return true
}
