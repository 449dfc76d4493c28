package node

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// nodeTimers are the globals timers.js makes Node's, over the web layer's functions of the same names.
var nodeTimers = [...]string{"setTimeout", "setInterval", "setImmediate", "queueMicrotask"}

// installTimers makes the realm's timers Node's, from timers.js's result tm ({bind, make}): each global stays the
// lazy global the web layer defined, re-pointed to make Node's version over the web one on first touch
// (jsutil.RedefineLazyValue), so a realm that never uses a timer makes none of them. The tick queue's
// queueMicrotask (n.queueMicrotask) is Node's over the web one as the realm began, whatever the program later does
// to the global. Where the globals are not lazy, they are replaced now, as before.
func (n *nodeState) installTimers(rt *goja.Runtime, tm *goja.Object) {
	n.bind = tm.Get("bind")
	mk, _ := goja.AssertFunction(tm.Get("make"))
	make := func(name string, orig goja.Value) goja.Value {
		v, err := mk(goja.Undefined(), rt.ToValue(name), orig)
		if err != nil {
			panic(err)
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
