package modules

import (
	"path/filepath"
	"strings"
)

// A Format is how a module's source is run.
type Format uint8

const (
	// FormatModule is an ES module (or TypeScript written as one),
	// transformed by esbuild.
	FormatModule Format = iota
	// FormatCommonJS is a CommonJS module: its source runs as the body of
	// function (exports, require, module, __filename, __dirname).
	FormatCommonJS
	// FormatJSON is a JSON document: module.exports is the parsed value
	// (an ES module's default import of it too).
	FormatJSON
	// FormatDetect is CommonJS unless the source has ES module syntax
	// (import or export declarations, import.meta), as Node 22 runs a .js
	// file whose package.json has no "type".
	FormatDetect
)

// String returns Node's name of the format.
func (f Format) String() string {
	switch f {
	case FormatModule:
		return "module"
	case FormatCommonJS:
		return "commonjs"
	case FormatJSON:
		return "json"
	}
	return "detect"
}

// formatByExtension is the format of a resolved path without package.json:
// .cjs and .cts are CommonJS, .json is JSON, anything else an ES module
// (what module workers of C and Go hosts have always run).
func formatByExtension(p string) Format {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".cjs", ".cts":
		return FormatCommonJS
	case ".json":
		return FormatJSON
	}
	return FormatModule
}

// Format returns the format Node gives the file p: .mjs/.mts are ES
// modules, .cjs/.cts CommonJS, .json JSON, and .js/.ts (or any other
// extension) follow the "type" of the nearest package.json: "module" is
// an ES module, "commonjs" CommonJS, none FormatDetect.
func (r *Resolver) Format(p string) Format {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".mjs", ".mts":
		return FormatModule
	case ".cjs", ".cts":
		return FormatCommonJS
	case ".json":
		return FormatJSON
	}
	pkg, _ := r.pkgs.scope(filepath.Dir(p))
	if pkg != nil {
		switch pkg.typ {
		case "module":
			return FormatModule
		case "commonjs":
			return FormatCommonJS
		}
	}
	return FormatDetect
}

// IsModule reports whether the file p with source runs as an ES module
// under Node's rules (Format, with FormatDetect decided by the source).
// `jsworker run` and worker_threads use it for their entry files.
func (r *Resolver) IsModule(p, source string) bool {
	switch r.Format(p) {
	case FormatModule:
		return true
	case FormatDetect:
		return hasModuleSyntax(source)
	}
	return false
}

// decide resolves FormatDetect by the source.
func decide(f Format, source string) Format {
	if f == FormatDetect {
		if hasModuleSyntax(source) {
			return FormatModule
		}
		return FormatCommonJS
	}
	return f
}
