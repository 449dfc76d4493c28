package node

import (
	"sort"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/web"
)

// Node's built-in modules. Each entry makes a module's exports for one realm, on its first require or import;
// require('x'), require('node:x'), import 'x' and import 'node:x' all give the same object. A module is either Go
// code or a JavaScript source under lib/ (embedded, compiled once per process on first use), or both.

// builtins maps a built-in module's name (without "node:") to the function that makes its exports in a realm.
// A new module is one more entry here (no init functions: the table is the list).
var builtins = map[string]func(n *nodeState) *goja.Object{
	"worker_threads": func(n *nodeState) *goja.Object { return n.threadsModule() },
	"url":            func(n *nodeState) *goja.Object { return web.URLExports(n.r.Runtime()) },
	"module":         func(n *nodeState) *goja.Object { return n.moduleModule() },
}

// builtinNames returns the names of the built-in modules, sorted.
func builtinNames() []string {
	names := make([]string, 0, len(builtins))
	for name := range builtins {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// builtin returns the exports of the built-in module name (without "node:"), made on first use, or false.
func (n *nodeState) builtin(name string) (*goja.Object, bool) {
	if m, ok := n.modules[name]; ok {
		return m, true
	}
	mk, ok := builtins[name]
	if !ok {
		return nil, false
	}
	m := mk(n)
	if n.modules == nil {
		n.modules = make(map[string]*goja.Object)
	}
	n.modules[name] = m
	return m, true
}
