package node

import (
	_ "embed"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/web/console"
)

var (
	//go:embed lib/util.js
	utilJS string
	//go:embed lib/inspect.js
	inspectJS string
	//go:embed lib/parse_args.js
	parseArgsJS string
)

// utilSource is the util module; inspectSource is util.inspect and util.format (internal/inspect), which the
// assert and events modules use too; parseArgsSource is util.parseArgs.
var (
	utilSource      = jsutil.NewSource("node:util", utilJS)
	inspectSource   = jsutil.NewSource("node:internal/inspect", inspectJS)
	parseArgsSource = jsutil.NewSource("node:internal/parse_args", parseArgsJS)
)

// utilNatives are util.js's natives.
func utilNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	def("isProxy", 1, func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		if !ok {
			return rt.ToValue(false)
		}
		_, isProxy := o.Export().(goja.Proxy)
		return rt.ToValue(isProxy)
	})
}

// inspectNatives are inspect.js's natives: util.inspect and util.format through the console's formatter (package
// web/console), one Inspector per realm.
func inspectNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	var in *console.Inspector
	inspector := func() *console.Inspector {
		if in == nil {
			var err error
			if in, err = console.NewInspector(rt); err != nil {
				panic(rt.NewGoError(err))
			}
		}
		return in
	}
	opts := func(v goja.Value) console.InspectOptions {
		o := console.DefaultInspectOptions()
		if obj, ok := v.(*goja.Object); ok {
			o = console.OptionsFromJS(rt, obj, o)
		}
		return o
	}
	def("inspect", 2, func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(inspector().Inspect(c.Argument(0), opts(c.Argument(1))))
	})
	def("format", 2, func(c goja.FunctionCall) goja.Value {
		var args []goja.Value
		if a, ok := c.Argument(1).(*goja.Object); ok {
			_ = rt.ExportTo(a, &args)
		}
		return rt.ToValue(inspector().Format(args, opts(c.Argument(0))))
	})
}
