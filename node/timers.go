package node

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// nodeTimers are the globals timers.js makes Node's, over the web layer's functions of the same names.
var nodeTimers = [...]string{"setTimeout", "setInterval", "setImmediate", "queueMicrotask"}

// installTimers makes the realm's timers Node's, from timers.js's make (timersLib): each global stays the lazy
// global the web layer defined, re-pointed to make Node's version over the web one on first touch
// (jsutil.RedefineLazyValue), so a realm that never uses a timer makes none of them, nor runs timers.js. The tick
// queue's queueMicrotask (n.queueMicrotask) is Node's over the web one as the realm began, whatever the program
// later does to the global. Where the globals are not lazy, they are replaced now, as before.
func (n *nodeState) installTimers(rt *goja.Runtime) {
	make := func(name string, orig goja.Value) goja.Value {
		mk, _ := goja.AssertFunction(n.timersLib().Get("make"))
		v, err := mk(goja.Undefined(), rt.ToValue(name), orig)
		if err != nil {
			panic(err)
		}
		if f, ok := v.(*goja.Object); ok { // a function's name: read-only, configurable, not enumerable
			_ = f.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
		return v
	}
	g := rt.GlobalObject()
	for _, name := range nodeTimers {
		prev, ok := jsutil.RedefineLazyValue(rt, name, func(prev func() goja.Value) goja.Value {
			return make(name, prev())
		})
		if !ok {
			_ = g.Set(name, make(name, g.Get(name)))
			if name == "queueMicrotask" {
				n.queueMicrotask = g.Get(name)
			}
			continue
		}
		if name == "queueMicrotask" {
			n.webMicrotask = func() goja.Value { return make(name, prev()) }
		}
	}
}

// timersLib returns timers.js's result ({bind, make}), running it on the first call: with the first timer, the
// first tick queue or the first worker_threads use that needs bind. A failure is thrown (the library's own source:
// a build bug).
func (n *nodeState) timersLib() *goja.Object {
	if n.timersLibObj != nil {
		return n.timersLibObj
	}
	rt := n.r.Runtime()
	setRef := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		n.w.SetTimerRef(c.Argument(0).ToInteger(), c.Argument(1).ToBoolean())
		return goja.Undefined()
	})
	clearTimer := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		n.w.ClearTimer(c.Argument(0).ToInteger())
		return goja.Undefined()
	})
	tm, err := timersSource.Call(rt, setRef, clearTimer, n.asyncContextNatives(rt))
	if err != nil {
		panic(err)
	}
	n.timersLibObj = tm.(*goja.Object)
	return n.timersLibObj
}

// tickMicrotask defines natives.queueMicrotask, the tick queue's (lib/ticks.js): n.queueMicrotask, or when that is
// made on first use (n.webMicrotask), a lazy property made when ticks.js first schedules a microtask.
func (n *nodeState) tickMicrotask(natives *goja.Object) {
	if n.webMicrotask != nil && gojainternal.DefineLazy(natives, tickMicrotaskProp, "queueMicrotask") {
		return
	}
	if n.queueMicrotask == nil {
		n.queueMicrotask = n.webMicrotask()
	}
	_ = natives.Set("queueMicrotask", n.queueMicrotask)
}

// tickMicrotaskProp makes the tick queue's queueMicrotask on first use.
var tickMicrotaskProp = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	v := goja.Value(goja.Undefined())
	if n, _ := stateKey.Get(rt); n != nil && n.webMicrotask != nil {
		v = n.webMicrotask()
	}
	return gojainternal.Prop{Value: v, Writable: true, Enumerable: true, Configurable: true}
})
