// Package gojainternal is the one place in jsworker that reads goja's
// internals: the Go types and fields behind goja.Object, the layout of typed
// arrays and ArrayBuffers, the own properties of plain objects (read, and
// written once when a new one is built), the names hint of arrays, the
// representation of strings and integers, the text goja gives errors and
// stack traces, the size of a realm's graph (ReachableBytes, for core's
// memory budgets), and the templates goja builds globals and prototypes
// from together with the call and construct behaviour of its native
// functions (lazyguard.go: core's allocation guard and the depth guard's
// builtins, at no cost until used),
// and properties of ours made on first touch through the same templates
// (lazyprops.go: lazy globals, prototype methods, natives), and the two
// fields of goja.Exception, to rethrow a value with the stack of its first
// throw (exception.go: the inspector's guards), and the symbol-keyed
// factories of templates (symhooks.go: the array iterator's guard).
//
// goja exports no way to tell a Map from a WeakMap without running the
// realm's (patchable) JavaScript, no TypedArray type, and error positions
// only as text. Several packages need those facts on hot paths (structured
// clone, Atomics, the inspector), so they are read here, once, and nowhere
// else: this is the ONLY package of the module allowed to use reflect or
// unsafe on goja values, or to parse goja's message and stack formats.
// (internal/realmdata uses a runtime's address as a map key, which reads
// nothing of goja; sharedmem and clone use reflect only on public types,
// such as ExportType results.)
//
// # Probes fail closed
//
// Every fact is located once per process, at first use, by a probe that
// finds the field or type with reflect and then confirms it on sample values
// made in a private runtime (one the probes share, proberuntime.go; the
// first realm's LazyGuard starts the probes a realm needs next on a
// goroutine of their own). If goja changed in a way the probe does not
// recognise, the probe records an error and never guesses:
//
//   - [Kinds] and [TypedArrays] return that error, and the functions that
//     depend on them answer "unknown" ([KindUnknown], ok=false) without
//     touching memory; callers check the error first and refuse to work
//     (clone's Serialize, sharedmem's Install) or degrade visibly (the
//     inspector, see its kinds.go).
//   - The optional fast paths ([PlainKeys], [PlainGet], [ArrayHasNoNames],
//     [NewInt], [IsASCII], [FillPlainObject], [ArrayElement]) answer "don't know" instead,
//     and their callers take the slow, public route (Keys, Get, ToValue,
//     Set); [Verify] reports
//     them all.
//
// No function of this package panics on a goja value it does not
// recognise. The package tests name the goja version the probes were
// verified against (TestGojaVersion) and fail loudly if any probe stops
// matching, so a goja upgrade is re-verified before it ships.
//
// # Error text
//
// goja reports positions only inside text: "at f (file.js:3:9(12))" in
// Error.stack, "file.js: Line 2:9 Unexpected token" in parser errors, and a
// "(pc)" suffix Node does not print. [FirstStackPosition], [StripStackPC]
// and [SyntaxErrorPosition] are the one reader of each format.
package gojainternal
