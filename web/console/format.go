package console

import (
	"strings"

	"github.com/dop251/goja"
)

// Format returns args as Node's util.format(...args) prints them: a first
// string argument's %s %d %i %f %j %o %O %c and %% are replaced by the
// arguments that follow, and the remaining arguments are appended, strings
// as they are and everything else inspected, joined with spaces. Format
// runs on rt's goroutine. Like Node it runs user code where util.format
// does (%s calls a user toString, %d a valueOf, %j a toJSON); what that
// code throws is not propagated: the argument is inspected instead. An
// interrupt of rt while that code runs is raised again for the script's
// next instruction (see Inspect).
func Format(rt *goja.Runtime, args []goja.Value) string {
	p, err := newProbe(rt)
	if err != nil {
		return "[format failed: " + err.Error() + "]"
	}
	return p.format(args, DefaultInspectOptions())
}

// try runs fn (which may run user code), and reports false if it threw.
// An interrupt of the runtime is not swallowed: it is raised again for the
// script's next instruction, and try reports false.
func (p *probe) try(fn func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ie, isInterrupt := r.(*goja.InterruptedError)
			if !isInterrupt {
				panic(r)
			}
			p.rt.Interrupt(ie.Value())
			ok = false
		}
	}()
	return p.rt.Try(fn) == nil
}

// format is util.formatWithOptions(opts, ...args).
func (p *probe) format(args []goja.Value, opts InspectOptions) string {
	if len(args) == 0 {
		return ""
	}
	first, isStr := args[0].(goja.String)
	if isStr && len(args) == 1 {
		return first.String()
	}
	var sb strings.Builder
	a := 0
	join := ""
	if isStr {
		f := []rune(first.String())
		lastPos := 0
		for i := 0; i < len(f)-1; i++ {
			if f[i] != '%' {
				continue
			}
			i++
			next := f[i]
			if a+1 != len(args) {
				var tmp string
				switch next {
				case 's':
					a++
					tmp = p.formatS(args[a], opts)
				case 'j':
					a++
					tmp = p.formatJ(args[a], opts)
				case 'd':
					a++
					tmp = p.formatD(args[a], opts)
				case 'O':
					a++
					tmp = p.inspect(args[a], opts)
				case 'o':
					a++
					o := opts
					o.ShowHidden, o.ShowProxy, o.Depth = true, true, 4
					tmp = p.inspect(args[a], o)
				case 'i', 'f':
					a++
					tmp = p.formatParsed(args[a], next == 'i', opts)
				case 'c':
					a++
					tmp = ""
				case '%':
					sb.WriteString(string(f[lastPos:i]))
					lastPos = i + 1
					continue
				default:
					continue
				}
				if lastPos != i-1 {
					sb.WriteString(string(f[lastPos : i-1]))
				}
				sb.WriteString(tmp)
				lastPos = i + 1
			} else if next == '%' {
				sb.WriteString(string(f[lastPos:i]))
				lastPos = i + 1
			}
		}
		if lastPos != 0 {
			a++
			join = " "
			if lastPos < len(f) {
				sb.WriteString(string(f[lastPos:]))
			}
		}
	}
	for ; a < len(args); a++ {
		sb.WriteString(join)
		if s, ok := args[a].(goja.String); ok {
			sb.WriteString(s.String())
		} else {
			sb.WriteString(p.inspect(args[a], opts))
		}
		join = " "
	}
	return sb.String()
}

// formatS is %s: numbers and BigInts as inspect prints them, objects whose
// toString is a built-in's inspected (depth 0), anything else String(v).
func (p *probe) formatS(v goja.Value, opts InspectOptions) string {
	in := newInspector(p, opts)
	if o, ok := v.(*goja.Object); ok {
		target := o
		if t, px := isProxy(o); px {
			if t == nil {
				return p.inspectShallow(v, opts)
			}
			target = t
		}
		if target.ClassName() == "Function" {
			var s string
			if p.try(func() { s = o.String() }) {
				return s
			}
			return p.inspectShallow(v, opts)
		}
		if b, err := p.builtinToString(goja.Undefined(), target); err != nil || b.ToBoolean() {
			return p.inspectShallow(v, opts)
		}
		var s string
		if p.try(func() { s = o.String() }) {
			return s
		}
		return p.inspectShallow(v, opts)
	}
	if sym, ok := v.(*goja.Symbol); ok {
		return symbolString(sym)
	}
	if v.ExportType() == typeBigInt || isNumeric(v) {
		return in.formatNumber(v)
	}
	return v.String()
}

func (p *probe) inspectShallow(v goja.Value, opts InspectOptions) string {
	opts.Depth, opts.Compact = 0, 3
	return p.inspect(v, opts)
}

// formatJ is %j: JSON.stringify, "[Circular]" for a cycle.
func (p *probe) formatJ(v goja.Value, opts InspectOptions) string {
	r, err := p.stringify(goja.Undefined(), v)
	if err != nil {
		return p.inspect(v, opts)
	}
	if s, ok := r.(goja.String); ok {
		return s.String()
	}
	arr, ok := r.(*goja.Object)
	if !ok || arr.ClassName() != "Array" {
		return p.inspect(v, opts)
	}
	if s := arr.Get("0"); s != nil {
		return s.String() // undefined for JSON.stringify(undefined), as Node prints it
	}
	return "undefined"
}

// formatD is %d: Number(v) (BigInt as 1n, a symbol as NaN).
func (p *probe) formatD(v goja.Value, opts InspectOptions) string {
	in := newInspector(p, opts)
	if _, ok := v.(*goja.Symbol); ok {
		return "NaN"
	}
	if v.ExportType() == typeBigInt {
		if _, obj := v.(*goja.Object); !obj {
			return in.formatNumber(v)
		}
	}
	var n goja.Value
	if !p.try(func() { n = v.ToNumber() }) {
		return "NaN"
	}
	return in.formatNumber(n)
}

// formatParsed is %i (parseInt) and %f (parseFloat).
func (p *probe) formatParsed(v goja.Value, integer bool, opts InspectOptions) string {
	in := newInspector(p, opts)
	if _, ok := v.(*goja.Symbol); ok {
		return "NaN"
	}
	if integer && v.ExportType() == typeBigInt {
		if _, obj := v.(*goja.Object); !obj {
			return in.formatNumber(v)
		}
	}
	fn := p.parseFloat
	if integer {
		fn = p.parseInt
	}
	n, err := fn(goja.Undefined(), v)
	if err != nil {
		return "NaN"
	}
	return in.formatNumber(n)
}
