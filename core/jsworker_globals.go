package core

import "github.com/dop251/goja"

// workerGlobals are the globals every realm (worker or host) gets for the
// JS-facing worker APIs, and the prelude export behind each. They are
// defined lazily: an accessor that builds the realm's jsRealm and prelude on
// first access, then replaces itself with an ordinary data property. A
// realm that never touches them pays two native functions per name.
var workerGlobals = [...]struct{ global, export string }{
	{"Worker", "WebWorker"},
	{"MessageChannel", "MessageChannel"},
	{"MessagePort", "MessagePort"},
	{"BroadcastChannel", "BroadcastChannel"},
}

// makerKey is the private symbol under which a realm keeps its realmMaker,
// so that a MessagePort can be received (port_transfer.go) by a realm that
// has not used the APIs yet.
var makerKey = goja.NewSymbol("jsworker.core.realmMaker")

type realmMaker struct {
	rt   *goja.Runtime
	make func() *jsRealm
}

// installWorkerGlobals defines the lazy worker globals of rt; js makes (or
// returns) the realm's jsRealm.
func installWorkerGlobals(rt *goja.Runtime, js func() *jsRealm) error {
	g := rt.GlobalObject()
	if err := g.DefineDataPropertySymbol(makerKey, rt.ToValue(&realmMaker{rt: rt, make: js}),
		goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	for _, wg := range workerGlobals {
		export := wg.export
		if err := defineLazyGlobal(rt, wg.global, func() goja.Value { return js().prelude().Get(export) }); err != nil {
			return err
		}
	}
	return nil
}

// defineLazyGlobal defines globalThis[name] as an accessor that makes the
// value on first access and then replaces itself with an ordinary data
// property (writable, configurable, not enumerable, like the standard
// constructors); assigning to it first also settles it. A realm that never
// touches the global pays two native functions, not the value.
func defineLazyGlobal(rt *goja.Runtime, name string, value func() goja.Value) error {
	g := rt.GlobalObject()
	settle := func(v goja.Value) {
		_ = g.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	get := rt.ToValue(func(goja.FunctionCall) goja.Value {
		v := value()
		settle(v)
		return v
	})
	set := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		settle(c.Argument(0))
		return goja.Undefined()
	})
	return g.DefineAccessorProperty(name, get, set, goja.FLAG_TRUE, goja.FLAG_FALSE)
}
