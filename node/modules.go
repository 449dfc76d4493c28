package node

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/modules"
)

// Modules as Node resolves them. A Node-style realm has one module map (modules.Realm) for require and import
// alike, so that both give the same module instances: a module worker's graph runs in it (core asks ModuleRealm),
// and the require of a script realm is made from it on first use. Resolution is Node's (modules.Resolver):
// node_modules, package.json "exports"/"imports" with the import or require conditions, "main", index files, and
// "type" deciding what a .js file is.

// ModuleRealm returns the module map a module worker's graph runs in (core asks the Extension for it): the realm's
// one map, made now with core's options (the debugger's instrumentation, the termination check) and Node's loaders.
func (n *nodeState) ModuleRealm(opts modules.Options) *modules.Realm {
	if n.modRealm == nil {
		n.modRealm = n.newModuleRealm(opts)
		n.syncMain(n.modRealm)
	}
	return n.modRealm
}

// moduleRealm returns the realm's module map, made on first use (a require of something other than a built-in
// module, require.resolve or require.cache, module.createRequire).
func (n *nodeState) moduleRealm() *modules.Realm {
	if n.modRealm == nil {
		n.modRealm = n.newModuleRealm(modules.Options{Interrupted: n.w.Stopping})
		n.syncMain(n.modRealm) // a program that required only built-ins so far: the entry is the map's main
	}
	return n.modRealm
}

func (n *nodeState) newModuleRealm(opts modules.Options) *modules.Realm {
	res := n.resolverOf()
	opts.Loader = res.Loader(modules.ImportConditions)
	opts.RequireLoader = res.Loader(modules.RequireConditions)
	opts.Format = res.Format
	// Through an interface: the built-in table's entry for "module" leads here, and a direct method value
	// would make the table's initialization refer to itself.
	var b interface {
		Builtin(string) (*goja.Object, bool)
		MissingHint(string) string
	} = n
	opts.Builtin = b.Builtin
	opts.MissingHint = b.MissingHint
	base := opts.MetaURL
	if base == nil {
		base = modules.FileURL
	}
	opts.MetaURL = func(path string) string { return n.metaURL(path, base) }
	return modules.NewRealm(n.r.Runtime(), opts)
}

// evalModuleName is the name Node gives the module of --input-type=module code from -e or standard input, in the
// current directory.
const evalModuleName = "[eval1]"

// metaURL is a module's import.meta.url, as base makes it (a file: URL); for the main program's eval'd module
// (cwd + "/[eval1]"), Node's "file:///cwd/[eval1]", the brackets unescaped as Node's URL parser leaves them.
func (n *nodeState) metaURL(path string, base func(string) string) string {
	if dir, ok := strings.CutSuffix(path, "/"+evalModuleName); ok && n.main && path == n.filename {
		return base(dir+"/") + evalModuleName
	}
	return base(path)
}

// resolverOf returns the realm's resolver (its package.json cache lives as long as the realm).
func (n *nodeState) resolverOf() *modules.Resolver {
	if n.resolver == nil {
		n.resolver = modules.NewResolver()
	}
	return n.resolver
}

// referrer returns the path the entry script's require resolves from: its file, or a file in the current
// directory for [eval] and [worker eval].
func (n *nodeState) referrer() string {
	if strings.HasPrefix(n.filename, "[") || n.filename == "" {
		wd, err := os.Getwd()
		if err != nil {
			wd = "/"
		}
		return filepath.Join(wd, n.filename)
	}
	return n.filename
}

// moduleModule makes the exports of the built-in module "module": createRequire, builtinModules, isBuiltin.
func (n *nodeState) moduleModule() *goja.Object {
	rt := n.r.Runtime()
	o := rt.NewObject()
	_ = o.Set("createRequire", func(c goja.FunctionCall) goja.Value {
		p := c.Argument(0)
		s := p.String()
		if po, ok := p.(*goja.Object); ok {
			if href := po.Get("href"); href != nil && !goja.IsUndefined(href) {
				s = href.String()
			}
		}
		if strings.HasPrefix(s, "file:") {
			if fp, err := workerPath(rt.ToValue(s)); err == nil {
				s = fp
			}
		}
		if !filepath.IsAbs(s) {
			e := n.r.NewError("TypeError", "", "The argument 'filename' must be a file URL object, file URL string, "+
				"or absolute path string. Received "+p.String())
			_ = e.Set("code", "ERR_INVALID_ARG_VALUE")
			panic(e)
		}
		if strings.HasSuffix(s, "/") {
			s += "noop.js" // a directory: resolve from inside it, as Node does
		}
		return n.moduleRealm().Require(s)
	})
	// n.builtinNames, not the table: the table's entry for this module cannot refer to the table.
	list := make([]any, 0, len(n.builtinNames))
	for _, name := range n.builtinNames {
		list = append(list, name)
	}
	_ = o.Set("builtinModules", rt.NewArray(list...))
	_ = o.Set("isBuiltin", func(s string) bool {
		for _, name := range n.builtinNames {
			if name == strings.TrimPrefix(s, "node:") {
				return true
			}
		}
		return false
	})
	return o
}

// isModuleFile reports whether the worker or program file p with source runs as an ES module under Node's rules:
// .mjs/.mts, package.json "type": "module" for .js/.ts, or ES module syntax in a .js/.ts file of no "type".
// TypeScript files always run through the module map (whose CommonJS records strip types too).
func isModuleFile(p, source string) bool {
	if strings.HasPrefix(p, "[") {
		return false
	}
	switch strings.ToLower(filepath.Ext(p)) {
	case ".ts", ".mts", ".cts":
		return true
	}
	return modules.NewResolver().IsModule(p, source) || modules.HasDynamicImport(source) || modules.HasAsyncIteration(source)
}

// IsModuleFile reports whether `jsworker run` runs the file p with source as an ES module, as Node would: .mjs and
// .mts, .js and .ts under a package.json whose "type" is "module", and .js and .ts with ES module syntax (import,
// export, import.meta) under no "type" (Node 22's detection); TypeScript files (.ts, .mts, .cts) always, since
// they run through the module map (as CommonJS or ES modules, by the same rules); and CommonJS files with
// import(), for await or async generators, which only the module map's CommonJS modules can run (esbuild lowers
// them there).
func IsModuleFile(p, source string) bool { return isModuleFile(p, source) }
