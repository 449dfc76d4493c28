package core

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// The parent side of workers created from JavaScript: worker_threads'
// Worker (Node-style: EventEmitter events online, message, messageerror,
// error, exit) and the web Worker (events message, messageerror, error).
// Each is an ordinary core Worker; its outbox's notify hook schedules a
// drain on the parent realm's loop, which delivers the worker's messages in
// order and, once the outbox is closed and empty, its exit.

// Channel limits of JS-created workers, in both directions, and of ports:
// Node and browsers put no bound on queued messages, so neither do we
// beyond memory-safety caps.
const (
	jsMaxFrameBytes  = 512 << 20
	jsMaxQueuedBytes = 4 << 30
)

var jsLimits = ChannelLimits{MaxFrameBytes: jsMaxFrameBytes, MaxQueuedBytes: jsMaxQueuedBytes, MaxQueuedMessages: math.MaxInt32}

// A threadLink is what a JS-created worker shares with its parent.
type threadLink struct {
	online   atomic.Bool                 // the worker started running JavaScript
	exitCode atomic.Int32                // written before the outbox closes
	errFrame atomic.Pointer[clone.Frame] // a Node-style worker's uncaught exception, serialized
	wake     func()                      // schedules the parent's drain; set before the worker starts

	mu   sync.Mutex
	errs []ErrorRecord // a web worker's error records, for 'error' events
}

func (l *threadLink) pushErr(rec ErrorRecord) {
	l.mu.Lock()
	l.errs = append(l.errs, rec)
	l.mu.Unlock()
	l.wake()
}

func (l *threadLink) takeErrs() []ErrorRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.errs
	l.errs = nil
	return e
}

// A childWorker is a JS Worker object of a parent realm and the worker
// behind it.
type childWorker struct {
	realm *jsRealm
	obj   *goja.Object
	w     *Worker // nil when the script did not compile
	link  *threadLink
	node  bool

	scheduled atomic.Bool

	// Parent realm thread only.
	compileErr error
	refWanted  bool
	counted    bool
	onlineSent bool
	exited     bool
	waiters    []func(any) error // terminate() promises
}

func (c *childWorker) schedule() {
	if c.scheduled.CompareAndSwap(false, true) {
		if !c.realm.loop.RunOnLoop(func(*goja.Runtime) { c.drain() }) {
			c.scheduled.Store(false)
		}
	}
}

func (c *childWorker) updateRef() {
	want := c.refWanted && !c.exited && !c.realm.ended
	if want != c.counted {
		c.counted = want
		if want {
			c.realm.addRef(1)
		} else {
			c.realm.addRef(-1)
		}
	}
}

// drain delivers what the worker sent since the last drain. Parent thread.
func (c *childWorker) drain() {
	c.scheduled.Store(false)
	r := c.realm
	if c.exited || r.ended {
		return
	}
	if c.w == nil {
		c.exit()
		return
	}
	if c.node && !c.onlineSent && c.link.online.Load() {
		c.onlineSent = true
		if r.report(r.emit(c.obj, "online")) {
			return
		}
	}
	if !c.node && c.webErrors() {
		return
	}
	for range deliveryBatch {
		f, err := c.w.ReceiveFrame(0)
		if errors.Is(err, ErrNoMessage) {
			return
		}
		if err != nil { // closed and drained: the worker ended
			c.exit()
			return
		}
		v, derr := clone.Deserialize(r.rt, f)
		var lerr error
		if derr != nil {
			lerr = r.emit(c.obj, evMessageError, r.cloneErrorValue(derr))
		} else {
			lerr = r.emit(c.obj, evMessage, v)
		}
		if r.report(lerr) || c.exited {
			return
		}
	}
	c.schedule()
}

// webErrors dispatches a web worker's error records as ErrorEvents; it
// tells whether the drain must stop.
func (c *childWorker) webErrors() bool {
	r := c.realm
	for _, rec := range c.link.takeErrs() {
		msg := rec.Message
		if rec.Name != "" {
			msg = rec.Name + ": " + rec.Message
		}
		ev, err := r.errorEvFn(goja.Undefined(), r.rt.ToValue("Uncaught "+msg), r.rt.ToValue(rec.Filename),
			r.rt.ToValue(rec.Line), r.rt.ToValue(rec.Column), goja.Null())
		if err == nil {
			err = r.emit(c.obj, "error", ev)
		}
		if r.report(err) {
			return true
		}
	}
	return false
}

// exit ends the child: 'error' (an uncaught exception) then 'exit' for a
// Node-style worker; terminate() promises settle with the exit code.
func (c *childWorker) exit() {
	r := c.realm
	c.exited = true
	delete(r.children, c.obj)
	c.updateRef()
	code := 1
	var errVal goja.Value
	if c.w != nil {
		code = int(c.link.exitCode.Load())
		if !c.node {
			c.webErrors()
		} else if f := c.link.errFrame.Swap(nil); f != nil {
			v, err := clone.Deserialize(r.rt, f)
			if err != nil {
				v = r.newError("Error", "", "jsworker: the worker's uncaught exception could not be cloned: "+err.Error())
			}
			errVal = v
		}
		c.w.Release()
	} else {
		errVal = r.compileError(c.compileErr)
	}
	if c.node {
		if f, ok := goja.AssertFunction(r.prelude().Get("setThreadId")); ok {
			_, _ = f(goja.Undefined(), c.obj, r.rt.ToValue(-1))
		}
		if errVal != nil && r.report(r.emit(c.obj, "error", errVal)) {
			return
		}
		if r.report(r.emit(c.obj, "exit", r.rt.ToValue(code))) {
			return
		}
	}
	for _, resolve := range c.waiters {
		_ = resolve(code)
	}
	c.waiters = nil
}

// compileError turns a script's compile error into the realm's SyntaxError.
func (r *jsRealm) compileError(err error) goja.Value {
	var syn *goja.CompilerSyntaxError
	if errors.As(err, &syn) {
		return r.newError("SyntaxError", "", syn.Message)
	}
	return r.newError("Error", "", err.Error())
}

// childOptions are the options of a worker this realm creates: output and
// inspection as the creator's, channels as Node's.
func (r *jsRealm) childOptions(name, filename string) Options {
	var o Options
	if r.w != nil {
		p := r.w.opts
		o = Options{Stdout: p.Stdout, Stderr: p.Stderr, Inspectable: p.Inspectable, MaxCallStackSize: p.MaxCallStackSize}
	} else if h := hostLoopOf(r.rt); h != nil {
		o = Options{Stdout: h.opts.Stdout, Stderr: h.opts.Stderr, MaxCallStackSize: h.opts.MaxCallStackSize}
	}
	o.Name, o.Filename = name, filename
	return o
}

// workerNatives are the prelude's Worker natives.
func (r *jsRealm) workerNatives(def func(string, int, func(goja.FunctionCall) goja.Value)) {
	child := func(v goja.Value) *childWorker {
		o, _ := v.(*goja.Object)
		return r.children[o]
	}
	def("spawnNode", 3, func(c goja.FunctionCall) goja.Value {
		obj, _ := c.Argument(0).(*goja.Object)
		spec, _ := c.Argument(2).(*goja.Object)
		return r.rt.ToValue(r.spawnNode(obj, c.Argument(1), spec))
	})
	def("spawnWeb", 3, func(c goja.FunctionCall) goja.Value {
		obj, _ := c.Argument(0).(*goja.Object)
		spec, _ := c.Argument(2).(*goja.Object)
		r.spawnWeb(obj, c.Argument(1).String(), spec)
		return goja.Undefined()
	})
	def("workerPost", 3, func(c goja.FunctionCall) goja.Value {
		ch := child(c.Argument(0))
		if ch == nil || ch.w == nil {
			return goja.Undefined() // as in Node, posting to an ended worker does nothing
		}
		err := post(ch.w.inbox, r.rt, c.Argument(1), r.transferList(c.Argument(2)))
		if err != nil && !errors.Is(err, ErrClosed) {
			r.throw("postMessage", err)
		}
		return goja.Undefined()
	})
	def("workerTerminate", 1, func(c goja.FunctionCall) goja.Value {
		ch := child(c.Argument(0))
		if ch == nil {
			if !r.isWeb(c.Argument(0)) {
				p, resolve, _ := r.rt.NewPromise()
				_ = resolve(goja.Undefined())
				return r.rt.ToValue(p)
			}
			return goja.Undefined()
		}
		ret := goja.Undefined()
		if ch.node {
			p, resolve, _ := r.rt.NewPromise()
			ch.waiters = append(ch.waiters, resolve)
			ret = r.rt.ToValue(p)
		}
		if ch.w != nil {
			ch.w.Terminate()
		}
		return ret
	})
	def("workerRef", 2, func(c goja.FunctionCall) goja.Value {
		if ch := child(c.Argument(0)); ch != nil {
			ch.refWanted = c.Argument(1).ToBoolean()
			ch.updateRef()
		}
		return goja.Undefined()
	})
}

func (r *jsRealm) isWeb(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	ctor, _ := r.prelude().Get("WebWorker").(*goja.Object)
	return ctor != nil && r.rt.InstanceOf(o, ctor)
}

// nodeWorkerPath resolves worker_threads' filename argument as Node does: an
// absolute path, a path starting with ./ or ../ (from the current
// directory), or a file: URL (a string or a URL object).
func nodeWorkerPath(rt *goja.Runtime, v goja.Value) (string, error) {
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

// spawnNode starts a worker_threads Worker and returns its threadId.
func (r *jsRealm) spawnNode(obj *goja.Object, target goja.Value, spec *goja.Object) int64 {
	rt := r.rt
	get := func(k string) goja.Value {
		v := spec.Get(k)
		if v == nil {
			return goja.Undefined()
		}
		return v
	}
	var source, filename string
	if get("eval").ToBoolean() {
		source, filename = target.String(), "[worker eval]"
	} else {
		p, err := nodeWorkerPath(rt, target)
		if err != nil {
			panic(r.newError("TypeError", "", err.Error()))
		}
		b, err := os.ReadFile(p)
		if err != nil {
			panic(r.newError("Error", "", "Cannot find module '"+p+"': "+err.Error()))
		}
		source, filename = string(b), p
	}
	isModule := get("type").String() == "module" || isModulePath(filename)
	ns := &nodeState{filename: filename}
	if argv := get("argv"); !goja.IsUndefined(argv) {
		_ = rt.ExportTo(argv, &ns.argv)
	}
	ns.argv = append([]string{execPath(), filename}, ns.argv...)

	// What the child reads from its parent: each a frame, read in its realm.
	frames := make([]*clone.Frame, 0, 3)
	release := func() {
		for _, f := range frames {
			f.Release()
		}
	}
	mk := func(v goja.Value) *clone.Frame {
		f, err := clone.Serialize(rt, v, clone.Options{MaxBytes: jsMaxFrameBytes})
		if err != nil {
			release()
			r.throw("Worker", err)
		}
		frames = append(frames, f)
		return f
	}
	if env := get("env"); !goja.IsUndefined(env) {
		ns.envFrame = mk(env)
	} else if pr := r.process(); pr != nil {
		ns.envFrame = mk(pr.Get("env"))
	} else {
		ns.env = os.Environ()
	}
	if m, ok := get("envData").(*goja.Object); ok && m.Get("size").ToInteger() > 0 {
		ns.envDataFrame = mk(m)
	}
	commit := noCommit
	if get("hasWorkerData").ToBoolean() {
		f, cm, err := clone.SerializeTransfer(rt, get("workerData"),
			clone.Options{MaxBytes: jsMaxFrameBytes, Transfer: r.transferList(get("transferList"))})
		if err != nil {
			release()
			r.throw("Worker", err)
		}
		frames = append(frames, f)
		ns.dataFrame, ns.hasData, commit = f, true, cm
	}

	link := &threadLink{}
	ns.link = link
	c := &childWorker{realm: r, obj: obj, link: link, node: true, refWanted: true}
	link.wake = c.schedule
	opts := r.childOptions(get("name").String(), filename)
	if mb := get("stackSizeMb").ToFloat(); mb > 0 {
		opts.MaxCallStackSize = max(int(mb*2500), 100)
	}
	opts.Setup = func(w *Worker, _ *goja.Runtime) error {
		w.node = ns
		if err := ns.setup(w); err != nil {
			return err
		}
		link.online.Store(true)
		link.wake()
		return nil
	}
	w, err := spawnJS(source, filename, isModule, opts)
	if err != nil {
		release()
		var syn *goja.CompilerSyntaxError
		if !errors.As(err, &syn) {
			r.throw("Worker", err)
		}
		// As in Node, a script that does not compile is an 'error' event.
		c.compileErr = err
		r.children[obj] = c
		c.updateRef()
		c.schedule()
		return -1
	}
	commit()
	c.w = w
	r.children[obj] = c
	c.updateRef()
	w.SetNotify(c.schedule)
	c.schedule() // messages posted before the hook was installed
	return int64(w.ID())
}

func noCommit() {}

// isModulePath tells whether a worker file is an ES module by its name.
func isModulePath(p string) bool {
	for _, ext := range []string{".mjs", ".mts", ".ts"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

// spawnJS starts a worker created from JavaScript: a classic script, or an
// ES module graph whose imports are files (modules.FileLoader). A module's
// syntax errors surface on the worker's thread, as its uncaught exception.
func spawnJS(source, path string, module bool, opts Options) (*Worker, error) {
	if module {
		opts.Inbox, opts.Outbox = jsLimits, jsLimits
		return spawnFileModule(path, source, opts)
	}
	return spawn(source, opts, jsLimits, jsLimits)
}

// webWorkerPath resolves a web Worker's URL: a file: URL or a path (relative
// to the current directory).
func webWorkerPath(s string) (string, error) {
	if strings.HasPrefix(s, "file:") {
		u, err := url.Parse(s)
		if err != nil {
			return "", err
		}
		return u.Path, nil
	}
	if strings.Contains(s, "://") || strings.HasPrefix(s, "data:") || strings.HasPrefix(s, "blob:") {
		return "", fmt.Errorf("jsworker: worker URL %q is not supported (only file: URLs and paths)", s)
	}
	return filepath.Abs(s)
}

// spawnWeb starts a web Worker: a worker with the web worker globals, whose
// uncaught errors become 'error' events of obj and which lives until it
// calls close() or is terminated.
func (r *jsRealm) spawnWeb(obj *goja.Object, u string, spec *goja.Object) {
	module := spec.Get("type").String() == "module"
	p, err := webWorkerPath(u)
	if err != nil {
		panic(r.newError("TypeError", "", err.Error()))
	}
	b, err := os.ReadFile(p)
	if err != nil {
		panic(r.newError("Error", "NetworkError", "Worker: cannot load "+u+": "+err.Error()))
	}
	link := &threadLink{}
	c := &childWorker{realm: r, obj: obj, link: link, refWanted: true}
	link.wake = c.schedule
	opts := r.childOptions(spec.Get("name").String(), p)
	opts.OnError = link.pushErr
	if !module {
		opts.Setup = func(w *Worker, rt *goja.Runtime) error {
			installImportScripts(w, filepath.Dir(p))
			return nil
		}
	}
	w, err := spawnJS(string(b), p, module, opts)
	if err != nil {
		var syn *goja.CompilerSyntaxError
		if errors.As(err, &syn) {
			panic(r.compileError(err))
		}
		r.throw("Worker", err)
	}
	c.w = w
	r.children[obj] = c
	c.updateRef()
	w.SetNotify(c.schedule)
	c.schedule()
}

// installImportScripts defines importScripts(...urls) for a classic web
// worker: each script is read (relative to dir) and run in the global
// scope, in order.
func installImportScripts(w *Worker, dir string) {
	w.defineFunc(w.rt.GlobalObject(), "importScripts", 0, func(c goja.FunctionCall) goja.Value {
		for _, a := range c.Arguments {
			s := a.String()
			p := s
			if strings.HasPrefix(s, "file:") {
				if u, err := url.Parse(s); err == nil {
					p = u.Path
				}
			} else if !filepath.IsAbs(s) {
				p = filepath.Join(dir, s)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				panic(w.newError(w.errorCtor, "NetworkError", "importScripts: cannot load "+s+": "+err.Error()))
			}
			if _, err := w.rt.RunScript(p, string(b)); err != nil {
				var ex *goja.Exception
				if errors.As(err, &ex) {
					panic(ex.Value())
				}
				panic(w.newError(w.errorCtor, "SyntaxError", err.Error()))
			}
		}
		return goja.Undefined()
	})
}
