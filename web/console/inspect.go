package console

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// InspectOptions are util.inspect's options. The zero value is not Node's
// defaults: start from [DefaultInspectOptions] and change what differs.
type InspectOptions struct {
	// Depth is how many levels of nested objects are shown before they are
	// abbreviated ([Object], [Array], ...): 0 shows the top level's
	// properties, -1 abbreviates the value itself, math.MaxInt is no limit
	// (Node's null or Infinity).
	Depth int
	// ShowHidden also shows non-enumerable properties (as [key]: value) and
	// the hidden facts of typed arrays.
	ShowHidden bool
	// Compact is Node's compact option: a number n ≥ 1 puts the n innermost
	// levels on one line when they fit BreakLength; 0 is compact: false
	// (every property on its own line); CompactTrue is compact: true.
	Compact int
	// BreakLength is the line length output is broken at. math.MaxInt is
	// Infinity.
	BreakLength int
	// MaxArrayLength is how many items of arrays, typed arrays, Maps and Sets
	// are shown. Negative: all.
	MaxArrayLength int
	// MaxStringLength is how many characters of a string are shown.
	// Negative: all.
	MaxStringLength int
	// Sorted sorts object properties (and Map/Set entries' keys) by name.
	Sorted bool
	// CustomInspect calls an object's [Symbol.for('nodejs.util.inspect.custom')]
	// method, as Node does (this runs user code).
	CustomInspect bool
	// ShowProxy prints a proxy as Proxy [ target, handler ] instead of as
	// its target.
	ShowProxy bool
	// Getters is Node's getters option: "" does not run getters (they print
	// as [Getter]); "all" runs every getter, "get" those without a setter,
	// "set" those with one, printing [Getter: value] (user code runs).
	Getters string
	// NumericSeparator writes numbers and BigInts with an underscore
	// between groups of three digits (1_000_000).
	NumericSeparator bool
}

// CompactTrue is InspectOptions.Compact for Node's compact: true.
const CompactTrue = -1

// DefaultInspectOptions returns util.inspect's defaults in Node v20: depth 2,
// compact 3, breakLength 80, maxArrayLength 100, maxStringLength 10000,
// customInspect on.
func DefaultInspectOptions() InspectOptions {
	return InspectOptions{Depth: 2, Compact: 3, BreakLength: 80, MaxArrayLength: 100, MaxStringLength: 10000, CustomInspect: true}
}

// Inspect returns v as Node's util.inspect(v, opts) prints it (without
// colors). It runs on rt's goroutine, reads objects through rt's
// intrinsics without running getters or proxy traps, and never throws:
// should rt be interrupted while it inspects (Runtime.Interrupt), the
// interrupt is raised again for the script's next instruction and Inspect
// returns "".
func Inspect(rt *goja.Runtime, v goja.Value, opts InspectOptions) string {
	p, err := newProbe(rt)
	if err != nil {
		return "[inspect failed: " + err.Error() + "]"
	}
	return p.inspect(v, opts)
}

// inspect is Inspect with a probe made already.
func (p *probe) inspect(v goja.Value, opts InspectOptions) (out string) {
	in := newInspector(p, opts)
	defer func() {
		if r := recover(); r != nil {
			if stop, ok := r.(stopInspect); ok {
				p.rt.Interrupt(stop.v)
				out = ""
				return
			}
			if ie, ok := r.(*goja.InterruptedError); ok {
				p.rt.Interrupt(ie.Value())
				out = ""
				return
			}
			out = fmt.Sprintf("[inspect failed: %v]", r)
		}
	}()
	in.callp(p.begin)
	return in.formatValue(v, 0, false)
}

// stopInspect unwinds an inspection whose runtime was interrupted.
type stopInspect struct{ v interface{} }

// An inspector is one util.inspect call's context (Node's ctx).
type inspector struct {
	p            *probe
	o            InspectOptions
	depth        int // math.MaxInt: no limit
	maxArray     int
	maxString    int
	indent       int
	seen         []*goja.Object
	circular     map[*goja.Object]int
	currentDepth int
	budget       map[int]int
}

func newInspector(p *probe, o InspectOptions) *inspector {
	in := &inspector{p: p, o: o, depth: o.Depth, maxArray: o.MaxArrayLength, maxString: o.MaxStringLength, budget: map[int]int{}}
	if in.maxArray < 0 {
		in.maxArray = math.MaxInt
	}
	if in.maxString < 0 {
		in.maxString = math.MaxInt
	}
	if in.o.BreakLength <= 0 {
		in.o.BreakLength = 80
	}
	return in
}

// callp calls one of the probe's functions; an exception gives undefined,
// an interrupt unwinds the inspection.
func (in *inspector) callp(fn goja.Callable, args ...goja.Value) goja.Value {
	v, err := fn(goja.Undefined(), args...)
	if err != nil {
		if ie, ok := err.(*goja.InterruptedError); ok {
			panic(stopInspect{ie.Value()})
		}
		return goja.Undefined()
	}
	return v
}

const (
	kObjectType = iota
	kArrayType
	kArrayExtrasType
)

// formatValue is Node's formatValue: primitives, proxies, custom inspect
// functions and circular references, else formatRaw.
func (in *inspector) formatValue(v goja.Value, recurse int, typedArray bool) string {
	o, ok := v.(*goja.Object)
	if !ok {
		return in.formatPrimitive(v)
	}
	context := o
	for n := 0; n < 10000; n++ {
		t, px := isProxy(o)
		if !px {
			break
		}
		if t == nil {
			return "<Revoked Proxy>"
		}
		if in.o.ShowProxy {
			return in.formatProxy(o, t, recurse)
		}
		o = t
	}
	kind := in.p.kindOf(o)
	meta := in.describe(o, kind)
	if in.o.CustomInspect && meta.custom != nil {
		if s, ok := in.customInspect(meta.custom, context, recurse); ok {
			return s
		}
	}
	for _, s := range in.seen {
		if s == o {
			if in.circular == nil {
				in.circular = map[*goja.Object]int{}
			}
			idx, ok := in.circular[o]
			if !ok {
				idx = len(in.circular) + 1
				in.circular[o] = idx
			}
			return "[Circular *" + strconv.Itoa(idx) + "]"
		}
	}
	return in.formatRaw(o, kind, meta, recurse, typedArray)
}

// sameKeys reports whether a and b list the same keys.
func sameKeys(a, b []goja.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].SameAs(b[i]) {
			return false
		}
	}
	return true
}

// objectMeta is what the probe's describe tells of an object.
type objectMeta struct {
	ctor      string
	hasCtor   bool // false: a null prototype
	complex   bool // no constructor on a longer chain: constructorName decides
	tag       string
	tagListed bool
	custom    *goja.Object // the custom inspect function, or nil
	keys      []goja.Value // nil for arrays and typed arrays
	descs     []descriptor // the keys' own descriptors
}

func (in *inspector) describe(o *goja.Object, kind string) objectMeta {
	wantKeys := kind != "Array" && kind != "TypedArray"
	arr, ok := in.callp(in.p.describe, o, in.p.rt.ToValue(in.o.ShowHidden), in.p.rt.ToValue(wantKeys)).(*goja.Object)
	if !ok {
		return objectMeta{ctor: "Object", hasCtor: true}
	}
	var m objectMeta
	switch c := arr.Get("0"); {
	case goja.IsNull(c):
	case goja.IsUndefined(c):
		m.complex = true
	default:
		m.ctor, m.hasCtor = c.String(), true
	}
	m.tag = arr.Get("1").String()
	m.tagListed = arr.Get("2").ToBoolean()
	if f, ok := arr.Get("3").(*goja.Object); ok {
		m.custom = f
	}
	if ks, ok := arr.Get("4").(*goja.Object); ok {
		m.keys, m.descs = orderKeyDescs(ks, o.ClassName() == "Function")
	}
	return m
}

// formatProxy is Node's formatProxy: Proxy [ target, handler ].
func (in *inspector) formatProxy(px, target *goja.Object, recurse int) string {
	if recurse > in.depth {
		return "Proxy [Array]"
	}
	handler := goja.Null()
	if p, ok := px.Export().(goja.Proxy); ok && p.Handler() != nil {
		handler = p.Handler()
	}
	recurse++
	in.indent += 2
	res := []string{in.formatValue(target, recurse, false), in.formatValue(handler, recurse, false)}
	in.indent -= 2
	return in.reduceToSingleString(res, "", [2]string{"Proxy [", "]"}, kArrayExtrasType, recurse, nil)
}

// getPrefix is Node's getPrefix: "Foo ", "Foo(2) [tag] ", "[Map(2): null prototype] ".
func getPrefix(constructor string, hasCtor bool, tag, fallback, size string) string {
	if !hasCtor {
		if tag != "" && fallback != tag {
			return "[" + fallback + size + ": null prototype] [" + tag + "] "
		}
		return "[" + fallback + size + ": null prototype] "
	}
	if tag != "" && constructor != tag {
		return constructor + size + " [" + tag + "] "
	}
	return constructor + size + " "
}

// formatRaw is Node's formatRaw: the braces, base and entries of an object.
func (in *inspector) formatRaw(o *goja.Object, kind string, meta objectMeta, recurse int, typedArray bool) string {
	p := in.p
	ctor, hasCtor := meta.ctor, meta.hasCtor
	if meta.complex {
		ctor, hasCtor = in.constructorName(o, recurse)
	}
	tag := meta.tag
	fallback := "Object" // what a null-prototype object is called
	if tag != "" && meta.tagListed {
		if !hasCtor {
			fallback = tag // V8 names such an object after its own tag
		}
		tag = ""
	}
	var (
		keys      []goja.Value
		base      string
		braces    = [2]string{"{", "}"}
		formatter func(recurse int) []string
		extras    = kObjectType
		preset    = map[string]goja.Value{} // values of keys that are not own properties
		numeric   func(n int) bool          // an array's first n items are numbers (grouped columns pad at the start)
	)
	switch kind {
	case "Array":
		prefix := ""
		length := o.Get("length").ToInteger()
		if ctor != "Array" || tag != "" {
			prefix = getPrefix(ctor, hasCtor, tag, "Array", "("+strconv.FormatInt(length, 10)+")")
		}
		keys = in.nonIndexKeys(o)
		braces = [2]string{prefix + "[", "]"}
		if length == 0 && len(keys) == 0 {
			return braces[0] + "]"
		}
		var items []descriptor
		extras = kArrayExtrasType
		numeric = func(n int) bool { return in.numericItems(o, items, n) }
		formatter = func(r int) []string {
			var out []string
			out, items = in.formatArray(o, length, r)
			return out
		}
	case "Set", "Map":
		size := in.callp(p.info, p.rt.ToValue(kind), o).ToInteger()
		prefix := getPrefix(ctor, hasCtor, tag, kind, "("+strconv.FormatInt(size, 10)+")")
		keys = meta.keys
		if size == 0 && len(keys) == 0 {
			return prefix + "{}"
		}
		braces = [2]string{prefix + "{", "}"}
		formatter = func(r int) []string { return in.formatCollection(o, kind, size, r) }
	case "TypedArray":
		info := in.callp(p.info, p.rt.ToValue(kind), o).ToObject(p.rt)
		name, length := info.Get("0").String(), info.Get("1").ToInteger()
		keys = in.nonIndexKeys(o)
		fallback := ""
		if !hasCtor {
			fallback = name
		}
		prefix := getPrefix(ctor, hasCtor, tag, fallback, "("+strconv.FormatInt(length, 10)+")")
		braces = [2]string{prefix + "[", "]"}
		if length == 0 && len(keys) == 0 && !in.o.ShowHidden {
			return braces[0] + "]"
		}
		extras = kArrayExtrasType
		numeric = func(n int) bool { return int64(n) <= length }
		formatter = func(r int) []string { return in.formatTypedArray(o, length, r) }
	default:
		keys = meta.keys
		switch {
		case kind == "Function":
			base = in.functionBase(o, ctor, hasCtor, tag)
			if len(keys) == 0 {
				return base
			}
		case kind == "RegExp":
			// goja's source escapes a slash as \u002f where V8 writes \/.
			base = strings.ReplaceAll(in.callp(p.info, p.rt.ToValue(kind), o).String(), `\u002f`, `\/`)
			if prefix := getPrefix(ctor, hasCtor, tag, "RegExp", ""); prefix != "RegExp " {
				base = prefix + base
			}
			if len(keys) == 0 || recurse > in.depth {
				return base
			}
		case kind == "Date":
			base = in.callp(p.info, p.rt.ToValue(kind), o).String()
			if prefix := getPrefix(ctor, hasCtor, tag, "Date", ""); prefix != "Date " {
				base = prefix + base
			}
			if len(keys) == 0 {
				return base
			}
		case kind == "Error":
			base, keys = in.formatError(o, ctor, hasCtor, tag, keys)
			if len(keys) == 0 {
				return base
			}
		case kind == "ArrayBuffer" || kind == "SharedArrayBuffer":
			prefix := getPrefix(ctor, hasCtor, tag, kind, "")
			byteLength := in.callp(p.info, p.rt.ToValue(kind), o)
			if !typedArray {
				formatter = func(int) []string { return in.formatArrayBuffer(o) }
			} else if len(keys) == 0 {
				return prefix + "{ byteLength: " + in.formatNumber(byteLength) + " }"
			}
			braces[0] = prefix + "{"
			keys = append([]goja.Value{p.rt.ToValue("byteLength")}, keys...)
			preset["byteLength"] = byteLength
		case kind == "DataView":
			info := in.callp(p.info, p.rt.ToValue(kind), o).ToObject(p.rt)
			braces[0] = getPrefix(ctor, hasCtor, tag, "DataView", "") + "{"
			keys = append([]goja.Value{p.rt.ToValue("byteLength"), p.rt.ToValue("byteOffset"), p.rt.ToValue("buffer")}, keys...)
			preset["byteLength"], preset["byteOffset"], preset["buffer"] = info.Get("0"), info.Get("1"), info.Get("2")
		case kind == "Promise":
			braces[0] = getPrefix(ctor, hasCtor, tag, "Promise", "") + "{"
			formatter = func(r int) []string { return in.formatPromise(o, r) }
		case kind == "WeakSet" || kind == "WeakMap":
			braces[0] = getPrefix(ctor, hasCtor, tag, kind, "") + "{"
			formatter = func(int) []string { return []string{"<items unknown>"} }
		case kind == "Number" || kind == "String" || kind == "Boolean" || kind == "Symbol" || kind == "BigInt":
			base, keys = in.boxedBase(o, kind, ctor, hasCtor, tag, keys)
			if len(keys) == 0 {
				return base
			}
		case hasCtor && ctor == "Object":
			if kind == "Arguments" {
				braces[0] = "[Arguments] {"
			} else if tag != "" {
				braces[0] = getPrefix(ctor, hasCtor, tag, "Object", "") + "{"
			}
			if len(keys) == 0 {
				return braces[0] + "}"
			}
		default:
			if len(keys) == 0 {
				return getPrefix(ctor, hasCtor, tag, fallback, "") + "{}"
			}
			braces[0] = getPrefix(ctor, hasCtor, tag, fallback, "") + "{"
		}
	}
	if recurse > in.depth {
		name := getPrefix(ctor, hasCtor, tag, fallback, "")
		name = name[:len(name)-1]
		if hasCtor {
			name = "[" + name + "]"
		}
		return name
	}
	recurse++
	in.seen = append(in.seen, o)
	in.currentDepth = recurse
	var output []string
	if formatter != nil {
		output = formatter(recurse)
	}
	descs := meta.descs
	if !sameKeys(keys, meta.keys) { // keys changed (DataView, ArrayBuffer, errors) or not from describe
		descs = in.descsOf(o, keys)
	}
	for i, k := range keys {
		d := descs[i]
		if s, ok := k.(goja.String); ok {
			if pv, ok := preset[s.String()]; ok {
				d = descriptor{ok: true, value: pv, enumerable: true}
			}
		}
		output = append(output, in.formatProperty(o, k, d, recurse, extras))
	}
	if in.circular != nil {
		if idx, ok := in.circular[o]; ok {
			ref := "<ref *" + strconv.Itoa(idx) + ">"
			if in.o.Compact != CompactTrue {
				if base == "" {
					base = ref
				} else {
					base = ref + " " + base
				}
			} else {
				braces[0] = ref + " " + braces[0]
			}
		}
	}
	in.seen = in.seen[:len(in.seen)-1]
	if in.o.Sorted {
		if extras == kObjectType {
			sort.Strings(output)
		} else if len(keys) > 1 {
			sort.Strings(output[len(output)-len(keys):])
		}
	}
	res := in.reduceToSingleString(output, base, braces, extras, recurse, numeric)
	newLength := in.budget[in.indent] + jsLen(res)
	in.budget[in.indent] = newLength
	if newLength > 1<<27 {
		in.depth = -1
	}
	return res
}
