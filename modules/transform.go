package modules

import (
	"path"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// wrapperHead and wrapperTail turn esbuild's CommonJS output into one
// function expression per module. The head is a line of its own, so that
// line n+1 of the wrapped text is line n of esbuild's output. The module
// object, the require function, import.meta and the import() hook are the
// only names the wrapper binds: esbuild renames a module's own top-level `module` and
// `require`, and never writes a bare `exports` (a module may declare its
// own).
const (
	wrapperHead = "(function (module, require, " + metaName + ", " + importName + ") {\n"
	wrapperTail = "\n})"
	metaName    = "__jsworker_import_meta"
	importName  = "__jsworker_import" // the import() hook (Realm.importFn; compile.go's dynamicImport)
)

// forAwaitMessage replaces esbuild's error for a top-level for await,
// which goja cannot run (it has no async iteration).
const forAwaitMessage = "top-level for await is not supported in jsworker modules; " +
	"move the loop into an async function"

// esbuildLoader picks esbuild's loader from the resolved path's extension.
func esbuildLoader(p string) api.Loader {
	switch strings.ToLower(path.Ext(p)) {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".json":
		return api.LoaderJSON
	}
	return api.LoaderJS
}

// transform converts one ES module (or TypeScript, or JSON) to a CommonJS
// body with live-binding getters, and returns it with its source map and
// the byte offsets, in source, of its top-level awaits.
//
// esbuild cannot write top-level await in CommonJS. Each one it reports is
// replaced by awaitMarker — five bitwise nots: the same length, and unary
// operators of the same precedence, so the operand is the same; esbuild
// folds no ~ outside minification and TypeScript enums (it would fold
// `void 1`, or `typeof void x`) — and the module transformed again; the
// compiler turns each marker back into an await in an async wrapper
// (compile.go).
func transform(p, source string) (code string, sourceMap []byte, awaits []int, err error) {
	code, sourceMap, errs := esbuildTransform(p, source)
	if len(errs) == 0 {
		return code, sourceMap, nil, nil
	}
	src := []byte(source)
	lines := newLineIndex(source)
	for _, m := range errs {
		if !strings.HasPrefix(m.Text, "Top-level await") || m.Location == nil || m.Location.Line > len(lines.starts) {
			return "", nil, nil, esbuildError(p, m)
		}
		off := lines.starts[m.Location.Line-1] + m.Location.Column
		if off+5 > len(src) || string(src[off:off+5]) != "await" {
			return "", nil, nil, esbuildError(p, m)
		}
		if before := strings.TrimRight(string(src[:off]), " \t\r\n"); strings.HasSuffix(before, "for") {
			e := esbuildError(p, m)
			e.Message = forAwaitMessage
			return "", nil, nil, e
		}
		copy(src[off:], awaitMarker)
		awaits = append(awaits, off)
	}
	code, sourceMap, errs = esbuildTransform(p, string(src))
	if len(errs) > 0 {
		return "", nil, nil, esbuildError(p, errs[0])
	}
	return code, sourceMap, awaits, nil
}

// awaitMarker stands for a top-level await while esbuild transforms.
const awaitMarker = "~~~~~"

// esbuildTransform is one run of esbuild's transform of a module.
func esbuildTransform(p, source string) (string, []byte, []api.Message) {
	loader := esbuildLoader(p)
	input := source
	if loader != api.LoaderJSON {
		// A module with no import or export would be taken for CommonJS
		// (top-level this as exports, no renaming of a declared `module`);
		// an empty export after the last line makes it a module without
		// moving anything before it.
		input += "\nexport {};\n"
	}
	opts := moduleOptions
	if !namesDefined(source) {
		opts = moduleOptionsNoDefine
	}
	opts.Loader = loader
	opts.Sourcefile = esbuildName(p)
	res := api.Transform(input, opts)
	return string(res.Code), res.Map, res.Errors
}

// moduleOptions are esbuild's options for a module (Loader and Sourcefile are set per call).
var moduleOptions = api.TransformOptions{
	Format: api.FormatCommonJS,
	// A neutral name (Sourcefile, esbuildName): esbuild takes a .mjs or .mts
	// source file for Node's interop mode, where every import's default is
	// the whole module (right for CommonJS, wrong for ES modules). The realm
	// gives CommonJS dependencies a namespace whose default is module.exports
	// instead (cjsView), so one mode serves both.
	Sourcemap: api.SourceMapExternal,
	Target:    api.ES2022,
	// goja parses neither import() nor async iteration: esbuild lowers them.
	// import() becomes a lazy require in a promise.
	Supported: map[string]bool{"dynamic-import": false, "async-generator": false, "for-await": false},
	// The wrapper's parameters must not show through: a free module, require
	// or exports in the module is the global one, as in any ES module.
	Define: map[string]string{
		"import.meta": metaName,
		"module":      "globalThis.module",
		"require":     "globalThis.require",
		"exports":     "globalThis.exports",
	},
	LogLevel: api.LogLevelSilent,
}

// moduleOptionsNoDefine are moduleOptions without the defines, for a source
// that names none of them (namesDefined). Given any define, esbuild rebuilds
// its table of side-effect-free globals (several hundred entries) on every
// call; given none, it reuses one it built once. That rebuild was about a
// fifth of what FuzzModuleGraph's small modules cost.
var moduleOptionsNoDefine = func() api.TransformOptions {
	o := moduleOptions
	o.Define = nil
	return o
}()

// namesDefined reports whether source may name what moduleOptions' defines
// replace: an identifier module, require or exports, or import.meta. A define
// only replaces an identifier or property chain written in the source, and
// an identifier is either spelled out or contains a \u escape, so a source
// without the words (anywhere: in a string or a comment too) and without a
// backslash names none of them, and esbuild's output for it is the same
// with the defines or without (TestTransformDefinesSkipped).
func namesDefined(source string) bool {
	return strings.Contains(source, "module") || strings.Contains(source, "require") ||
		strings.Contains(source, "exports") || strings.Contains(source, "meta") ||
		strings.Contains(source, `\`)
}

// esbuildName is the file name esbuild is told: p with .mjs/.mts/.cjs/.cts
// changed to .js/.ts, which carry no module type of their own.
func esbuildName(p string) string {
	ext := path.Ext(p)
	switch strings.ToLower(ext) {
	case ".mjs", ".cjs":
		return strings.TrimSuffix(p, ext) + ".js"
	case ".mts", ".cts":
		return strings.TrimSuffix(p, ext) + ".ts"
	}
	return p
}

// esbuildError converts esbuild's first error into a SyntaxError at its
// original position.
func esbuildError(p string, m api.Message) *Error {
	e := &Error{Name: "SyntaxError", Message: m.Text, Path: p}
	if m.Location != nil {
		e.Line, e.Column = m.Location.Line, m.Location.Column+1
	}
	return e
}
