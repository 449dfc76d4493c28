package console

import (
	"math"
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

// descsOf reads the own descriptors of keys in one probe call.
func (in *inspector) descsOf(o *goja.Object, keys []goja.Value) []descriptor {
	out := make([]descriptor, len(keys))
	if len(keys) == 0 {
		return out
	}
	arr, ok := in.callp(in.p.descs, o, in.p.rt.NewArray(valuesToAny(keys)...)).(*goja.Object)
	if !ok {
		return out
	}
	return readDescs(arr, out)
}

// readDescs decodes the probe's flat [state, value, get, set] list into out.
func readDescs(arr *goja.Object, out []descriptor) []descriptor {
	n := int(arr.Get("length").ToInteger()) / 4
	if out == nil {
		out = make([]descriptor, n)
	}
	for i := 0; i < n && i < len(out); i++ {
		st := arr.Get(itoa(4 * i)).ToInteger()
		if st == 0 {
			continue
		}
		out[i] = descriptor{ok: true, value: arr.Get(itoa(4*i + 1)), get: arr.Get(itoa(4*i + 2)), set: arr.Get(itoa(4*i + 3)), enumerable: st == 2}
	}
	return out
}

func valuesToAny(vs []goja.Value) []interface{} {
	out := make([]interface{}, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
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
	return orderKeys(arr, o.ClassName() == "Function")
}

// orderKeyDescs is orderKeys for the probe's flat [key, state, value, get,
// set] list: the keys in order, and their descriptors.
func orderKeyDescs(arr *goja.Object, function bool) ([]goja.Value, []descriptor) {
	n := int(arr.Get("length").ToInteger()) / 5
	rawKeys := make([]goja.Value, n)
	for i := range rawKeys {
		rawKeys[i] = arr.Get(itoa(5 * i))
	}
	keys := make([]goja.Value, n)
	descs := make([]descriptor, n)
	for i, j := range keyOrder(rawKeys, function) {
		keys[i] = rawKeys[j]
		descs[i] = descriptor{ok: true, value: arr.Get(itoa(5*j + 2)), get: arr.Get(itoa(5*j + 3)), set: arr.Get(itoa(5*j + 4)),
			enumerable: arr.Get(itoa(5*j+1)).ToInteger() == 2}
	}
	return keys, descs
}

// orderKeys is the keys in arr (a JavaScript array from the probe) in the
// spec's order, integer keys first; a function's length and name lead as
// in V8.
func orderKeys(arr *goja.Object, function bool) []goja.Value {
	n := int(arr.Get("length").ToInteger())
	keys := make([]goja.Value, n)
	for i := range keys {
		keys[i] = arr.Get(itoa(i))
	}
	return orderValues(keys, function)
}

// orderValues puts keys in the spec's order (see orderKeys).
func orderValues(keys []goja.Value, function bool) []goja.Value {
	out := make([]goja.Value, len(keys))
	for i, j := range keyOrder(keys, function) {
		out[i] = keys[j]
	}
	return out
}

// keyOrder is the permutation that puts keys in the spec's order: integer
// keys ascending, then the other strings (a function's length and name
// first), then symbols, each group otherwise as given.
func keyOrder(keys []goja.Value, function bool) []int {
	type intKey struct {
		n   uint64
		pos int
	}
	var ints []intKey
	var lead, strs, syms []int
	for i, k := range keys {
		if _, isSym := k.(*goja.Symbol); isSym {
			syms = append(syms, i)
			continue
		}
		s := k.String()
		if idx, ok := arrayIndex(s); ok {
			ints = append(ints, intKey{idx, i})
			continue
		}
		if function && (s == "length" || s == "name") {
			// V8 lists a function's length and name before its prototype.
			if s == "length" {
				lead = append([]int{i}, lead...)
			} else {
				lead = append(lead, i)
			}
			continue
		}
		strs = append(strs, i)
	}
	sort.SliceStable(ints, func(a, b int) bool { return ints[a].n < ints[b].n })
	order := make([]int, 0, len(keys))
	for _, k := range ints {
		order = append(order, k.pos)
	}
	order = append(order, lead...)
	order = append(order, strs...)
	return append(order, syms...)
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

// constructorName is Node's getConstructorName: the name of the first
// constructor on o's prototype chain that o is an instance of; false for
// an object with a null prototype.
func (in *inspector) constructorName(o *goja.Object, recurse int) (string, bool) {
	obj := o
	var first *goja.Object
	firstSet := false
	for n := 0; obj != nil && n < 1000; n++ {
		if _, px := isProxy(obj); px {
			break // a proxy on the chain ends it (its traps are not run)
		}
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
	if _, px := isProxy(fn); px {
		return false
	}
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

var keyStrRegExp = lazyRegexp(`^[a-zA-Z_][a-zA-Z_0-9]*$`)

// formatProperty is Node's formatProperty: "key: value", or only the value
// for an array item. d is key's own descriptor; for a key that is not an
// own property (a DataView's byteLength, ...) the value is looked up.
func (in *inspector) formatProperty(o *goja.Object, key goja.Value, d descriptor, recurse, typ int) string {
	if !d.ok {
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
	} else if keyStrRegExp().MatchString(k) {
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
