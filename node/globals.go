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

// installGlobals defines the Node globals of nodeGlobals as lazy globals.
func (n *nodeState) installGlobals(rt *goja.Runtime) error {
	for _, g := range nodeGlobals {
		g := g
		if err := jsutil.DefineLazyGlobal(rt, g.name, func() goja.Value {
			return n.mustBuiltin(g.module).Get(g.export)
		}); err != nil {
			return err
		}
	}
	return nil
}
