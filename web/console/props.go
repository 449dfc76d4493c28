package console

import (
	"math"
	"regexp"
	"sort"
	"strconv"

	"github.com/dop251/goja"
)

// A descriptor is one own property as Object.getOwnPropertyDescriptor has it.
type descriptor struct {
	ok              bool // the property exists
	value, get, set goja.Value
	enumerable      bool
}

// descOf reads o's own property k (o is not a proxy) without running a getter.
func (in *inspector) descOf(o *goja.Object, k goja.Value) descriptor {
	d, ok := in.callp(in.p.desc, o, k).(*goja.Object)
	if !ok {
		return descriptor{}
	}
	return descriptor{ok: true, value: d.Get("value"), get: d.Get("get"), set: d.Get("set"), enumerable: d.Get("enumerable").ToBoolean()}
}

// dataOf is o[k] when that is a data property on o or its prototype chain,
// and undefined when it is missing or an accessor (whose getter is not run).
func (in *inspector) dataOf(o *goja.Object, k goja.Value) goja.Value {
	for n := 0; o != nil && n < 1000; n++ {
		if _, px := isProxy(o); px {
			return goja.Undefined()
		}
		if d := in.descOf(o, k); d.ok {
			if d.get != nil && !goja.IsUndefined(d.get) || d.set != nil && !goja.IsUndefined(d.set) {
				return goja.Undefined()
			}
			if d.value == nil {
				return goja.Undefined()
			}
			return d.value
		}
		o = o.Prototype()
	}
	return goja.Undefined()
}

// keys is Node's getKeys: own enumerable string keys then enumerable
// symbols (with showHidden, all of them), in the spec's order (integer
// keys ascending first).
func (in *inspector) keys(o *goja.Object) []goja.Value {
	arr, ok := in.callp(in.p.keys, o, in.p.rt.ToValue(in.o.ShowHidden)).(*goja.Object)
	if !ok {
		return nil
	}
	n := int(arr.Get("length").ToInteger())
	var ints []uint64
	intKeys := map[uint64]goja.Value{}
	var strs, syms []goja.Value
	for i := 0; i < n; i++ {
		k := arr.Get(itoa(i))
		if _, isSym := k.(*goja.Symbol); isSym {
			syms = append(syms, k)
			continue
		}
		if idx, ok := arrayIndex(k.String()); ok {
			ints = append(ints, idx)
			intKeys[idx] = k
			continue
		}
		strs = append(strs, k)
	}
	sort.Slice(ints, func(a, b int) bool { return ints[a] < ints[b] })
	if o.ClassName() == "Function" {
		// V8 lists a function's length and name before its prototype.
		var first, rest []goja.Value
		for _, k := range strs {
			if s := k.String(); s == "length" || s == "name" {
				first = append(first, k)
			} else {
				rest = append(rest, k)
			}
		}
		sort.SliceStable(first, func(a, b int) bool { return first[a].String() == "length" && first[b].String() != "length" })
		strs = append(first, rest...)
	}
	out := make([]goja.Value, 0, n)
	for _, i := range ints {
		out = append(out, intKeys[i])
	}
	out = append(out, strs...)
	return append(out, syms...)
}

// nonIndexKeys is keys without array indices (the items of an array or a
// typed array are printed by their formatter).
func (in *inspector) nonIndexKeys(o *goja.Object) []goja.Value {
	arr, ok := in.callp(in.p.extraKeys, o, in.p.rt.ToValue(in.o.ShowHidden)).(*goja.Object)
	if !ok {
		return nil
	}
	n := int(arr.Get("length").ToInteger())
	var strs, syms []goja.Value
	for i := 0; i < n; i++ {
		k := arr.Get(itoa(i))
		if _, isSym := k.(*goja.Symbol); isSym {
			syms = append(syms, k)
		} else {
			strs = append(strs, k)
		}
	}
	return append(strs, syms...)
}

// indexKeys is o's own array-index keys, ascending.
func (in *inspector) indexKeys(o *goja.Object) []uint64 {
	arr, ok := in.callp(in.p.keys, o, in.p.rt.ToValue(true)).(*goja.Object)
	if !ok {
		return nil
	}
	var out []uint64
	for i, n := 0, int(arr.Get("length").ToInteger()); i < n; i++ {
		k := arr.Get(itoa(i))
		if _, isSym := k.(*goja.Symbol); isSym {
			continue
		}
		if idx, ok := arrayIndex(k.String()); ok {
			out = append(out, idx)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// arrayIndex reports whether s is a canonical array index.
func arrayIndex(s string) (uint64, bool) {
	if s == "" || len(s) > 10 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n >= math.MaxUint32 {
		return 0, false
	}
	return n, true
}

// isListedKey reports whether k is printed among o's keys anyway (own and
// enumerable; with showHidden, own): then the tag is not repeated.
func (in *inspector) isListedKey(o *goja.Object, k goja.Value) bool {
	d := in.descOf(o, k)
	return d.ok && (in.o.ShowHidden || d.enumerable)
}

// stringTag is o[Symbol.toStringTag] when that is a string, else "". Like
// Node, this runs a getter that defines it (and only that getter); one that
// throws gives "". The prototype chain is walked up to a proxy only.
func (in *inspector) stringTag(o *goja.Object, kind string) string {
	if s, ok := in.callp(in.p.tag, o).(goja.String); ok {
		return s.String()
	}
	return ""
}

// constructorName is Node's getConstructorName: the name of the first
// constructor on o's prototype chain that o is an instance of; false for
// an object with a null prototype.
func (in *inspector) constructorName(o *goja.Object, recurse int) (string, bool) {
	obj := o
	var first *goja.Object
	firstSet := false
	for n := 0; obj != nil && n < 1000; n++ {
		d := in.descOf(obj, in.p.rt.ToValue("constructor"))
		if d.ok && d.value != nil {
			if fn, ok := d.value.(*goja.Object); ok && fn.ClassName() == "Function" {
				if name := in.dataOf(fn, in.p.rt.ToValue("name")); !goja.IsUndefined(name) && name.String() != "" && in.instanceOf(o, fn) {
					return name.String(), true
				}
			}
		}
		obj = in.p.protoOf(obj)
		if !firstSet {
			first, firstSet = obj, true
		}
	}
	if first == nil {
		return "", false
	}
	res := "Object"
	if o.ClassName() == "Function" {
		res = "Function"
	}
	if recurse > in.depth {
		return res + " <Complex prototype>", true
	}
	pc, ok := in.constructorName(first, recurse+1)
	if !ok {
		sub := *in
		sub.depth, sub.o.CustomInspect, sub.seen, sub.circular, sub.indent = -1, false, nil, nil, 0
		return res + " <" + sub.formatValue(first, 0, false) + ">", true
	}
	return res + " <" + pc + ">", true
}

// instanceOf is ordinary instanceof (no Symbol.hasInstance): fn.prototype is
// on o's prototype chain.
func (in *inspector) instanceOf(o, fn *goja.Object) bool {
	proto, ok := in.descOf(fn, in.p.rt.ToValue("prototype")).value.(*goja.Object)
	if !ok {
		return false
	}
	for p, n := in.p.protoOf(o), 0; p != nil && n < 1000; p, n = in.p.protoOf(p), n+1 {
		if p == proto {
			return true
		}
	}
	return false
}

var keyStrRegExp = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z_0-9]*$`)

// formatProperty is Node's formatProperty: "key: value", or only the value
// for an array item. preset, if not nil, is the value of a key that is not
// an own property (a DataView's byteLength, ...).
func (in *inspector) formatProperty(o *goja.Object, key goja.Value, recurse, typ int, preset goja.Value) string {
	var d descriptor
	if preset != nil {
		d = descriptor{ok: true, value: preset, enumerable: true}
	} else if d = in.descOf(o, key); !d.ok {
		d = descriptor{ok: true, value: in.dataOf(o, key), enumerable: true}
	}
	var str string
	extra := " "
	switch {
	case d.value != nil && !goja.IsUndefined(d.value):
		diff := 2
		if in.o.Compact == CompactTrue && typ == kObjectType {
			diff = 3
		}
		in.indent += diff
		str = in.formatValue(d.value, recurse, false)
		if diff == 3 && in.o.BreakLength < stringWidth(str) {
			extra = "\n" + spaces(in.indent)
		}
		in.indent -= diff
	case d.get != nil && !goja.IsUndefined(d.get):
		hasSet := d.set != nil && !goja.IsUndefined(d.set)
		label := "Getter"
		if hasSet {
			label = "Getter/Setter"
		}
		if g := in.o.Getters; g == "all" || (g == "get" && !hasSet) || (g == "set" && hasSet) {
			str = in.runGetter(o, d.get, label, recurse)
		} else {
			str = "[" + label + "]"
		}
	case d.set != nil && !goja.IsUndefined(d.set):
		str = "[Setter]"
	default:
		str = "undefined"
	}
	if typ == kArrayType {
		return str
	}
	var name string
	if sym, ok := key.(*goja.Symbol); ok {
		name = "[" + escapeSequences(symbolString(sym)) + "]"
	} else if k := key.String(); k == "__proto__" {
		name = "['__proto__']"
	} else if !d.enumerable {
		name = "[" + escapeSequences(k) + "]"
	} else if keyStrRegExp.MatchString(k) {
		name = k
	} else {
		name = strEscape(key)
	}
	return name + ":" + extra + str
}

func itoa(i int) string { return strconv.Itoa(i) }

// runGetter is the getters option: the getter's value, "[Getter: 1]" or
// "[Getter] { a: 1 }", or what it threw.
func (in *inspector) runGetter(o *goja.Object, get goja.Value, label string, recurse int) string {
	fn, ok := goja.AssertFunction(get)
	if !ok {
		return "[" + label + "]"
	}
	v, err := fn(o)
	if err != nil {
		if ie, ok := err.(*goja.InterruptedError); ok {
			panic(stopInspect{ie.Value()})
		}
		msg := err.Error()
		if ex, ok := err.(*goja.Exception); ok {
			if eo, ok := ex.Value().(*goja.Object); ok {
				msg = in.plainString(in.dataOf(eo, in.p.rt.ToValue("message")))
			}
		}
		return "[" + label + ": <Inspection threw (" + msg + ")>]"
	}
	in.indent += 2
	defer func() { in.indent -= 2 }()
	if goja.IsNull(v) {
		return "[" + label + ": null]"
	}
	if _, isObj := v.(*goja.Object); isObj {
		return "[" + label + "] " + in.formatValue(v, recurse, false)
	}
	return "[" + label + ": " + in.formatPrimitive(v) + "]"
}
