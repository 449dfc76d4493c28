package inspector

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// remoteObject is CDP's Runtime.RemoteObject: a mirror of a JavaScript value.
// Fields are in the protocol's order.
type remoteObject struct {
	Type                string          `json:"type"`
	Subtype             string          `json:"subtype,omitempty"`
	ClassName           string          `json:"className,omitempty"`
	Value               json.RawMessage `json:"value,omitempty"`
	UnserializableValue string          `json:"unserializableValue,omitempty"`
	Description         string          `json:"description,omitempty"`
	ObjectID            string          `json:"objectId,omitempty"`
}

// remote mirrors v. Objects, functions and symbols are kept alive under a new
// objectId in group. Building the mirror runs none of the inspected program's
// code: no getter, no proxy trap, no toString.
func (c *call) remote(v goja.Value, group string) *remoteObject {
	if ro := primitive(v); ro != nil {
		return ro
	}
	if sym, ok := v.(*goja.Symbol); ok {
		return &remoteObject{Type: "symbol", Description: symbolDescription(sym), ObjectID: c.s.hold(v, group)}
	}
	o := v.(*goja.Object)
	ro := c.describe(o)
	ro.ObjectID = c.s.hold(v, group)
	return ro
}

// primitive mirrors undefined, null, booleans, numbers, strings and bigints;
// nil for objects and symbols.
func primitive(v goja.Value) *remoteObject {
	if v == nil || goja.IsUndefined(v) {
		return &remoteObject{Type: "undefined"}
	}
	if goja.IsNull(v) {
		return &remoteObject{Type: "object", Subtype: "null", Value: json.RawMessage("null")}
	}
	switch x := v.(type) {
	case *goja.Object, *goja.Symbol:
		return nil
	case goja.String:
		return &remoteObject{Type: "string", Value: jsonString(x)}
	}
	switch x := v.Export().(type) {
	case bool:
		return &remoteObject{Type: "boolean", Value: json.RawMessage(strconv.FormatBool(x))}
	case int64:
		s := strconv.FormatInt(x, 10)
		return &remoteObject{Type: "number", Value: json.RawMessage(s), Description: s}
	case float64:
		if un := unserializableNumber(x); un != "" {
			return &remoteObject{Type: "number", UnserializableValue: un, Description: un}
		}
		return &remoteObject{Type: "number", Value: rawNumber(x), Description: v.String()}
	case *big.Int:
		s := x.String() + "n"
		return &remoteObject{Type: "bigint", UnserializableValue: s, Description: s}
	}
	// A value kind this package does not know: say what it is, never fail.
	return &remoteObject{Type: "undefined", Description: v.String()}
}

// unserializableNumber names the numbers JSON cannot carry: NaN, Infinity,
// -Infinity and -0; "" for the others.
func unserializableNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0 && math.Signbit(f):
		return "-0"
	}
	return ""
}

func symbolDescription(sym *goja.Symbol) string {
	return "Symbol(" + sym.String() + ")"
}

// describe fills type, subtype, className and description of an object.
func (c *call) describe(o *goja.Object) *remoteObject {
	k := classify(o)
	_, callable := goja.AssertFunction(o)
	if k.kind == kindProxy {
		typ, inner := "object", "Object"
		if callable {
			typ, inner = "function", "Function"
		}
		return &remoteObject{Type: typ, Subtype: "proxy", ClassName: inner, Description: "Proxy(" + inner + ")"}
	}
	if callable {
		desc := "function () { [native code] }"
		if s, ok := invoke(c.realm().fnToString, o); ok {
			desc = s.String()
		}
		return &remoteObject{Type: "function", ClassName: "Function", Description: desc}
	}
	ro := &remoteObject{Type: "object", Subtype: subtypes[k.kind]}
	t := c.realm()
	cn := ""
	switch k.kind {
	case kindIterator, kindGenerator:
		ro.ClassName = k.name // their prototypes name no constructor
	case kindArguments:
		ro.ClassName = "Arguments"
	default:
		cn = c.constructorName(o)
		ro.ClassName = cn
		if ro.ClassName == "" {
			ro.ClassName = k.name
		}
		if ro.ClassName == "" {
			ro.ClassName = o.ClassName()
		}
	}
	ro.Description = ro.ClassName
	switch k.kind {
	case kindArray, kindArguments:
		ro.Description += "(" + c.dataLength(o) + ")"
	case kindMap:
		ro.Description += "(" + callInt(t.mapSize, o) + ")"
	case kindSet:
		ro.Description += "(" + callInt(t.setSize, o) + ")"
	case kindArrayBuffer:
		ro.Description += "(" + callInt(t.abLength, o) + ")"
	case kindDataView:
		ro.Description += "(" + callInt(t.dvLength, o) + ")"
	case kindTypedArray:
		if tag, ok := invoke(t.taTag, o); ok && !goja.IsUndefined(tag) {
			if cn == "" {
				ro.ClassName = tag.String()
			}
			ro.Description = ro.ClassName + "(" + callInt(t.taLength, o) + ")"
		}
	case kindRegExp:
		if src, ok := invoke(t.reSource, o); ok {
			var flags strings.Builder
			for _, f := range t.reFlags {
				if on, ok := invoke(f.getter, o); ok && on.ToBoolean() {
					flags.WriteByte(f.flag)
				}
			}
			ro.Description = "/" + src.String() + "/" + flags.String()
		}
	case kindDate:
		if s, ok := invoke(t.dateToString, o); ok {
			ro.Description = s.String()
		}
	case kindError:
		if d, ok := c.ownDescriptor(o, c.rt.ToValue("stack")); ok && !d.accessor {
			if s, isStr := d.value.(goja.String); isStr {
				ro.Description = strings.TrimRight(s.String(), "\n")
			}
		}
	}
	return ro
}

// callInt calls a captured getter and formats its result as an integer; "?"
// when the getter is missing or refused the receiver.
func callInt(fn goja.Callable, this goja.Value) string {
	if v, ok := invoke(fn, this); ok {
		return strconv.FormatInt(v.ToInteger(), 10)
	}
	return "?"
}

// dataLength reads an own data property "length" without running a getter.
func (c *call) dataLength(o *goja.Object) string {
	if d, ok := c.ownDescriptor(o, c.rt.ToValue("length")); ok && !d.accessor {
		return strconv.FormatInt(d.value.ToInteger(), 10)
	}
	return "?"
}

// constructorName finds the name of o's constructor the way V8 reports a
// className: the first "constructor" data property on the prototype chain
// whose value is a function with a data property "name". Proxies end the walk
// (their traps must not run); "" when nothing is found.
func (c *call) constructorName(o *goja.Object) string {
	key := c.rt.ToValue("constructor")
	nameKey := c.rt.ToValue("name")
	cur := o
	for depth := 0; cur != nil && depth < 100; depth++ {
		if isProxy(cur) {
			return ""
		}
		if d, ok := c.ownDescriptor(cur, key); ok {
			if d.accessor {
				return ""
			}
			fn, isObj := d.value.(*goja.Object)
			if !isObj || isProxy(fn) {
				return ""
			}
			if _, callable := goja.AssertFunction(fn); !callable {
				return ""
			}
			if nd, ok := c.ownDescriptor(fn, nameKey); ok && !nd.accessor {
				if s, isStr := nd.value.(goja.String); isStr {
					return s.String()
				}
			}
			return ""
		}
		cur = cur.Prototype()
	}
	return ""
}

// byValue mirrors v with returnByValue: objects travel as the JSON text the
// realm's own JSON.stringify makes of them (captured at first use), which may
// run toJSON methods and getters, as in V8. ok is false when v cannot be
// serialized (a cycle, a BigInt inside, a throwing getter).
func (c *call) byValue(v goja.Value) (*remoteObject, bool) {
	if ro := primitive(v); ro != nil {
		return ro, true
	}
	if sym, isSym := v.(*goja.Symbol); isSym {
		return &remoteObject{Type: "symbol", Description: symbolDescription(sym)}, true
	}
	o := v.(*goja.Object)
	typ := "object"
	if _, callable := goja.AssertFunction(o); callable {
		typ = "function"
	}
	s, ok := invoke(c.realm().stringify, goja.Undefined(), o)
	if !ok {
		return nil, false
	}
	text := json.RawMessage("{}") // what V8 sends for functions and objects JSON skips
	if str, isStr := s.(goja.String); isStr {
		text = json.RawMessage(str.String())
		if !json.Valid(text) {
			return nil, false
		}
	}
	return &remoteObject{Type: typ, Value: text}, true
}
