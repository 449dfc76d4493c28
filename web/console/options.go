package console

import (
	"math"

	"github.com/dop251/goja"
)

// OptionsFromJS reads util.inspect's options object (depth, showHidden,
// compact, breakLength, maxArrayLength, maxStringLength, sorted,
// customInspect, showProxy, getters, numericSeparator; colors is ignored)
// over base: what o does not set keeps base's value; null
// and Infinity mean no limit. It reads o with ordinary [[Get]] (user code
// may run, as in Node).
func OptionsFromJS(rt *goja.Runtime, o *goja.Object, base InspectOptions) InspectOptions {
	limit := func(name string, dst *int, none int) {
		v := o.Get(name)
		if v == nil || goja.IsUndefined(v) {
			return
		}
		if goja.IsNull(v) {
			*dst = none
			return
		}
		f := v.ToFloat()
		switch {
		case math.IsInf(f, 1):
			*dst = none
		case !math.IsNaN(f):
			*dst = int(f)
		}
	}
	flag := func(name string, dst *bool) {
		if v := o.Get(name); v != nil && !goja.IsUndefined(v) {
			*dst = v.ToBoolean()
		}
	}
	limit("depth", &base.Depth, math.MaxInt)
	limit("breakLength", &base.BreakLength, math.MaxInt)
	limit("maxArrayLength", &base.MaxArrayLength, -1)
	limit("maxStringLength", &base.MaxStringLength, -1)
	if base.MaxArrayLength < -1 {
		base.MaxArrayLength = 0
	}
	if base.MaxStringLength < -1 {
		base.MaxStringLength = 0
	}
	flag("showHidden", &base.ShowHidden)
	flag("sorted", &base.Sorted)
	flag("customInspect", &base.CustomInspect)
	flag("showProxy", &base.ShowProxy)
	flag("numericSeparator", &base.NumericSeparator)
	if v := o.Get("getters"); v != nil && !goja.IsUndefined(v) {
		switch s := v.String(); {
		case s == "get" || s == "set":
			base.Getters = s
		case v.ToBoolean():
			base.Getters = "all"
		default:
			base.Getters = ""
		}
	}
	if v := o.Get("compact"); v != nil && !goja.IsUndefined(v) {
		switch x := v.Export().(type) {
		case bool:
			if x {
				base.Compact = CompactTrue
			} else {
				base.Compact = 0
			}
		default:
			base.Compact = int(v.ToInteger())
		}
	}
	return base
}

// optionsObject is opts as the JavaScript object a custom inspect function
// receives.
func optionsObject(rt *goja.Runtime, opts InspectOptions) *goja.Object {
	o := rt.NewObject()
	lim := func(n int) interface{} {
		if n < 0 || n == math.MaxInt {
			return math.Inf(1)
		}
		return n
	}
	if opts.Depth == math.MaxInt {
		o.Set("depth", goja.Null())
	} else {
		o.Set("depth", opts.Depth)
	}
	o.Set("showHidden", opts.ShowHidden)
	o.Set("colors", false)
	o.Set("customInspect", opts.CustomInspect)
	o.Set("showProxy", opts.ShowProxy)
	o.Set("maxArrayLength", lim(opts.MaxArrayLength))
	o.Set("maxStringLength", lim(opts.MaxStringLength))
	o.Set("breakLength", lim(opts.BreakLength))
	switch opts.Compact {
	case CompactTrue:
		o.Set("compact", true)
	case 0:
		o.Set("compact", false)
	default:
		o.Set("compact", opts.Compact)
	}
	o.Set("sorted", opts.Sorted)
	switch opts.Getters {
	case "":
		o.Set("getters", false)
	case "all":
		o.Set("getters", true)
	default:
		o.Set("getters", opts.Getters)
	}
	o.Set("numericSeparator", opts.NumericSeparator)
	// Without colors, stylize returns the text as it is.
	o.Set("stylize", func(s string, _ string) string { return s })
	return o
}
