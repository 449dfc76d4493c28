package node

import (
	_ "embed"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed lib/async_hooks.js
var asyncHooksJS string

// asyncHooksSource is the async_hooks module (AsyncLocalStorage, AsyncResource).
var asyncHooksSource = jsutil.NewSource("node:async_hooks", asyncHooksJS)

// The async context of a Node-style realm is one value, nodeState.asyncCtx: a frozen Map from each
// AsyncLocalStorage to its store, or nil. AsyncLocalStorage.run replaces it for the duration of a call; promise jobs
// get the context of the code that scheduled them (asyncTracker, goja's AsyncContextTracker); timers, immediates,
// process.nextTick and queueMicrotask capture it when scheduled (lib/timers.js, lib/process.js).

// asyncHooksModule makes the async_hooks module, and from then on gives the realm an AsyncContextTracker so that
// the context follows promise jobs. Before the module is loaded no context can be set, so promise jobs need no
// tracking (and pay nothing for it).
func (n *nodeState) asyncHooksModule() *goja.Object {
	// Composed with the inspector's tracker (async stack traces across await), which also needs goja's one slot.
	inspector.SetAsyncContextTracker(n.r.Runtime(), asyncTracker{n})
	return n.jsModule(asyncHooksSource, asyncHooksNatives)
}

// asyncTracker carries the async context across promise jobs (goja.AsyncContextTracker).
type asyncTracker struct{ n *nodeState }

func (t asyncTracker) Grab() any {
	if t.n.asyncCtx == nil {
		return nil
	}
	return t.n.asyncCtx
}

func (t asyncTracker) Resumed(v any) {
	if ctx, ok := v.(goja.Value); ok {
		t.n.asyncCtx = ctx
	} else {
		t.n.asyncCtx = nil
	}
}

func (t asyncTracker) Exited() { t.n.asyncCtx = nil }

// asyncContextNatives returns the object with get and set of the realm's async context, which async_hooks.js,
// timers.js and process.js share.
func (n *nodeState) asyncContextNatives(rt *goja.Runtime) *goja.Object {
	if n.ctxNatives != nil { // one object for every library source that takes it (they only call its functions)
		return n.ctxNatives
	}
	o := rt.NewObject()
	asyncContextFuncs.Define(rt, o)
	n.ctxNatives = o
	return o
}

// asyncContextFuncs are asyncContextNatives' functions, each made when a library source first reads it.
var asyncContextFuncs = jsutil.NewLazyFuncs(func(rt *goja.Runtime, def jsutil.DefFunc) {
	if n, _ := stateKey.Get(rt); n != nil {
		asyncHooksNatives(n, def)
	}
})

// asyncHooksNatives are async_hooks.js's natives: get and set the realm's async context.
func asyncHooksNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	def("get", 0, func(goja.FunctionCall) goja.Value {
		if n.asyncCtx == nil {
			return goja.Undefined()
		}
		return n.asyncCtx
	})
	def("set", 1, func(c goja.FunctionCall) goja.Value {
		v := c.Argument(0)
		if goja.IsUndefined(v) || goja.IsNull(v) {
			n.asyncCtx = nil
		} else {
			n.asyncCtx = v
		}
		return goja.Undefined()
	})
}
