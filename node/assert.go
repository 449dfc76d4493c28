package node

import (
	"os"
	"strings"

	"github.com/dop251/goja"
)

// assertNatives are assert.js's natives.
func assertNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	// readSource returns the source of a script file (for assert.ok's message, which quotes the failing call), or
	// undefined when it cannot be read.
	def("readSource", 1, func(c goja.FunctionCall) goja.Value {
		name := strings.TrimPrefix(c.Argument(0).String(), "file://")
		if name == n.filename && n.source != "" {
			return rt.ToValue(n.source)
		}
		if !strings.HasPrefix(name, "/") {
			return goja.Undefined()
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return goja.Undefined()
		}
		return rt.ToValue(string(b))
	})
}
