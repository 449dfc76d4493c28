package node

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// nodeGlobals are the globals a Node-style realm gets besides core's and web's, each made on first access: the
// module that defines it and the export's name.
var nodeGlobals = [...]struct{ name, module, export string }{
	{"Buffer", "buffer", "Buffer"},
	{"EventTarget", "internal/globals", "EventTarget"},
	{"Event", "internal/globals", "Event"},
	{"CustomEvent", "internal/globals", "CustomEvent"},
	{"AbortController", "internal/globals", "AbortController"},
	{"AbortSignal", "internal/globals", "AbortSignal"},
	{"DOMException", "internal/globals", "DOMException"},
	{"Blob", "internal/blob", "Blob"},
	{"File", "internal/blob", "File"},
	{"atob", "internal/globals", "atob"},
	{"btoa", "internal/globals", "btoa"},
	{"crypto", "crypto", "webcrypto"},
}

// nodeGlobalNames are nodeGlobals' names, in order.
var nodeGlobalNames = func() []string {
	names := make([]string, len(nodeGlobals))
	for i, g := range nodeGlobals {
		names[i] = g.name
	}
	return names
}()

// nodeGlobalValues makes the value of a global of nodeGlobals on first access.
var nodeGlobalValues = jsutil.NewLazyGlobals(func(rt *goja.Runtime, name string) goja.Value {
	n, _ := stateKey.Get(rt)
	if n == nil { // the realm's state was dropped (the realm ended): nothing to make
		return goja.Undefined()
	}
	for _, g := range nodeGlobals {
		if g.name == name {
			return n.mustBuiltin(g.module).Get(g.export)
		}
	}
	return goja.Undefined()
})

// installGlobals defines the Node globals of nodeGlobals as lazy globals (jsutil.DefineLazyGlobal's kind: an
// accessor made on first touch, that settles into a data property), all from one process-wide table.
func (n *nodeState) installGlobals(rt *goja.Runtime) error {
	return nodeGlobalValues.Define(rt, nodeGlobalNames...)
}
