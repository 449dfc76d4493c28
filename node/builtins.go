package node

import (
	"sort"
	"strings"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/web"
)

// Node's built-in modules. Each entry makes a module's exports for one realm, on its first require or import;
// require('x'), require('node:x'), import 'x' and import 'node:x' all give the same object. A module is either Go
// code or a JavaScript source under lib/ (embedded, compiled once per process on first use), or both.

// builtins maps a built-in module's name (without "node:") to the function that makes its exports in a realm.
// A new module is one more entry here (no init functions: the table is the list).
var builtins = map[string]func(n *nodeState) *goja.Object{
	"worker_threads":       func(n *nodeState) *goja.Object { return n.threadsModule() },
	"url":                  func(n *nodeState) *goja.Object { return n.jsModule(urlSource, nil) },
	"internal/url":         func(n *nodeState) *goja.Object { return web.URLExports(n.r.Runtime()) },
	"events":               func(n *nodeState) *goja.Object { return n.jsModule(eventsSource, nil) },
	"path":                 func(n *nodeState) *goja.Object { return n.jsModule(pathSource, nil) },
	"os":                   func(n *nodeState) *goja.Object { return n.jsModule(osSource, osNatives) },
	"util":                 func(n *nodeState) *goja.Object { return n.jsModule(utilSource, utilNatives) },
	"assert":               func(n *nodeState) *goja.Object { return n.jsModule(assertSource, assertNatives) },
	"buffer":               func(n *nodeState) *goja.Object { return n.jsModule(bufferSource, bufferNatives) },
	"string_decoder":       func(n *nodeState) *goja.Object { return n.jsModule(stringDecoderSource, nil) },
	"querystring":          func(n *nodeState) *goja.Object { return n.jsModule(querystringSource, nil) },
	"timers":               func(n *nodeState) *goja.Object { return n.jsModule(timersModSource, nil) },
	"perf_hooks":           func(n *nodeState) *goja.Object { return n.jsModule(perfHooksSource, nil) },
	"async_hooks":          func(n *nodeState) *goja.Object { return n.asyncHooksModule() },
	"crypto":               func(n *nodeState) *goja.Object { return n.jsModule(cryptoSource, cryptoNatives) },
	"fs":                   func(n *nodeState) *goja.Object { return n.jsModule(fsSource, fsNatives) },
	"cluster":              func(n *nodeState) *goja.Object { return n.jsModule(clusterSource, nil) },
	"tty":                  func(n *nodeState) *goja.Object { return n.jsModule(ttySource, ttyNatives) },
	"process":              func(n *nodeState) *goja.Object { return n.proc() },
	"internal/globals":     func(n *nodeState) *goja.Object { return n.jsModule(globalsSource, globalsNatives) },
	"internal/blob":        func(n *nodeState) *goja.Object { return n.jsModule(blobSource, blobNatives) },
	"internal/stacktrace":  func(n *nodeState) *goja.Object { return n.jsModule(stacktraceSource, stacktraceNatives) },
	"internal/comparisons": func(n *nodeState) *goja.Object { return n.jsModule(comparisonsSource, nil) },
	"internal/inspect":     func(n *nodeState) *goja.Object { return n.jsModule(inspectSource, inspectNatives) },
	"internal/parse_args":  func(n *nodeState) *goja.Object { return n.jsModule(parseArgsSource, nil) },
	"module":               func(n *nodeState) *goja.Object { return n.moduleModule() },
}

// builtinParts are the built-in modules that are a property of another one (or, with no property, the same
// object under another name).
var builtinParts = map[string][2]string{
	"path/posix":      {"path", ""},
	"util/types":      {"util", "types"},
	"assert/strict":   {"assert", "strict"},
	"timers/promises": {"timers", "promises"},
	"fs/promises":     {"fs", "promises"},
}

// builtinNames returns the names of the built-in modules a script may require, sorted (internal/… ones are not):
// one list for the process, which callers must not change.
func builtinNames() []string { return builtinNameList() }

var builtinNameList = sync.OnceValue(func() []string {
	names := make([]string, 0, len(builtins)+len(builtinParts))
	for name := range builtins {
		if !isInternal(name) {
			names = append(names, name)
		}
	}
	for name := range builtinParts {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
})

func isInternal(name string) bool { return len(name) > 9 && name[:9] == "internal/" }

// builtin returns the exports of the built-in module name (without "node:"), made on first use, or false.
func (n *nodeState) builtin(name string) (*goja.Object, bool) {
	if m, ok := n.modules[name]; ok {
		return m, true
	}
	var m *goja.Object
	if part, ok := builtinParts[name]; ok {
		whole, _ := n.builtin(part[0])
		m = whole
		if part[1] != "" {
			m, _ = whole.Get(part[1]).(*goja.Object)
		}
	} else if mk, ok := builtins[name]; ok {
		m = mk(n)
	} else {
		return nil, false
	}
	if n.modules == nil {
		n.modules = make(map[string]*goja.Object)
	}
	n.modules[name] = m
	return m, true
}

// builtinLookup is builtin, reached through a variable: the module table's functions need other modules, and
// Go forbids the table referring to itself during initialization.
var builtinLookup func(n *nodeState, name string) (*goja.Object, bool)

func init() { builtinLookup = (*nodeState).builtin }

// mustBuiltin returns the exports of a built-in module the library itself needs; a missing one is a build bug.
func (n *nodeState) mustBuiltin(name string) *goja.Object {
	m, ok := builtinLookup(n, name)
	if !ok {
		panic("jsworker: built-in module " + name + " missing")
	}
	return m
}

// nativesFunc defines a module's Go natives (its N) in a realm.
type nativesFunc func(n *nodeState, def func(name string, length int, fn func(goja.FunctionCall) goja.Value))

// jsModule runs a module's JavaScript source in the realm and returns its exports. The source evaluates to
// function (N, require, core): N holds the module's Go natives, require loads other built-in modules (internal
// ones too), core is the realm's core API (EventEmitter, ports).
func (n *nodeState) jsModule(src *jsutil.Source, natives nativesFunc) *goja.Object {
	rt := n.r.Runtime()
	obj := rt.NewObject()
	if natives != nil {
		natives(n, func(name string, length int, fn func(goja.FunctionCall) goja.Value) {
			jsutil.DefineFunc(rt, obj, name, length, fn)
		})
	}
	v, err := src.Call(rt, obj, n.internalRequire(), n.r.API())
	if err != nil {
		panic(err)
	}
	return v.(*goja.Object)
}

// internalRequire returns the require the library's own module sources get: built-in modules only, by bare name.
func (n *nodeState) internalRequire() goja.Value {
	if n.ireq != nil {
		return n.ireq
	}
	rt := n.r.Runtime()
	n.ireq = rt.ToValue(func(c goja.FunctionCall) goja.Value {
		return n.mustBuiltin(c.Argument(0).String())
	})
	return n.ireq
}

// nodeBuiltins are the names of Node 20's built-in modules (its require('module').builtinModules), so that a
// program asking for one jsworker does not provide is told so.
var nodeBuiltins = strings.Fields(`assert assert/strict async_hooks buffer child_process cluster console constants crypto
	dgram diagnostics_channel dns dns/promises domain events fs fs/promises http http2 https inspector module net os
	path path/posix path/win32 perf_hooks process punycode querystring readline readline/promises repl stream
	stream/consumers stream/promises stream/web string_decoder sys test timers timers/promises tls trace_events tty
	url util util/types v8 vm wasi worker_threads zlib`)

// MissingHint is the module realm's MissingHint: for one of Node's built-in modules jsworker does not provide, a
// sentence naming the ones it does.
func (n *nodeState) MissingHint(spec string) string {
	name := strings.TrimPrefix(spec, "node:")
	if _, ok := builtins[name]; ok {
		return ""
	}
	for _, b := range nodeBuiltins {
		if b == name {
			var ours []string
			for _, n := range builtinNames() {
				if !isInternal(n) {
					ours = append(ours, n)
				}
			}
			return "'" + name + "' is one of Node's built-in modules that jsworker does not provide; jsworker provides " +
				strings.Join(ours, ", ") + " (each also as node:…)"
		}
	}
	return ""
}
