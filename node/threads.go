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
	n.childNatives(natives, def)                      // child.go
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

// threadsModule returns the realm's worker_threads exports, made on first use: an object whose exports are all lazy
// data properties (writable, enumerable, configurable, as Node's are), in Node's order, each made on first touch
// (threadsExports). A worker that only talks to its parent makes parentPort and nothing else: worker_threads.js
// runs when the first of the exports it makes (Worker, SHARE_ENV …) is touched. workerData is read from its frame
// now, as before, so that a frame that cannot be read still throws at require.
func (n *nodeState) threadsModule() *goja.Object {
	if n.threads != nil {
		return n.threads
	}
	r, rt := n.r, n.r.Runtime()
	if !n.main && n.dataFrame != nil {
		f := n.dataFrame
		n.dataFrame = nil
		d, err := clone.Deserialize(rt, f)
		if err != nil {
			r.Throw("workerData", err)
		}
		n.workerData = d
	}
	mo := rt.NewObject()
	if !gojainternal.DefineLazy(mo, threadsExports, threadsExportNames...) {
		for _, name := range threadsExportNames { // without lazy properties: all of them now
			if err := n.exportProp(name).Define(mo, name); err != nil {
				panic(err)
			}
		}
	}
	n.threads = mo
	return n.threads
}

// threadsExportNames are the worker_threads exports in the order node v20 lists them (Object.keys), each made on
// first touch; isMarkedAsUntransferable (Node 21's) where later Nodes list it. Node 20.20's postMessageToThread is
// not supported.
var threadsExportNames = []string{"isMainThread", "MessagePort", "MessageChannel", "markAsUntransferable",
	"isMarkedAsUntransferable", "moveMessagePortToContext", "receiveMessageOnPort", "resourceLimits", "threadId",
	"SHARE_ENV", "Worker", "parentPort", "workerData", "BroadcastChannel", "setEnvironmentData", "getEnvironmentData"}

// stateKey finds a realm's Node state from its runtime (set by install), for what is made on first touch.
var stateKey = realmdata.NewKey[*nodeState]("node.state")

// threadsExports makes a lazy export of a realm's worker_threads (exportProp).
var threadsExports = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	n, _ := stateKey.Get(rt)
	if n == nil {
		panic(rt.NewTypeError("jsworker: worker_threads is gone from this realm"))
	}
	return n.exportProp(name)
})

// exportProp makes the export name: the realm's facts (isMainThread, threadId, resourceLimits, parentPort,
// workerData) here, the rest as worker_threads.js's exportOf does.
func (n *nodeState) exportProp(name string) gojainternal.Prop {
	rt := n.r.Runtime()
	var v goja.Value
	switch name {
	case "isMainThread":
		v = rt.ToValue(n.main)
	case "threadId":
		v = rt.ToValue(0)
		if !n.main {
			v = rt.ToValue(int64(n.w.ID()))
		}
	case "resourceLimits":
		v = rt.NewObject()
	case "parentPort":
		v = goja.Null()
		if !n.main {
			v = n.parent().obj
		}
	case "workerData":
		v = goja.Null()
		if !n.main {
			v = goja.Undefined()
			if n.workerData != nil {
				v = n.workerData
			}
		}
	default:
		var err error
		if v, err = n.call("exportOf", rt.ToValue(name)); err != nil {
			panic(err) // goja's own error (an exception, or termination): rethrown as it is, to the access that made it
		}
	}
	return gojainternal.Prop{Value: v, Writable: true, Enumerable: true, Configurable: true}
}

// parent returns the worker's parentPort, making it on first use.
func (n *nodeState) parent() *parentPort {
	if n.parentPort == nil {
		pp := &parentPort{n: n, refWanted: true}
		pp.obj = n.r.NewPort(pp)
		n.parentPort = pp
	}
	return n.parentPort
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
