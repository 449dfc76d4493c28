package node

import (
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/modules"
)

// installRequire gives a Node-style realm CommonJS: require (built-in modules, also as node:…, and files and
// packages resolved as Node does, through the realm's module map: see modules.go), module, exports, __filename
// and __dirname. The entry script runs as the realm's global code rather than inside a module wrapper, so
// positions in stacks stay exact.
//
// Nothing is made until a program touches one of the five globals: they are lazy globals of the global object
// (gojainternal.DefineLazy), ordinary data properties in the order an eager definition gives, and the first touch
// of any of them makes require, module and exports together (cjsObjects). require itself is a small forwarder that
// answers built-in modules itself, so the module map (and so the resolver) is made only when a program requires
// something else, or reads require.resolve or require.cache.
//
// A realm whose entry runs through the module map (an ES module, or a CommonJS module its map runs) gets none of
// these globals, as in Node: its modules have their own.
func (n *nodeState) installRequire() error {
	if n.moduleEntry {
		return nil
	}
	n.cjs = &cjsState{}
	g := n.r.Runtime().GlobalObject()
	if gojainternal.DefineLazy(g, cjsGlobals, cjsNames[:]...) {
		return nil
	}
	for _, name := range cjsNames {
		g.Set(name, n.cjsGlobal(name))
	}
	return nil
}

// cjsNames are the entry script's CommonJS globals, in the order they are defined.
var cjsNames = [...]string{"require", "module", "exports", "__filename", "__dirname"}

// cjsGlobals makes the CommonJS globals of cjsNames on first touch.
var cjsGlobals = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	v := goja.Value(goja.Undefined())
	if n, _ := stateKey.Get(rt); n != nil && n.cjs != nil { // nil: the realm ended, nothing to make
		v = n.cjsGlobal(name)
	}
	return gojainternal.Prop{Value: v, Writable: true, Enumerable: true, Configurable: true}
})

// cjsState is the nodeState's part for the entry script's CommonJS globals.
type cjsState struct {
	module, require *goja.Object // made together, on first touch of a global of cjsNames
	exports         *goja.Object // made on first touch of the global or module.exports
	req             *goja.Object // the module map's require for the entry, made on first need (mapRequire)
	used            bool         // require was called, or its resolve or cache read
	mainSet         bool         // the entry is the module map's main (syncMain)
}

// cjsGlobal returns the value of the CommonJS global name.
func (n *nodeState) cjsGlobal(name string) goja.Value {
	rt := n.r.Runtime()
	switch name {
	case "__filename":
		return rt.ToValue(n.filename)
	case "__dirname":
		dir := "."
		if !strings.HasPrefix(n.filename, "[") {
			dir = filepath.Dir(n.filename)
		}
		return rt.ToValue(dir)
	}
	c := n.cjsObjects()
	switch name {
	case "require":
		return c.require
	case "module":
		return c.module
	}
	return n.cjsExports()
}

// moduleNames are the entry's module object's own properties before require, in order: each made on first touch
// (moduleProps), ordinary data properties as module.Set makes them.
var moduleNames = [...]string{"exports", "id", "filename", "loaded", "children", "paths"}

// moduleProps makes the properties of moduleNames on first touch.
var moduleProps = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	v := goja.Value(goja.Undefined())
	if n, _ := stateKey.Get(rt); n != nil && n.cjs != nil { // nil: the realm ended, nothing to make
		v = n.moduleProp(name)
	}
	return gojainternal.Prop{Value: v, Writable: true, Enumerable: true, Configurable: true}
})

// moduleProp returns the initial value of the entry's module.name.
func (n *nodeState) moduleProp(name string) goja.Value {
	rt := n.r.Runtime()
	switch name {
	case "exports":
		return n.cjsExports()
	case "id":
		return rt.ToValue(".")
	case "filename":
		return rt.ToValue(n.filename)
	case "loaded":
		return rt.ToValue(false)
	}
	return rt.NewArray() // children, paths
}

// cjsExports returns the entry's exports object (the global exports, module.exports as it began), made once.
func (n *nodeState) cjsExports() *goja.Object {
	if n.cjs.exports == nil {
		n.cjs.exports = n.r.Runtime().NewObject()
	}
	return n.cjs.exports
}

// cjsObjects makes the entry script's module, exports and require, once.
func (n *nodeState) cjsObjects() *cjsState {
	c := n.cjs
	if c.module != nil {
		return c
	}
	rt := n.r.Runtime()
	module := rt.NewObject()
	c.module = module
	if !gojainternal.DefineLazy(module, moduleProps, moduleNames[:]...) {
		for _, name := range moduleNames {
			module.Set(name, n.moduleProp(name))
		}
	}
	// require itself is a small forwarder, so that the module map is made only when a program requires
	// something other than a built-in module; its resolve, cache and main are the real require's. Builtin through
	// an interface, as newModuleRealm does: the built-in table's entry for "module" leads here.
	var b interface {
		Builtin(string) (*goja.Object, bool)
	} = n
	fwd := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		n.requireUsed()
		if spec, ok := call.Argument(0).Export().(string); ok {
			// What the map's require answers first (modules.Realm.resolve asks Options.Builtin before anything).
			if o, ok := b.Builtin(spec); ok && o != nil {
				return o
			}
		}
		f, _ := goja.AssertFunction(n.mapRequire())
		v, err := f(goja.Undefined(), call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	_ = fwd.DefineDataProperty("name", rt.ToValue("require"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	for _, k := range []string{"resolve", "cache"} {
		k := k
		_ = fwd.DefineAccessorProperty(k, rt.ToValue(func(goja.FunctionCall) goja.Value { return n.mapRequire().Get(k) }), nil,
			goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	fwd.Set("main", module)
	module.Set("require", fwd)
	c.require = fwd
	return c
}

// requireUsed notes that the program used require: from then on, the entry is the main module of the module map
// (require.main, require.cache), as soon as the map exists.
func (n *nodeState) requireUsed() {
	n.cjs.used = true
	if n.modRealm != nil {
		n.syncMain(n.modRealm)
	}
}

// mapRequire returns the module map's require for the entry script, making the map and it on first use.
func (n *nodeState) mapRequire() *goja.Object {
	c := n.cjs
	c.used = true
	mr := n.moduleRealm() // syncMain, if it makes the map now
	n.syncMain(mr)
	if c.req == nil {
		c.req = mr.Require(n.referrer())
	}
	return c.req
}

// syncMain makes the entry script the main module of mr (modules.Realm.SetMain), once, if the program has used
// require: as the first require did when it made the map.
func (n *nodeState) syncMain(mr *modules.Realm) {
	c := n.cjs
	if c == nil || !c.used || c.mainSet {
		return
	}
	c.mainSet = true
	if !strings.HasPrefix(n.filename, "[") {
		mr.SetMain(n.filename, n.cjsObjects().module)
	}
}
