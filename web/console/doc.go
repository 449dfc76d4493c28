// Package console is Node's console and util.inspect/util.format for goja
// realms, written in Go: what console.log prints in jsworker is what Node
// v20 prints for the same values (without colors).
//
// [Inspect] is util.inspect: objects, arrays with holes, nesting cut at a
// depth, circular references (<ref *1> and [Circular *1]), Map, Set, the
// weak collections, typed arrays and (Shared)ArrayBuffer and DataView,
// Date, RegExp, errors with their stack, cause and extra properties, class
// instances named after their class, null-prototype objects, boxed
// primitives, symbols, accessors shown as [Getter]/[Setter], functions and
// classes, promise states, and Node's rules for quoting, truncating and
// breaking lines (breakLength 80, compact 3, grouped array columns).
// [Format] is util.format with its %s %d %i %f %j %o %O %c %% directives.
// [Install] defines the console object of a realm on top of both, with the
// host deciding where each message goes ([Config]).
//
// # Reading objects
//
// The inspector reads objects through the realm's own intrinsics, captured
// when the console is installed (or when Inspect is called): property
// descriptors instead of [[Get]], so a getter never runs, and a proxy's
// target instead of the proxy, so no trap runs. Where Node does run user
// code, this package does too: a Symbol.toStringTag getter, a
// [Symbol.for('nodejs.util.inspect.custom')] method (unless CustomInspect
// is off), and the toString/valueOf/toJSON that %s, %d and %j call. What
// such code throws is caught and the value is inspected instead, so
// Inspect and Format never throw; an interrupt of the runtime
// (Runtime.Interrupt, the worker's terminate) is raised again.
//
// Differences from Node that come from goja, not from this package: stack
// traces are goja's (their frames are printed in V8's "    at f (file:1:2)"
// form), functions have no own arguments/caller properties, and Map and
// Set iterators print as plain objects (their entries are not readable
// without consuming them).
//
// # Goroutines
//
// Everything here runs on the goroutine that owns the runtime, like every
// goja call; Config's functions are called there, during the console call.
package console
