package console

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// functionBase is Node's getFunctionBase and getClassBase: "[Function: f]",
// "[AsyncFunction (anonymous)]", "[class A extends B]".
func (in *inspector) functionBase(o *goja.Object, ctor string, hasCtor bool, tag string) string {
	src := in.callp(in.p.info, in.p.rt.ToValue("Function"), o).String()
	if strings.HasPrefix(src, "class") && strings.HasSuffix(src, "}") && len(src) > 5 &&
		(src[5] == ' ' || src[5] == '{' || src[5] == '\n' || src[5] == '\t') {
		name := "(anonymous)"
		if d := in.descOf(o, in.p.rt.ToValue("name")); d.ok && d.value != nil && d.value.ToBoolean() {
			name = d.value.String()
		}
		base := "class " + name
		if ctor != "Function" && hasCtor {
			base += " [" + ctor + "]"
		}
		if tag != "" && ctor != tag {
			base += " [" + tag + "]"
		}
		if hasCtor {
			if sup := in.p.protoOf(o); sup != nil {
				if sn := in.dataOf(sup, in.p.rt.ToValue("name")); sn.ToBoolean() {
					base += " extends " + sn.String()
				}
			}
		} else {
			base += " extends [null prototype]"
		}
		return "[" + base + "]"
	}
	typ := "Function"
	switch in.p.specialKind(o) {
	case "AsyncFunction":
		typ = "AsyncFunction"
	case "GeneratorFunction":
		typ = "GeneratorFunction"
	case "AsyncGeneratorFunction":
		typ = "AsyncGeneratorFunction"
	}
	base := "[" + typ
	if !hasCtor {
		base += " (null prototype)"
	}
	if name := in.dataOf(o, in.p.rt.ToValue("name")); goja.IsUndefined(name) || name.String() == "" {
		base += " (anonymous)"
	} else {
		base += ": " + name.String()
	}
	base += "]"
	if ctor != typ && hasCtor {
		base += " " + ctor
	}
	if tag != "" && ctor != tag {
		base += " [" + tag + "]"
	}
	return base
}

// boxedBase is Node's getBoxedBase: "[Number: 3]", "[String (Foo): 'x']".
func (in *inspector) boxedBase(o *goja.Object, kind, ctor string, hasCtor bool, tag string, keys []goja.Value) (string, []goja.Value) {
	prim := in.callp(in.p.info, in.p.rt.ToValue(kind), o)
	if kind == "String" {
		n := uint64(0)
		if s, ok := prim.(goja.String); ok {
			n = uint64(s.Length())
		}
		kept := keys[:0:0]
		for _, k := range keys {
			if _, sym := k.(*goja.Symbol); !sym {
				if i, ok := arrayIndex(k.String()); ok && i < n {
					continue
				}
			}
			kept = append(kept, k)
		}
		keys = kept
	}
	base := "[" + kind
	if kind != ctor {
		if !hasCtor {
			base += " (null prototype)"
		} else {
			base += " (" + ctor + ")"
		}
	}
	sub := *in
	sub.indent = 0
	base += ": " + sub.formatPrimitive(prim) + "]"
	if tag != "" && tag != ctor {
		base += " [" + tag + "]"
	}
	return base, keys
}

// hasProperty is `k in o` for o and its prototype chain, stopping at a proxy.
func (in *inspector) hasProperty(o *goja.Object, k goja.Value) bool {
	for n := 0; o != nil && n < 1000; n++ {
		if _, px := isProxy(o); px {
			return false
		}
		if in.descOf(o, k).ok {
			return true
		}
		o = o.Prototype()
	}
	return false
}

// stackString is Node's getStackString: err.stack if it is a non-empty
// string, else Error.prototype.toString's text.
func (in *inspector) stackString(o *goja.Object) string {
	if s, ok := in.dataOf(o, in.p.rt.ToValue("stack")).(goja.String); ok && s.Length() > 0 {
		return gojaFrames(s.String())
	}
	name, msg := "Error", ""
	if v := in.dataOf(o, in.p.rt.ToValue("name")); !goja.IsUndefined(v) {
		name = in.plainString(v)
	}
	if v := in.dataOf(o, in.p.rt.ToValue("message")); !goja.IsUndefined(v) {
		msg = in.plainString(v)
	}
	switch {
	case name == "":
		return msg
	case msg == "":
		return name
	}
	return name + ": " + msg
}

// plainString is String(v) for a primitive, and the inspected object
// otherwise (no user toString is run).
func (in *inspector) plainString(v goja.Value) string {
	if _, ok := v.(*goja.Object); ok {
		sub := *in
		return sub.formatValue(v, 0, false)
	}
	if _, ok := v.(*goja.Symbol); ok {
		return symbolString(v.(*goja.Symbol))
	}
	return v.String()
}

// gojaFrame is a goja stack line, "\tat f (file:1:2(3))": printed the way V8
// prints one, "    at f (file:1:2)".
var gojaFrame = lazyRegexp(`(?m)^\tat (.*?)\(\d+\)(\)?)$`)

func gojaFrames(stack string) string {
	if !strings.Contains(stack, "\n\tat ") {
		return stack
	}
	stack = strings.TrimSuffix(stack, "\n")
	stack = gojaFrame().ReplaceAllString(stack, "    at $1$2")
	return strings.ReplaceAll(stack, "\n\tat ", "\n    at ")
}

// formatError is Node's formatError: the stack (its first line fixed up to
// name the class), indented, and the keys to print after it with the
// cause and an AggregateError's errors added.
func (in *inspector) formatError(o *goja.Object, ctor string, hasCtor bool, tag string, keys []goja.Value) (string, []goja.Value) {
	rt := in.p.rt
	name := "Error"
	if v := in.dataOf(o, rt.ToValue("name")); !goja.IsUndefined(v) && !goja.IsNull(v) {
		name = in.plainString(v)
	}
	stack := in.stackString(o)
	if !in.o.ShowHidden && len(keys) != 0 {
		for _, n := range []string{"name", "message", "stack"} {
			for i, k := range keys {
				if s, ok := k.(goja.String); ok && s.String() == n {
					if v := in.dataOf(o, k); strings.Contains(stack, in.plainString(v)) {
						keys = append(keys[:i:i], keys[i+1:]...)
					}
					break
				}
			}
		}
	}
	hasKey := func(n string) bool {
		for _, k := range keys {
			if s, ok := k.(goja.String); ok && s.String() == n {
				return true
			}
		}
		return false
	}
	if in.hasProperty(o, rt.ToValue("cause")) && !hasKey("cause") {
		keys = append(keys, rt.ToValue("cause"))
	}
	if errs, ok := in.dataOf(o, rt.ToValue("errors")).(*goja.Object); ok && errs.ClassName() == "Array" && !hasKey("errors") {
		keys = append(keys, rt.ToValue("errors"))
	}
	stack = improveStack(stack, ctor, hasCtor, name, tag)

	pos := -1
	if msg, ok := in.dataOf(o, rt.ToValue("message")).(goja.String); ok && msg.Length() > 0 {
		if i := strings.Index(stack, msg.String()); i > 0 {
			pos = i + len(msg.String())
		}
	}
	start := -1
	if pos < 0 {
		start = strings.Index(stack, "\n    at")
	} else if i := strings.Index(stack[pos:], "\n    at"); i >= 0 {
		start = pos + i
	}
	if start == -1 {
		stack = "[" + stack + "]"
	} else {
		lines := in.stackFrames(o, stack[start+1:])
		stack = stack[:start] + "\n" + strings.Join(lines, "\n")
	}
	if in.indent != 0 {
		stack = strings.ReplaceAll(stack, "\n", "\n"+spaces(in.indent))
	}
	return stack, keys
}

// stackFrames is Node's getStackFrames: the frame lines, with those that
// repeat the cause's stack replaced by one "... n lines matching" line.
func (in *inspector) stackFrames(o *goja.Object, frames string) []string {
	lines := strings.Split(frames, "\n")
	cause, ok := in.dataOf(o, in.p.rt.ToValue("cause")).(*goja.Object)
	if !ok || in.p.kindOf(cause) != "Error" {
		return lines
	}
	cs := in.stackString(cause)
	i := strings.Index(cs, "\n    at")
	if i < 0 {
		return lines
	}
	causeLines := strings.Split(cs[i+1:], "\n")
	n, offset := identicalSequenceRange(lines, causeLines)
	if n > 0 {
		skipped := n - 2
		msg := "    ... " + strconv.Itoa(skipped) + " lines matching cause stack trace ..."
		out := append([]string{}, lines[:offset+1]...)
		out = append(out, msg)
		return append(out, lines[offset+1+skipped:]...)
	}
	return lines
}

// identicalSequenceRange finds the longest run (more than 3 lines) of a that
// also occurs in b.
func identicalSequenceRange(a, b []string) (int, int) {
	for i := 0; i < len(a)-3; i++ {
		pos := -1
		for j, s := range b {
			if s == a[i] {
				pos = j
				break
			}
		}
		if pos != -1 {
			rest := len(b) - pos
			if rest > 3 {
				n := 1
				maxLen := min(len(a)-i, rest)
				for maxLen > n && a[i+n] == b[pos+n] {
					n++
				}
				if n > 3 {
					return n, i
				}
			}
		}
	}
	return 0, 0
}

var (
	errorStart   = lazyRegexp(`^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)`)
	errorOnlyRxp = lazyRegexp(`^([a-z_A-Z0-9-]*Error)$`)
)

// improveStack is Node's improveStack: a stack whose first line names the
// error ("TypeError: x") is made to name its class as well ("Foo
// [TypeError]: x").
func improveStack(stack, ctor string, hasCtor bool, name, tag string) string {
	n := len(name)
	if !hasCtor || (strings.HasSuffix(name, "Error") && strings.HasPrefix(stack, name) &&
		(len(stack) == n || stack[n] == ':' || stack[n] == '\n')) {
		fallback := "Error"
		if !hasCtor {
			m := errorStart().FindStringSubmatch(stack)
			if m == nil {
				m = errorOnlyRxp().FindStringSubmatch(stack)
			}
			fallback = ""
			if m != nil {
				fallback = m[1]
			}
			n = len(fallback)
			if fallback == "" {
				fallback = "Error"
			}
		}
		prefix := getPrefix(ctor, hasCtor, tag, fallback, "")
		prefix = prefix[:len(prefix)-1]
		if name != prefix {
			if strings.Contains(prefix, name) {
				if n == 0 {
					stack = prefix + ": " + stack
				} else {
					stack = prefix + stack[n:]
				}
			} else {
				stack = prefix + " [" + name + "]" + stack[n:]
			}
		}
	}
	return stack
}

// customInspect calls fn, the object's [Symbol.for('nodejs.util.inspect.custom')]
// method (the probe's describe found it), as Node does: with this the
// object as the caller passed it (a proxy stays one), and depth, options
// and inspect. ok=false: format the object as usual.
func (in *inspector) customInspect(fn, context *goja.Object, recurse int) (string, bool) {
	rt := in.p.rt
	depth := goja.Null()
	if in.depth != math.MaxInt {
		depth = rt.ToValue(in.depth - recurse)
	}
	opts := optionsObject(rt, in.o)
	p := in.p
	inspectFn := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		o := in.o
		if obj, ok := call.Argument(1).(*goja.Object); ok {
			o = OptionsFromJS(rt, obj, o)
		}
		return rt.ToValue(p.inspect(call.Argument(0), o))
	})
	callFn, _ := goja.AssertFunction(fn)
	res, err := callFn(context, depth, opts, inspectFn)
	if err != nil {
		if ie, ok := err.(*goja.InterruptedError); ok {
			panic(stopInspect{ie.Value()})
		}
		return "", false
	}
	if ro, ok := res.(*goja.Object); ok && ro == context {
		return "", false
	}
	if s, ok := res.(goja.String); ok {
		return strings.ReplaceAll(s.String(), "\n", "\n"+spaces(in.indent)), true
	}
	return in.formatValue(res, recurse, false), true
}

// lazyRegexp returns a function that compiles expr on its first call (not while the library loads: a host pays
// for the console's expressions only once something is printed).
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
