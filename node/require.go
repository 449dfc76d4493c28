package node

import (
	"errors"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/require"
)

// installRequire gives a Node-style realm CommonJS: require (with the
// built-in worker_threads and url, also as node:…, and CommonJS files
// by path through goja_nodejs's resolver), module, exports, __filename and
// __dirname. The entry script runs as the realm's global code rather than
// inside a module wrapper, so positions in stacks stay exact.
func (n *nodeState) installRequire() error {
	r, rt := n.r, n.r.Runtime()
	g := rt.GlobalObject()
	reg := require.NewRegistry()
	for _, name := range builtinNames() {
		load := func(_ *goja.Runtime, module *goja.Object) {
			exports, _ := n.builtin(name)
			_ = module.Set("exports", exports)
		}
		reg.RegisterNativeModule(name, load)
		reg.RegisterNativeModule("node:"+name, load)
	}
	rm := reg.Enable(rt) // defines goja_nodejs's require; replaced below
	module := rt.NewObject()
	exports := rt.NewObject()
	module.Set("exports", exports)
	module.Set("id", ".")
	module.Set("filename", n.filename)
	module.Set("loaded", false)
	module.Set("children", rt.NewArray())
	module.Set("paths", rt.NewArray())
	req := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		name := c.Argument(0).String()
		v, err := rm.Require(name)
		if err != nil {
			var ex *goja.Exception
			if errors.As(err, &ex) {
				panic(ex.Value())
			}
			if errors.Is(err, require.InvalidModuleError) || errors.Is(err, require.NoSuchBuiltInModuleError) ||
				errors.Is(err, require.ModuleFileDoesNotExistError) {
				e := r.NewError("Error", "", "Cannot find module '"+name+"': jsworker provides the built-in "+
					"modules "+strings.Join(builtinNames(), ", ")+" (each also as node:…), and CommonJS files by path; "+
					"other Node built-in modules are not available")
				e.Set("code", "MODULE_NOT_FOUND")
				panic(e)
			}
			panic(r.NewError("Error", "", "require('"+name+"'): "+err.Error()))
		}
		return v
	}).(*goja.Object)
	_ = req.DefineDataProperty("name", rt.ToValue("require"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	req.Set("main", module)
	req.Set("cache", rt.NewObject())
	g.Set("require", req)
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
