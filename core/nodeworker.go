package core

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Node-style workers: the main program (program.go) and the workers that
// worker_threads creates. They differ from web-style workers in three ways:
//
//   - their loop ends by itself once nothing ref'd is left (no ref'd timer,
//     child worker or started port; a parentPort with a 'message' listener
//     counts), as Node's does;
//   - an uncaught exception or unhandled rejection ends them with exit code
//     1 (the main program prints it, a worker's parent gets an 'error'
//     event); process.exit(n) ends them with n;
//   - their globals are Node's: process, require, module, exports,
//     __filename, __dirname, global, timers returning Timeout objects; the
//     web worker globals (self, postMessage, onmessage, close, name …) are
//     removed. Messages from the parent go to worker_threads.parentPort.
//
// A nodeState is set on the worker (w.node) at the start of its Setup and
// is touched only on the worker's goroutine.
type nodeState struct {
	main     bool        // the main program: no parent
	link     *threadLink // shared with the parent; nil for the main program
	filename string      // process.argv[1], __filename
	source   string      // the main program's source, for error excerpts
	argv     []string
	env      []string  // "K=V" pairs, when envFrame is nil
	stderr   io.Writer // the main program's error output

	// From the parent, each read once in the worker's realm.
	envFrame, envDataFrame, dataFrame *clone.Frame
	hasData                           bool

	accepting bool // parentPort started: inbox messages are delivered
	exitSet   bool // process.exit or an uncaught exception fixed exitCode
	exitSent  bool // process 'exit' was emitted (once, whatever ends the realm)
	exitCode  int
	codeProp  goja.Value // process.exitCode
	code      int        // the final exit code, once the loop ended
	codeSet   bool

	process    *goja.Object
	parentPort *parentPort
}

// webGlobals are the web worker globals a Node-style worker does not have.
var webGlobals = [...]string{"self", "postMessage", "close", "onmessage", "onmessageerror",
	"addEventListener", "removeEventListener", "name"}

// setup installs Node's globals in w's realm. It runs on w's goroutine
// from Setup, before the script.
func (n *nodeState) setup(w *Worker) error {
	rt := w.rt
	g := rt.GlobalObject()
	for _, name := range webGlobals {
		_ = g.Delete(name)
	}
	r := w.jsRealm()
	var err error
	if ex := rt.Try(func() { err = n.install(w, r) }); ex != nil {
		return ex
	}
	return err
}

func (n *nodeState) install(w *Worker, r *jsRealm) error {
	rt, g := w.rt, w.rt.GlobalObject()
	api := r.prelude()
	g.Set("global", g)
	call := func(name string, args ...goja.Value) (goja.Value, error) {
		f, _ := goja.AssertFunction(api.Get(name))
		return f(goja.Undefined(), args...)
	}
	setRef := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		if t := w.timerByID[c.Argument(0).ToInteger()]; t != nil {
			t.unref = !c.Argument(1).ToBoolean()
		}
		return goja.Undefined()
	})
	if _, err := call("nodeTimers", g, setRef); err != nil {
		return err
	}
	proc, err := n.makeProcess(r, call)
	if err != nil {
		return err
	}
	n.process = proc
	_ = g.DefineDataProperty("process", proc, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	if n.envDataFrame != nil {
		f := n.envDataFrame
		n.envDataFrame = nil
		m, err := clone.Deserialize(rt, f)
		if err != nil {
			return err
		}
		if _, err := call("loadEnvironmentData", m); err != nil {
			return err
		}
	}
	return n.installRequire(w, r)
}

// process returns the realm's process object, nil for realms that are not
// Node-style.
func (r *jsRealm) process() *goja.Object {
	if r.w != nil && r.w.node != nil {
		return r.w.node.process
	}
	return nil
}

// threadsModule returns the realm's worker_threads exports, made on first
// use.
func (r *jsRealm) threadsModule() *goja.Object {
	if r.module != nil {
		return r.module
	}
	rt := r.rt
	api := r.prelude()
	info := rt.NewObject()
	n := (*nodeState)(nil)
	if r.w != nil {
		n = r.w.node
	}
	isMain := r.w == nil || (n != nil && n.main)
	info.Set("isMainThread", isMain)
	info.Set("resourceLimits", rt.NewObject())
	if isMain || n == nil { // the main program, a host realm, or a worker not made by worker_threads
		info.Set("parentPort", goja.Null())
		info.Set("workerData", goja.Null())
		info.Set("threadId", 0)
		if r.w != nil && n == nil {
			info.Set("threadId", int64(r.w.id))
		}
	} else {
		info.Set("threadId", int64(r.w.id))
		pp := &parentPort{w: r.w, r: r, refWanted: true}
		v, err := r.newPortFn(goja.Undefined())
		if err != nil {
			panic(err)
		}
		pp.obj = v.(*goja.Object)
		r.ports[pp.obj] = pp
		n.parentPort = pp
		info.Set("parentPort", pp.obj)
		data := goja.Undefined()
		if n.dataFrame != nil {
			f := n.dataFrame
			n.dataFrame = nil
			d, err := clone.Deserialize(rt, f)
			if err != nil {
				r.throw("workerData", err)
			}
			data = d
		}
		info.Set("workerData", data)
	}
	f, _ := goja.AssertFunction(api.Get("makeModule"))
	m, err := f(goja.Undefined(), info)
	if err != nil {
		panic(err)
	}
	r.module = m.(*goja.Object)
	return r.module
}

// A parentPort is a Node-style worker's port to its parent: its messages
// travel through the worker's own inbox and outbox.
type parentPort struct {
	w         *Worker
	r         *jsRealm
	obj       *goja.Object
	refWanted bool
	counted   bool
	closed    bool
}

func (p *parentPort) post(r *jsRealm, v goja.Value, transfer []goja.Value) {
	if p.closed {
		return
	}
	if err := post(p.w.outbox, r.rt, v, transfer); err != nil {
		r.throw("postMessage", err)
	}
}

func (p *parentPort) listen(on bool) {
	p.refWanted = on
	if on {
		p.start()
	}
	p.updateRef()
}

func (p *parentPort) start() {
	if p.closed || p.w.node.accepting {
		return
	}
	p.w.node.accepting = true
	p.updateRef()
	p.w.wakeup()
}

func (p *parentPort) close() {
	if p.closed {
		return
	}
	p.closed = true
	p.w.node.accepting = false
	p.updateRef()
	obj, r := p.obj, p.r
	r.loop.RunOnLoop(func(*goja.Runtime) { r.report(r.emit(obj, "close")) })
}

func (p *parentPort) setRef(on bool) { p.refWanted = on; p.updateRef() }
func (p *parentPort) hasRef() bool   { return p.counted }

func (p *parentPort) updateRef() {
	want := p.refWanted && p.w.node.accepting && !p.closed
	if want != p.counted {
		p.counted = want
		if want {
			p.r.addRef(1)
		} else {
			p.r.addRef(-1)
		}
	}
}

func (p *parentPort) receive() (goja.Value, bool) {
	if p.closed {
		return nil, false
	}
	f, ok := p.w.inbox.Pop(0)
	if !ok {
		return nil, false
	}
	v, err := clone.Deserialize(p.r.rt, f)
	if err != nil {
		p.r.throw("receiveMessageOnPort", err)
	}
	return v, true
}

func (p *parentPort) realmEnded() {}

// deliver dispatches one message from the parent on parentPort.
func (n *nodeState) deliver(w *Worker, f *clone.Frame) error {
	r := w.js
	if r == nil || n.parentPort == nil {
		f.Release()
		return nil
	}
	v, err := clone.Deserialize(w.rt, f)
	if err != nil {
		return r.emit(n.parentPort.obj, evMessageError, r.cloneErrorValue(err))
	}
	return r.emit(n.parentPort.obj, evMessage, v)
}

// nodeAlive tells whether a Node-style loop has anything ref'd left.
func (w *Worker) nodeAlive() bool {
	if w.js != nil && w.js.refs > 0 {
		return true
	}
	if len(w.immediates) > 0 {
		return true
	}
	for _, t := range w.timers {
		if !t.unref {
			return true
		}
	}
	return false
}

// uncaught handles an uncaught exception or unhandled rejection of a
// Node-style worker: it ends the worker with exit code 1. The main program
// prints the error (or hands it to its error hook); a worker sends it to its
// parent as an 'error' event. It reports whether the record was handled.
func (n *nodeState) uncaught(w *Worker, rec ErrorRecord) bool {
	if rec.Kind != ErrorUncaught && rec.Kind != ErrorUnhandledRejection {
		return false
	}
	if w.isTerminating() {
		return true // already ending: this is fallout
	}
	n.exitSet, n.exitCode = true, 1
	if n.main {
		if h := w.errorHook.Load(); h != nil {
			callErrorHook(*h, rec)
		} else {
			n.printUncaught(w, rec)
		}
		n.emitProcess(w.js, "exit", 1) // after the error is printed, as in Node
	} else if n.link != nil {
		n.link.errFrame.Store(n.errorFrame(w, rec))
	}
	w.Terminate()
	return true
}

// errorFrame serializes what a worker's 'error' event carries: the thrown
// value, or an Error made from the record when there is none or it cannot
// be cloned.
func (n *nodeState) errorFrame(w *Worker, rec ErrorRecord) *clone.Frame {
	if rec.thrown != nil {
		if f, err := clone.Serialize(w.rt, rec.thrown, clone.Options{MaxBytes: jsMaxFrameBytes}); err == nil {
			return f
		}
	}
	ctor := w.errorCtor
	if rec.Name != "" {
		if c, ok := w.rt.GlobalObject().Get(rec.Name).(*goja.Object); ok {
			ctor = c
		}
	}
	e := w.newError(ctor, "", rec.Message)
	if rec.Stack != "" {
		e.Set("stack", rec.Stack)
	}
	f, err := clone.Serialize(w.rt, e, clone.Options{})
	if err != nil {
		return nil
	}
	return f
}

// printUncaught writes an uncaught error of the main program as Node does:
// the position and its source line with a caret, then the stack.
func (n *nodeState) printUncaught(w *Worker, rec ErrorRecord) {
	out := n.stderr
	if out == nil {
		out = os.Stderr
	}
	var b strings.Builder
	if rec.Filename != "" && rec.Line > 0 {
		fmt.Fprintf(&b, "%s:%d\n", rec.Filename, rec.Line)
		if rec.Filename == n.filename {
			lines := strings.Split(n.source, "\n")
			if rec.Line <= len(lines) {
				l := strings.TrimRight(lines[rec.Line-1], "\r")
				b.WriteString(l + "\n")
				if rec.Column > 0 && rec.Column <= len(l)+1 {
					b.WriteString(strings.Repeat(" ", rec.Column-1) + "^\n")
				}
			}
		}
		b.WriteString("\n")
	}
	switch {
	case rec.Stack != "":
		b.WriteString(gojainternal.StripStackPC(strings.ReplaceAll(rec.Stack, "\tat ", "    at ")))
	case rec.Name != "":
		b.WriteString(rec.Name + ": " + rec.Message)
	case rec.Kind == ErrorUnhandledRejection:
		b.WriteString("Uncaught (in promise) " + rec.Message)
	default:
		b.WriteString("Uncaught " + rec.Message)
	}
	b.WriteString("\n")
	io.WriteString(out, b.String())
}

// finalCode is the exit code of a Node-style worker whose loop ended.
func (n *nodeState) finalCode(w *Worker) int {
	switch {
	case n.exitSet:
		return n.exitCode
	case w.fatal != nil, w.isTerminating():
		return 1
	case n.codeProp != nil && !goja.IsUndefined(n.codeProp) && !goja.IsNull(n.codeProp):
		return int(int32(n.codeProp.ToInteger()))
	}
	return 0
}

// endJS runs on w's goroutine as its loop ends, before the outbox closes:
// the exit code of a Node-style worker is fixed (its parent reads it once
// the outbox is closed), then child workers, ports and channels of the
// realm end.
func (w *Worker) endJS() {
	if n := w.node; n != nil {
		n.code, n.codeSet = n.finalCode(w), true
		if n.link != nil {
			n.link.exitCode.Store(int32(n.code))
		}
		for _, f := range []*clone.Frame{n.envFrame, n.envDataFrame, n.dataFrame} {
			f.Release()
		}
		n.envFrame, n.envDataFrame, n.dataFrame = nil, nil, nil
	}
	if w.js != nil {
		w.js.end()
	}
}
