// Package modules runs ES module graphs (and TypeScript) in goja, which has
// no modules of its own. It does not know about workers: package core
// gives each module worker a Realm, the module map of its runtime.
//
// A Loader resolves and loads each import; FileLoader reads the file
// system. Realm.Run loads the whole static graph of an entry module — every
// module transformed once by esbuild's Go API into a CommonJS body with
// live-binding getters, its positions moved back to the original source,
// compiled by goja — and only then evaluates it, dependencies first. import()
// loads later, lazily, through the same loader. Compiled modules are cached
// for the process (ResetCache). Failures to load are *Error values located
// in original coordinates.
//
// Files: loader.go (Loader, FileLoader), realm.go (the module map, linking,
// evaluation, require), transform.go (esbuild), compile.go (position
// rewrite, static imports, compile), sourcemap.go (decoding esbuild's map),
// cache.go, errors.go. docs/modules.md is the user guide; RATIONALE.md,
// "## Modules", says why it is built this way.
package modules
