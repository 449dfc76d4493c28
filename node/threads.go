package node

import (
	_ "embed"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/internal/realmdata"
)

//go:embed lib/worker_threads.js
var workerThreadsJS string

// threadsSource builds a realm's worker_threads: the Worker class and the module's exports.
var threadsSource = jsutil.NewSource("node:worker_threads", workerThreadsJS)

// api returns worker_threads.js's result for the realm, running it on first use.
func (n *nodeState) api() *goja.Object {
	if n.wt != nil {
		return n.wt
	}
	rt := n.r.Runtime()
	natives := rt.NewObject()
	def := func(name string, length int, fn func(goja.FunctionCall) goja.Value) {
		jsutil.DefineFunc(rt, natives, name, length, fn)
	}
	n.childNatives(def)                               // child.go
	_ = natives.Set("ctx", n.asyncContextNatives(rt)) // async_hooks.go: a Worker's listeners run in its context
	v, err := threadsSource.Call(rt, n.r.API(), natives)
	if err != nil {
		panic(err)
	}
	n.wt = v.(*goja.Object)
	return n.wt
}

// call calls the worker_threads.js function name with args.
func (n *nodeState) call(name string, args ...goja.Value) (goja.Value, error) {
	f, ok := goja.AssertFunction(n.api().Get(name))
	if !ok {
		panic("jsworker: worker_threads.js function " + name + " missing")
	}
	return f(goja.Undefined(), args...)
}

// threadsModule returns the realm's worker_threads exports, made on first use.
func (n *nodeState) threadsModule() *goja.Object {
	if n.threads != nil {
		return n.threads
	}
	r, rt := n.r, n.r.Runtime()
	info := rt.NewObject()
	_ = info.Set("isMainThread", n.main)
	_ = info.Set("resourceLimits", rt.NewObject())
	if n.main {
		_ = info.Set("parentPort", goja.Null())
		_ = info.Set("workerData", goja.Null())
		_ = info.Set("threadId", 0)
	} else {
		_ = info.Set("threadId", int64(n.w.ID()))
		pp := &parentPort{n: n, refWanted: true}
		pp.obj = r.NewPort(pp)
		n.parentPort = pp
		_ = info.Set("parentPort", pp.obj)
		data := goja.Undefined()
		if n.dataFrame != nil {
			f := n.dataFrame
			n.dataFrame = nil
			d, err := clone.Deserialize(rt, f)
			if err != nil {
				r.Throw("workerData", err)
			}
			data = d
		}
		_ = info.Set("workerData", data)
	}
	m, err := n.call("makeModule", info)
	if err != nil {
		panic(err)
	}
	mo := m.(*goja.Object)
	if !gojainternal.DefineLazy(mo, threadsExports, lazyExports...) {
		for _, name := range lazyExports { // without lazy properties: all of them now
			if err := n.exportProp(name).Define(mo, name); err != nil {
				panic(err)
			}
		}
	}
	n.threads = mo
	return n.threads
}

// lazyExports are the worker_threads exports made on first touch, after the realm's facts, in Node's order.
var lazyExports = []string{"SHARE_ENV", "Worker", "MessageChannel", "MessagePort", "BroadcastChannel", "receiveMessageOnPort",
	"markAsUntransferable", "isMarkedAsUntransferable", "moveMessagePortToContext", "setEnvironmentData",
	"getEnvironmentData"}

// stateKey finds a realm's Node state from its runtime (set by install), for what is made on first touch.
var stateKey = realmdata.NewKey[*nodeState]("node.state")

// threadsExports makes a lazy export of a realm's worker_threads (worker_threads.js's exportOf).
var threadsExports = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	n, _ := stateKey.Get(rt)
	if n == nil {
		panic(rt.NewTypeError("jsworker: worker_threads is gone from this realm"))
	}
	return n.exportProp(name)
})

// exportProp makes the export name as worker_threads.js's exportOf does.
func (n *nodeState) exportProp(name string) gojainternal.Prop {
	v, err := n.call("exportOf", n.r.Runtime().ToValue(name))
	if err != nil {
		panic(err) // goja's own error (an exception, or termination): rethrown as it is, to the access that made it
	}
	return gojainternal.Prop{Value: v, Writable: true, Enumerable: true, Configurable: true}
}

// A parentPort is a Node-style worker's port to its parent: its messages travel through the worker's own inbox
// and outbox. It is the core.PortBackend behind worker_threads.parentPort.
type parentPort struct {
	n         *nodeState
	obj       *goja.Object
	refWanted bool
	counted   bool
	closed    bool
}

func (p *parentPort) Post(r *core.Realm, v goja.Value, transfer []goja.Value) {
	if p.closed {
		return
	}
	if err := core.PostTo(p.n.w.Outbox(), r.Runtime(), v, transfer); err != nil {
		r.Throw("postMessage", err)
	}
}

func (p *parentPort) Listen(on bool) {
	p.refWanted = on
	if on {
		p.Start()
	}
	p.updateRef()
}

func (p *parentPort) Start() {
	if p.closed || p.n.accepting {
		return
	}
	p.n.accepting = true
	p.updateRef()
	p.n.w.Wake()
}

func (p *parentPort) Close() {
	if p.closed {
		return
	}
	p.closed = true
	p.n.accepting = false
	p.updateRef()
	obj, r := p.obj, p.n.r
	r.RunOnLoop(func(*goja.Runtime) { r.Report(r.Emit(obj, "close")) })
}

func (p *parentPort) SetRef(on bool) { p.refWanted = on; p.updateRef() }
func (p *parentPort) HasRef() bool   { return p.counted }

func (p *parentPort) updateRef() {
	want := p.refWanted && p.n.accepting && !p.closed
	if want != p.counted {
		p.counted = want
		if want {
			p.n.r.AddRef(1)
		} else {
			p.n.r.AddRef(-1)
		}
	}
}

func (p *parentPort) Receive() (goja.Value, bool) {
	if p.closed {
		return nil, false
	}
	f, ok := p.n.w.Inbox().Pop(0)
	if !ok {
		return nil, false
	}
	v, err := clone.Deserialize(p.n.r.Runtime(), f)
	if err != nil {
		p.n.r.Throw("receiveMessageOnPort", err)
	}
	return v, true
}

func (p *parentPort) RealmEnded() {}
