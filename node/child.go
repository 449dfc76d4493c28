package node

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
)

// The parent side of worker_threads' Worker: a core.Child whose hooks emit Node's events — 'online' once the
// worker runs JavaScript, its messages, 'error' with its uncaught exception, then 'exit' with its exit code — and
// settle terminate()'s promises.

// A threadLink is what a worker_threads worker shares with its parent.
type threadLink struct {
	online      atomic.Bool                 // the worker started running JavaScript
	outOfMemory atomic.Bool                 // its memory budget ended it; written before the outbox closes
	exitCode    atomic.Int32                // written before the outbox closes
	errFrame    atomic.Pointer[clone.Frame] // the worker's uncaught exception, serialized
	child       atomic.Pointer[core.Child]  // the parent's side, once known
}

// wake schedules the parent's drain.
func (l *threadLink) wake() {
	if c := l.child.Load(); c != nil {
		c.Schedule()
	}
}

// A nodeChild is the core.ChildHooks of one worker_threads Worker. Parent realm thread only.
type nodeChild struct {
	n          *nodeState // the parent's
	link       *threadLink
	compileErr error // the script did not compile: the child never started
	onlineSent bool
	waiters    []func(any) error // terminate() promises
}

func (nc *nodeChild) BeforeMessages(c *core.Child) bool {
	if !nc.onlineSent && nc.link.online.Load() {
		nc.onlineSent = true
		r := c.Realm()
		if !r.HasListeners(c.Object(), "online") { // nothing to call (an emit without listeners does nothing)
			return false
		}
		return r.Report(r.Emit(c.Object(), "online"))
	}
	return false
}

// Exited emits 'error' (an uncaught exception or a compile error) then 'exit', and settles terminate() promises
// with the exit code.
func (nc *nodeChild) Exited(c *core.Child) {
	delete(nc.n.children, c)
	r := c.Realm()
	code := 1
	var errVal goja.Value
	if c.Worker() != nil {
		code = int(nc.link.exitCode.Load())
		if nc.link.outOfMemory.Load() { // as Node: an Error with code ERR_WORKER_OUT_OF_MEMORY, then exit code 1
			e := r.NewError("Error", "", core.OutOfMemoryMessage)
			_ = e.Set("code", "ERR_WORKER_OUT_OF_MEMORY")
			_ = e.DefineDataProperty("stack", r.Runtime().ToValue("Error [ERR_WORKER_OUT_OF_MEMORY]: "+core.OutOfMemoryMessage),
				goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			errVal = e
		} else if f := nc.link.errFrame.Swap(nil); f != nil {
			v, err := clone.Deserialize(r.Runtime(), f)
			if err != nil {
				v = r.NewError("Error", "", "jsworker: the worker's uncaught exception could not be cloned: "+err.Error())
			}
			errVal = v
		}
	} else {
		errVal = r.CompileError(nc.compileErr)
	}
	_ = c.Object().SetSymbol(nc.n.kThreadID, r.Runtime().ToValue(-1)) // as worker[kThreadId] = -1 (a frozen Worker keeps its id)
	if errVal != nil && r.Report(r.Emit(c.Object(), "error", errVal)) {
		return
	}
	if r.HasListeners(c.Object(), "exit") && r.Report(r.Emit(c.Object(), "exit", r.Runtime().ToValue(code))) {
		return
	}
	for _, resolve := range nc.waiters {
		_ = resolve(code)
	}
	nc.waiters = nil
}

// childNatives are worker_threads.js's natives (its N): spawn(worker, filename, ...options) defines the worker's
// threadId under N.kThreadId.
func (n *nodeState) childNatives(natives *goja.Object, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	n.kThreadID = goja.NewSymbol("kThreadId")
	_ = natives.Set("kThreadId", n.kThreadID)
	def("spawn", 15, func(c goja.FunctionCall) goja.Value {
		obj, _ := c.Argument(0).(*goja.Object)
		var sp spawnSpec
		sp.read(c.Arguments[min(2, len(c.Arguments)):])
		id := n.spawnChild(obj, c.Argument(1), &sp)
		if obj != nil {
			_ = obj.DefineDataPropertySymbol(n.kThreadID, n.r.Runtime().ToValue(id), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_FALSE)
		}
		return goja.Undefined()
	})
	def("terminate", 1, func(c goja.FunctionCall) goja.Value {
		rt := n.r.Runtime()
		p, resolve, _ := rt.NewPromise()
		ch := n.r.ChildOf(c.Argument(0))
		if ch == nil {
			_ = resolve(goja.Undefined())
			return rt.ToValue(p)
		}
		nc := n.children[ch]
		if nc != nil {
			nc.waiters = append(nc.waiters, resolve)
		}
		if ch.Worker() != nil {
			ch.Worker().Terminate()
		}
		return rt.ToValue(p)
	})
}

// A spawnSpec is a Worker's options as worker_threads.js read them (N.spawn's arguments after the filename, in
// this order; an argument not given is undefined).
type spawnSpec struct {
	eval, name, argv, env, shareEnv, hasWorkerData, workerData, transferList,
	stackSizeMb, maxOldGenerationSizeMb, maxYoungGenerationSizeMb, typ, envData goja.Value
}

func (sp *spawnSpec) read(args []goja.Value) {
	for i, p := range [...]*goja.Value{&sp.eval, &sp.name, &sp.argv, &sp.env, &sp.shareEnv, &sp.hasWorkerData,
		&sp.workerData, &sp.transferList, &sp.stackSizeMb, &sp.maxOldGenerationSizeMb, &sp.maxYoungGenerationSizeMb,
		&sp.typ, &sp.envData} {
		if i < len(args) && args[i] != nil {
			*p = args[i]
		} else {
			*p = goja.Undefined()
		}
	}
}

// workerPath resolves worker_threads' filename argument as Node does: an absolute path, a path starting with ./
// or ../ (from the current directory), or a file: URL (a string or a URL object).
func workerPath(v goja.Value) (string, error) {
	s := v.String()
	if o, ok := v.(*goja.Object); ok {
		if href := o.Get("href"); href != nil && !goja.IsUndefined(href) {
			s = href.String()
		}
	}
	switch {
	case strings.HasPrefix(s, "file:"):
		u, err := url.Parse(s)
		if err != nil {
			return "", err
		}
		return u.Path, nil
	case strings.HasPrefix(s, "data:"), strings.Contains(s, "://"):
		return "", fmt.Errorf("jsworker: worker URL %q is not supported (only file: URLs and paths)", s)
	case filepath.IsAbs(s):
		return s, nil
	case strings.HasPrefix(s, "./"), strings.HasPrefix(s, "../"):
		return filepath.Abs(s)
	}
	return "", fmt.Errorf("the worker script or module filename must be an absolute path or a relative path "+
		"starting with './' or '../'. Received %q", s)
}

// spawnChild starts a worker_threads Worker behind obj and returns its threadId (-1 when the script does not
// compile: the 'error' event follows).
func (n *nodeState) spawnChild(obj *goja.Object, target goja.Value, sp *spawnSpec) int64 {
	r, rt := n.r, n.r.Runtime()
	var source, filename string
	if sp.eval.ToBoolean() {
		source, filename = target.String(), "[worker eval]"
	} else {
		p, err := workerPath(target)
		if err != nil {
			panic(r.NewError("TypeError", "", err.Error()))
		}
		b, err := os.ReadFile(p)
		if err != nil {
			panic(r.NewError("Error", "", "Cannot find module '"+p+"': "+err.Error()))
		}
		source, filename = string(b), p
	}
	isModule := sp.typ.String() == "module" || isModuleFile(filename, source)
	ns := &nodeState{filename: filename, moduleEntry: isModule}
	ns.argv = append(make([]string, 0, 2), execPath(), filename)
	if argv, ok := sp.argv.(*goja.Object); ok { // options.argv.map(String)
		var more []string
		_ = rt.ExportTo(argv, &more)
		ns.argv = append(ns.argv, more...)
	}

	// What the child reads from its parent: each a frame, read in its realm.
	frames := make([]*clone.Frame, 0, 3)
	release := func() {
		for _, f := range frames {
			f.Release()
		}
	}
	maxFrame := core.JSLimits.MaxFrameBytes
	mk := func(v goja.Value) *clone.Frame {
		f, err := clone.Serialize(rt, v, clone.Options{MaxBytes: maxFrame})
		if err != nil {
			release()
			r.Throw("Worker", err)
		}
		frames = append(frames, f)
		return f
	}
	switch env := sp.env; {
	case sp.shareEnv.ToBoolean(): // SHARE_ENV: one environment for both (env.go)
		n.proc()
		ns.envStore = n.shareEnv()
	case !goja.IsUndefined(env):
		ns.envFrame = mk(env)
	case n.envStore != nil: // a copy of the parent's shared process.env as it is now
		ns.envStore = n.envStore.copyStore()
		ns.envCopy = true
	default: // the parent's process.env, as it is now (envframe.go)
		ns.envFrame = n.parentEnvFrame(mk)
		frames = append(frames[:0], ns.envFrame)
	}
	if m, ok := sp.envData.(*goja.Object); ok && m.Get("size").ToInteger() > 0 {
		ns.envDataFrame = mk(m)
	}
	commit := func() {}
	if sp.hasWorkerData.ToBoolean() {
		f, cm, err := clone.SerializeTransfer(rt, sp.workerData,
			clone.Options{MaxBytes: maxFrame, Transfer: r.TransferList(sp.transferList)})
		if err != nil {
			release()
			r.Throw("Worker", err)
		}
		frames = append(frames, f)
		ns.dataFrame, ns.hasData, commit = f, true, cm
	}

	link := &threadLink{}
	ns.link = link
	nc := &nodeChild{n: n, link: link}
	opts := r.ChildOptions(sp.name.String(), filename)
	if mb := sp.stackSizeMb.ToFloat(); mb > 0 {
		opts.MaxCallStackSize = max(int(mb*framesPerStackMB), 100)
	}
	// maxOldGenerationSizeMb and maxYoungGenerationSizeMb together are the worker's memory budget: goja has one
	// heap, not V8's generations. Over it, the worker ends with Node's ERR_WORKER_OUT_OF_MEMORY (Exited).
	if mb := max(sp.maxOldGenerationSizeMb.ToFloat(), 0) + max(sp.maxYoungGenerationSizeMb.ToFloat(), 0); mb > 0 {
		opts.MaxHeapBytes = int64(mb * (1 << 20))
	}
	opts.OnError = childRecords(opts.Stderr)
	opts.Extension = &onlineExt{nodeState: ns}
	w, err := core.SpawnFile(filename, source, isModule, opts)
	if err != nil {
		release()
		var syn *goja.CompilerSyntaxError
		if !errors.As(err, &syn) {
			r.Throw("Worker", err)
		}
		// As in Node, a script that does not compile is an 'error' event.
		nc.compileErr = err
		n.addChild(r.AddChild(obj, nil, nc), nc)
		return -1
	}
	commit()
	c := r.AddChild(obj, w, nc)
	n.addChild(c, nc)
	link.child.Store(c)
	c.Schedule() // online may have come before the link knew the child
	return int64(w.ID())
}

// addChild remembers nc as the hooks of c, for terminate().
func (n *nodeState) addChild(c *core.Child, nc *nodeChild) {
	if n.children == nil {
		n.children = make(map[*core.Child]*nodeChild)
	}
	n.children[c] = nc
}

// framesPerStackMB maps resourceLimits.stackSizeMb to goja's call-depth limit (goja's stack is a Go slice, not
// sized in bytes): node v20 on x64 reaches 55,222 frames of a one-line recursive function with stackSizeMb 4
// (11,532 with 1, 113,477 with 8), so 4 MB gives the same depth here.
const framesPerStackMB = 13800

// onlineExt is a child's nodeState that tells its parent once its setup is done ('online').
type onlineExt struct{ *nodeState }

func (o *onlineExt) Setup(w *core.Worker, rt *goja.Runtime) error {
	if err := o.nodeState.Setup(w, rt); err != nil {
		return err
	}
	o.link.online.Store(true)
	o.link.wake()
	return nil
}

// childRecords is a worker_threads worker's error handler: its uncaught exceptions reach the parent as 'error'
// events (Uncaught), and so does running out of memory (Exited), so the record of that is not printed; any other
// record is written to stderr as core would.
func childRecords(stderr io.Writer) func(core.ErrorRecord) {
	return func(rec core.ErrorRecord) {
		if rec.Kind == core.ErrorOutOfMemory {
			return
		}
		if stderr == nil {
			stderr = os.Stderr
		}
		fmt.Fprintf(stderr, "jsworker: %s\n", strings.TrimRight(rec.Error(), "\n"))
	}
}
