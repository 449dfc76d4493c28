package node

import (
	_ "embed"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
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

// inspectNatives are inspect.js's natives: what JavaScript cannot see of a value.
func inspectNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	def("promiseState", 1, func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		if !ok {
			return rt.NewArray("pending")
		}
		p, ok := o.Export().(*goja.Promise)
		if !ok {
			return rt.NewArray("pending")
		}
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return rt.NewArray("fulfilled", p.Result())
		case goja.PromiseStateRejected:
			return rt.NewArray("rejected", p.Result())
		}
		return rt.NewArray("pending")
	})
	def("isBuffer", 1, func(c goja.FunctionCall) goja.Value {
		m, ok := n.modules["buffer"]
		if !ok {
			return rt.ToValue(false) // no Buffer was ever made in this realm
		}
		b, _ := m.Get("Buffer").(*goja.Object)
		if b == nil {
			return rt.ToValue(false)
		}
		is, _ := goja.AssertFunction(b.Get("isBuffer"))
		v, err := is(b, c.Argument(0))
		if err != nil {
			panic(err)
		}
		return v
	})
}
