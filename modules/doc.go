// Package modules runs module graphs — ES modules, CommonJS, JSON and
// TypeScript — in goja, which has no modules of its own. It does not know
// about workers: package core gives each module worker a Realm, the module
// map of its runtime, and the Node layer gives its realms one for require
// and import alike.
//
// A Loader resolves and loads each import; FileLoader reads the file
// system, Resolver resolves as Node does (node_modules, package.json
// "exports", "imports", "main" and "type"). Realm.Run loads the whole static
// graph of an entry module — every ES module transformed once by esbuild's
// Go API into a CommonJS body with live-binding getters (top-level await
// included), every module's positions moved back to the original source,
// compiled by goja — and only then evaluates it, dependencies first, in the
// ES specification's order when top-level await makes it asynchronous.
// import() loads later, lazily, through the same loader; CommonJS require
// loads when it runs (Realm.Require for code outside the map). Compiled
// modules are cached for the process (ResetCache). Failures to load are
// *Error values located in original coordinates.
//
// Files: loader.go (Loader, FileLoader), resolve.go (Resolver: Node's
// resolution), pkgjson.go (package.json, ordered), format.go (Format: what
// a file is), realm.go (the module map, linking), evaluate.go (evaluation,
// top-level await, import()), cjs.go (CommonJS and JSON records, the
// namespace ES modules see of them), require.go (CommonJS require),
// cjslexer.go (CommonJS export names, module syntax detection), transform.go
// (esbuild), compile.go (position rewrite, static imports, awaits, compile),
// sourcemap.go (decoding esbuild's map), cache.go, errors.go.
// docs/modules.md is the user guide; RATIONALE.md, "## Modules", says why it
// is built this way.
package modules
