package modules

import (
	"path"
	"strings"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

// cjsHead wraps a CommonJS module's source as Node does; it is on the
// source's first line, and compileModule moves every position back into
// the source, so columns stay exact on line 1 too.
const cjsHead = "(function (exports, require, module, __filename, __dirname, " + importName + ") { "

// cjsCode returns the code of a CommonJS module to wrap: the source itself
// (a #! line blanked), with pm nil; or, for TypeScript (.cts, .ts) and for
// sources with import(), for await or async generators (which goja does not
// parse; esbuild lowers import() as in ES modules, to the import() hook, and
// async iteration to generators and promises), esbuild's output and its
// position map.
func cjsCode(p, source string) (string, *posMap, error) {
	loader := api.LoaderJS
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".cts", ".mts":
		loader = api.LoaderTS
	default:
		if !HasDynamicImport(source) && !HasAsyncIteration(source) {
			if strings.HasPrefix(source, "#!") {
				source = "//" + source[2:]
			}
			return source, nil, nil
		}
	}
	res := api.Transform(source, api.TransformOptions{
		Loader:     loader,
		Format:     api.FormatCommonJS,
		Sourcefile: esbuildName(p),
		Sourcemap:  api.SourceMapExternal,
		Target:     api.ES2022,
		Supported:  map[string]bool{"dynamic-import": false, "async-generator": false, "for-await": false},
		LogLevel:   api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return "", nil, esbuildError(p, res.Errors[0])
	}
	pm, err := decodeMap(res.Map)
	if err != nil {
		return "", nil, &Error{Name: "Error", Message: err.Error(), Path: p, Err: err}
	}
	return string(res.Code), pm, nil
}

// evaluateCJS runs a CommonJS record's body, as Node does: this is
// module.exports, and the record is in require.cache while it runs.
func (r *Realm) evaluateCJS(rec *record) error {
	rt := r.rt
	rec.module = r.newModuleObject(rec.path)
	exports := rec.module.Get("exports")
	_ = r.cacheObject().Set(rec.path, rec.module)
	fnv, err := rt.RunProgram(rec.c.prg)
	if err != nil {
		return err
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return &Error{Name: "Error", Message: "the wrapper is not a function", Path: rec.path}
	}
	if rec == r.root && r.main == nil {
		// the entry of a program run through the map: Node's main module
		r.main = rec.module
		_ = rec.module.Set("id", ".")
	}
	req := r.cjsRequire(rec.path, rec)
	_ = rec.module.Set("require", req)
	dir := path.Dir(rec.path)
	_, err = fn(exports, exports, req, rec.module, rt.ToValue(rec.path), rt.ToValue(dir), r.importFn(rec))
	if err != nil {
		_ = r.cacheObject().Delete(rec.path)
		return err
	}
	_ = rec.module.Set("loaded", true)
	return nil
}

// evaluateJSON parses a JSON record: module.exports is the value.
func (r *Realm) evaluateJSON(rec *record) error {
	rt := r.rt
	rec.module = r.newModuleObject(rec.path)
	var v goja.Value
	if ex := rt.Try(func() {
		parse, _ := goja.AssertFunction(rt.Get("JSON").(*goja.Object).Get("parse"))
		var err error
		if v, err = parse(goja.Undefined(), rt.ToValue(rec.source)); err != nil {
			panic(err)
		}
	}); ex != nil {
		return &Error{Name: "SyntaxError", Path: rec.path, Message: rec.path + ": " + ex.Value().String()}
	}
	_ = rec.module.Set("exports", v)
	_ = rec.module.Set("loaded", true)
	_ = r.cacheObject().Set(rec.path, rec.module)
	return nil
}

// newModuleObject returns a CommonJS module object for the file p.
func (r *Realm) newModuleObject(p string) *goja.Object {
	rt := r.rt
	m := rt.NewObject()
	_ = m.Set("id", p)
	_ = m.Set("path", path.Dir(p))
	_ = m.Set("filename", p)
	_ = m.Set("exports", rt.NewObject())
	_ = m.Set("loaded", false)
	_ = m.Set("children", rt.NewArray())
	paths := []any{}
	for d := path.Dir(p); ; d = path.Dir(d) {
		if path.Base(d) != "node_modules" {
			paths = append(paths, path.Join(d, "node_modules"))
		}
		if d == "/" || d == "." || d == path.Dir(d) {
			break
		}
	}
	_ = m.Set("paths", rt.NewArray(paths...))
	return m
}

// cjsView returns what an ES module's import of the CommonJS or JSON
// record rec gives: a namespace whose default is module.exports and whose
// other names are those Node would detect in the source (cjsNames, through
// re-exports), with their values as module.exports holds them now. It is
// marked __esModule (not enumerable), so that esbuild's interop takes its
// default as it is.
func (r *Realm) cjsView(rec *record) *goja.Object {
	rt := r.rt
	exports := rec.module.Get("exports")
	view := rt.NewObject()
	_ = view.SetPrototype(nil)
	_ = view.DefineDataProperty("__esModule", rt.ToValue(true), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = view.Set("default", exports)
	if rec.format == FormatJSON {
		return view
	}
	eo, _ := exports.(*goja.Object)
	if eo == nil {
		return view
	}
	for _, name := range r.detectedNames(rec, map[string]bool{}) {
		if name == "default" || name == "__esModule" {
			continue
		}
		_ = view.Set(name, eo.Get(name))
	}
	return view
}

// detectedNames returns the names cjsNames finds in rec's source and in
// the modules it re-exports (resolved as require would, already evaluated
// by then), each once.
func (r *Realm) detectedNames(rec *record, visited map[string]bool) []string {
	if visited[rec.path] || rec.format != FormatCommonJS {
		return nil
	}
	visited[rec.path] = true
	names, reexports := cjsNames(rec.source)
	for _, spec := range reexports {
		d, ok := rec.deps[spec]
		if !ok || d.rec == nil {
			continue
		}
		names = append(names, r.detectedNames(d.rec, visited)...)
	}
	return names
}
