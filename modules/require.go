package modules

import (
	"errors"
	"fmt"
	"sort"

	"github.com/dop251/goja"
)

// Require returns a CommonJS require function for code at referrer (a
// file path; its directory is where resolution starts) that is not itself
// a module of the realm: a Node program's entry script, or
// module.createRequire(filename). It shares the realm's module map, so
// require and import give the same module instances.
//
// require(spec) answers built-ins first, then loads through
// Options.RequireLoader: a CommonJS module's module.exports, a JSON file's
// value, or an ES module's namespace (Node 22's require(esm); one with
// top-level await throws ERR_REQUIRE_ASYNC_MODULE). It has resolve (the
// resolved path, or the built-in's name), cache (the CommonJS module
// objects by path: deleting one makes the next require load it again) and
// main (SetMain).
func (r *Realm) Require(referrer string) *goja.Object {
	return r.cjsRequire(referrer, nil)
}

// SetMain makes module (a CommonJS module object) the entry module at
// path, which runs outside the map (Node's main script): require.main of
// every require function made from now on, in require.cache, and what a
// require of path gives (its module.exports as they are: Node's cycles).
func (r *Realm) SetMain(path string, module *goja.Object) {
	r.main = module
	if path == "" || r.mods[path] != nil {
		return
	}
	r.mods[path] = &record{path: path, format: FormatCommonJS, state: evaluating, module: module, deps: map[string]dep{}}
	_ = r.cacheObject().Set(path, module)
}

// cacheObject returns require.cache, made on first use.
func (r *Realm) cacheObject() *goja.Object {
	if r.cacheObj == nil {
		r.cacheObj = r.rt.NewObject()
	}
	return r.cacheObj
}

// cjsRequire makes the require function of a CommonJS context at referrer:
// the module rec, or (rec nil) code outside the map.
func (r *Realm) cjsRequire(referrer string, rec *record) *goja.Object {
	rt := r.rt
	deps := map[string]dep{}
	if rec != nil {
		deps = rec.deps
	}
	find := func(spec string) dep {
		if d, ok := deps[spec]; ok && (d.builtin != nil || r.mods[d.rec.path] == d.rec) {
			return d
		}
		d, isNew, err := r.resolve(spec, referrer, true)
		if err == nil && isNew && d.rec.format == FormatModule {
			err = r.link(d.rec)
		}
		if err != nil {
			panic(r.requireError(spec, referrer, err))
		}
		deps[spec] = d
		return d
	}
	req := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		spec := call.Argument(0)
		if _, ok := spec.Export().(string); !ok {
			e := rt.NewTypeError(fmt.Sprintf("The \"id\" argument must be of type string. Received %s", spec.String()))
			_ = e.Set("code", "ERR_INVALID_ARG_TYPE")
			panic(e)
		}
		d := find(spec.String())
		if d.builtin != nil {
			return d.builtin
		}
		m := d.rec
		if m.format == FormatCommonJS && m.state == evaluated && r.cacheObject().Get(m.path) == nil {
			// deleted from require.cache: load it again, as Node does
			m.state, m.module, m.view = linked, nil, nil
		}
		if m.format == FormatModule && (m.state == linked && isAsync(m) || m.state == pending) {
			e := r.jsError(&Error{Name: "Error", Message: "require() cannot be used on an ESM graph with top-level await. " +
				"Use import() instead. To see where the top-level await comes from, use --experimental-print-required-tla.\n" +
				"  From " + referrer + "\n  Requiring " + m.path})
			_ = e.(*goja.Object).Set("code", "ERR_REQUIRE_ASYNC_MODULE")
			panic(e)
		}
		v, err := r.evaluate(m)
		if err != nil {
			panic(r.throwable(err))
		}
		if m.format == FormatModule {
			return r.requiredNamespace(v)
		}
		return v
	}).(*goja.Object)
	_ = req.DefineDataProperty("name", rt.ToValue("require"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	resolve := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		spec := call.Argument(0).String()
		d := find(spec)
		if d.builtin != nil {
			return rt.ToValue(spec)
		}
		return rt.ToValue(d.rec.path)
	}).(*goja.Object)
	_ = resolve.Set("paths", func(spec string) goja.Value {
		if r.opts.Builtin != nil {
			if o, ok := r.opts.Builtin(spec); ok && o != nil {
				return goja.Null()
			}
		}
		m := r.newModuleObject(referrer)
		return m.Get("paths")
	})
	_ = req.Set("resolve", resolve)
	_ = req.Set("cache", r.cacheObject())
	if r.main != nil {
		_ = req.Set("main", r.main)
	}
	return req
}

// requiredNamespace is what require() of an ES module gives, as in Node 22: its export named "module.exports"
// if it has one, else its namespace, which (for transpilers' interop) has an enumerable __esModule: true when the
// module has a default export.
func (r *Realm) requiredNamespace(ns goja.Value) goja.Value {
	o, ok := ns.(*goja.Object)
	if !ok {
		return ns
	}
	keys := o.Keys()
	for _, k := range keys {
		if k == "module.exports" {
			return o.Get(k)
		}
	}
	hasDefault := false
	for _, k := range keys {
		hasDefault = hasDefault || k == "default"
	}
	if !hasDefault {
		return ns
	}
	out := r.rt.NewObject()
	_ = out.SetPrototype(nil)
	_ = out.Set("__esModule", true)
	sort.Strings(keys)
	for _, k := range keys {
		k := k
		get := r.rt.ToValue(func(goja.FunctionCall) goja.Value { return o.Get(k) })
		_ = out.DefineAccessorProperty(k, get, nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	return out
}

// requireError is the error require throws when spec cannot be loaded:
// Node's "Cannot find module" with code MODULE_NOT_FOUND (or
// ERR_PACKAGE_PATH_NOT_EXPORTED), or the load error as it is.
func (r *Realm) requireError(spec, referrer string, err error) any {
	var ne *notExported
	if errors.As(err, &ne) {
		e := r.jsError(&Error{Name: "Error", Message: ne.Error()}) // the map's *Error has the import wording
		_ = e.(*goja.Object).Set("code", "ERR_PACKAGE_PATH_NOT_EXPORTED")
		return e
	}
	var me *Error
	if errors.As(err, &me) && me.Code == "ERR_MODULE_NOT_FOUND" {
		msg := fmt.Sprintf("Cannot find module '%s'\nRequire stack:\n- %s", spec, referrer)
		if r.opts.MissingHint != nil {
			if h := r.opts.MissingHint(spec); h != "" {
				msg += "\n" + h
			}
		}
		e := r.jsError(&Error{Name: "Error", Message: msg})
		o := e.(*goja.Object)
		_ = o.Set("code", "MODULE_NOT_FOUND")
		_ = o.Set("requireStack", r.rt.NewArray(referrer))
		return e
	}
	return r.throwable(err)
}
