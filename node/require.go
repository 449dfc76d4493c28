package node

import (
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
)

// installRequire gives a Node-style realm CommonJS: require (built-in modules, also as node:…, and files and
// packages resolved as Node does, through the realm's module map: see modules.go), module, exports, __filename
// and __dirname. The entry script runs as the realm's global code rather than inside a module wrapper, so
// positions in stacks stay exact; the module map (and so the resolver) is made on the first require.
//
// A realm whose entry runs through the module map (an ES module, or a CommonJS module its map runs) gets none of
// these globals, as in Node: its modules have their own.
func (n *nodeState) installRequire() error {
	if n.moduleEntry {
		return nil
	}
	rt := n.r.Runtime()
	g := rt.GlobalObject()
	module := rt.NewObject()
	exports := rt.NewObject()
	module.Set("exports", exports)
	module.Set("id", ".")
	module.Set("filename", n.filename)
	module.Set("loaded", false)
	module.Set("children", rt.NewArray())
	module.Set("paths", rt.NewArray())
	var req *goja.Object
	get := func() *goja.Object {
		if req == nil {
			mr := n.moduleRealm()
			if !strings.HasPrefix(n.filename, "[") {
				mr.SetMain(n.filename, module)
			}
			req = mr.Require(n.referrer())
		}
		return req
	}
	// require itself is a small forwarder, so that the module map is made only when a program requires
	// something; its resolve, cache and main are the real require's.
	fwd := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		f, _ := goja.AssertFunction(get())
		v, err := f(goja.Undefined(), c.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	_ = fwd.DefineDataProperty("name", rt.ToValue("require"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	for _, k := range []string{"resolve", "cache"} {
		k := k
		_ = fwd.DefineAccessorProperty(k, rt.ToValue(func(goja.FunctionCall) goja.Value { return get().Get(k) }), nil,
			goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	fwd.Set("main", module)
	module.Set("require", fwd)
	g.Set("require", fwd)
	g.Set("module", module)
	g.Set("exports", exports)
	dir := "."
	if !strings.HasPrefix(n.filename, "[") {
		dir = filepath.Dir(n.filename)
	}
	g.Set("__filename", n.filename)
	g.Set("__dirname", dir)
	return nil
}
