// Package capi is the C ABI of libjsworker.so: it holds only cgo exports.
//
// Everything a C host can call is an //export in this package, declared and documented in include/jsworker.h,
// which is the contract; if a function is not in that header it is not part of the published API, whatever this
// package happens to export. The package's job is the boundary and nothing else:
//
//   - a handle table, so C holds integer handles and never a Go pointer;
//   - owner-thread checks, so a handle used from a thread other than the one that created it is refused;
//   - marshaling between C types and Go values;
//   - a panic fence in every export, so a Go panic becomes an error result and never crashes the host.
//
// The runtime itself lives in package core. This package is linked into the shared library by cmd/libbuild.
//
// The exports take and return handles as uintptr (the header's opaque pointer types carry the same integers; see
// RATIONALE.md, "## C ABI"), so the Go tests call them directly. Files: handles.go (the table, thread checks),
// context.go and scope.go (contexts, value lifetime, the panic fence), context_api.go, value.go, object.go, string.go
// (the JavaScriptCore-compatible surface), worker.go (JSWorker* and ZJSWorker*), inspector.go and
// inspector_context.go (inspector sessions on workers and on main contexts, over package inspector), capi.h (the C
// side of the preamble: callback bridges and struct mirrors).
package capi
