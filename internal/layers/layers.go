// Package layers records the project's architecture as data — which package sits on which layer — and its test
// fails when a package imports one on its own or a higher layer, or when a package is missing from the table. The
// picture in docs/architecture.md is drawn from the same table: keep both true together.
package layers

// Module is the project's module path.
const Module = "github.com/jsworker/jsworker"

// Table lists the project's packages from the bottom layer up, relative to Module. A package may import only
// packages of lower layers (and third-party or standard ones). A path ending in "/..." covers every package below
// it.
var Table = [][]string{
	// 0: helpers with no knowledge of the runtime: goja internals in one place, per-realm state, the shared
	// goja/ast visitor, the process's resident memory, the dead-jump scripts the guard's and core's tests share.
	{"internal/layers", "internal/leakcheck", "internal/realmdata", "internal/gojainternal", "internal/astwalk",
		"internal/procmem", "internal/depthguard/deadjumps"},
	// 1: our JSON.parse and JSON.stringify (stoppable, linear, depth-bounded) and the stoppable long array walks,
	// over goja internals.
	{"internal/jsonbuiltin", "internal/arraybuiltin"},
	// 2: the catchable stack-overflow guard, over goja internals, the visitor and the JSON builtins it installs.
	{"internal/depthguard"},
	// 4: SharedArrayBuffer storage, the SharedArrayBuffer constructor and Atomics; JavaScript sources (over the
	// guard: a source that makes async functions or generators has it guard their constructors first), native
	// functions and lazy globals.
	{"sharedmem", "internal/jsutil"},
	// 4: structured clone (knows sharedmem to send a buffer by reference).
	{"clone"},
	// 5: the parts a realm is made of, none of which knows workers: the event loop, the inspector backend, ES
	// module graphs, console formatting and text encodings.
	{"internal/loop", "inspector", "modules", "web/console", "web/encoding"},
	// 6: the globals every realm gets; the DevTools endpoint over the inspector.
	{"web", "inspector/devtools"},
	// 7: the worker runtime and its Go API.
	{"core"},
	// 8: above core: the Node layer; core's workers as endpoint targets.
	{"node", "internal/workertargets"},
	// 9: the C ABI's exports, handles and marshaling; test support.
	{"capi", "internal/testsupport"},
	// 10: what is built from them: the library (cmd/libbuild), the jsworker command, examples, benchmarks, test
	// programs.
	{"cmd/...", "examples/...", "bench/...", "tests/..."},
}
