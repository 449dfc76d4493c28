package node

import (
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/modules"
)

// Node-style workers: the main program (program.go) and the workers that worker_threads creates (child.go). They
// are core Workers whose core.Extension is a nodeState, and differ from web-style workers in three ways:
//
//   - their loop ends by itself once nothing ref'd is left (no ref'd timer, child worker or started port; a
//     parentPort with a 'message' listener counts), as Node's does;
//   - an uncaught exception or unhandled rejection ends them with exit code 1 (the main program prints it, a
//     worker's parent gets an 'error' event); process.exit(n) ends them with n;
//   - their globals are Node's: process, require, module, exports, __filename, __dirname, global, timers returning
//     Timeout objects; the web worker globals (self, postMessage, onmessage, close, name …) are removed. Messages
//     from the parent go to worker_threads.parentPort.
//
// A nodeState is touched only on its worker's goroutine.
type nodeState struct {
	w *core.Worker
	r *core.Realm

	ctxNatives *goja.Object // asyncContextNatives, made once

	main     bool        // the main program: no parent
	link     *threadLink // shared with the parent; nil for the main program
	filename string      // process.argv[1], __filename
	source   string      // the main program's source, for error excerpts
	argv     []string
	env      []string               // "K=V" pairs, when envFrame and envStore are nil
	envStore *envStore              // process.env's variables once shared under SHARE_ENV (env.go), else nil
	envCopy  bool                   // envStore is this realm's own copy of a shared parent's (not shared)
	stderr   io.Writer              // the main program's error output
	onError  func(core.ErrorRecord) // the main program's Options.OnError: gets the uncaught error instead of stderr

	// From the parent, each read once in the worker's realm.
	envFrame, envDataFrame, dataFrame *clone.Frame
	hasData                           bool
	workerData                        goja.Value // dataFrame, read as worker_threads is first required; nil if none

	accepting bool // parentPort started: inbox messages are delivered
	exitSet   bool // process.exit or an uncaught exception fixed exitCode
	exitSent  bool // process 'exit' was emitted (once, whatever ends the realm)
	exitCode  int
	codeProp  goja.Value // process.exitCode
	code      int        // the final exit code, once the loop ended
	codeSet   bool

	errorCtor      *goja.Object      // the realm's original Error constructor
	process        *goja.Object      // nil until first used (proc)
	procReplaced   goja.Value        // what the program assigned to globalThis.process, nil if nothing
	queueMicrotask goja.Value        // the realm's own queueMicrotask, for process.nextTick
	webMicrotask   func() goja.Value // makes one, when it is made on first use (timers.go)
	nextTick       goja.Value        // process.nextTick (lib/ticks.js), made with process (tickQueue)
	parentPort     *parentPort
	threads        *goja.Object            // the worker_threads exports, made on first require
	modules        map[string]*goja.Object // built-in modules' exports, made on first require (builtins.go)
	ireq           goja.Value              // the require of the library's own module sources (builtins.go)
	asyncCtx       goja.Value              // AsyncLocalStorage's current context (async_hooks.go)
	wt             *goja.Object            // worker_threads.js's result, made on first use

	children  map[*core.Child]*nodeChild // the worker_threads Workers this realm created (child.go)
	kThreadID *goja.Symbol               // a Worker's threadId property (worker_threads.js's kThreadId), made with the class
	envSent   envSnapshot                // process.env as last sent to a child (envframe.go)

	modRealm     *modules.Realm    // require's and import's module map, made on first use (modules.go)
	resolver     *modules.Resolver // Node's resolution, with its package.json cache
	builtinNames []string          // builtinNames(), for the module "module"
	moduleEntry  bool              // the entry runs through the module map: no require, module, exports … globals
	cjs          *cjsState         // the entry script's require, module and exports (require.go); nil for moduleEntry
	ticks        tickState         // process.nextTick's queue (ticks.go)
	timersLibObj *goja.Object      // timers.js's result {bind, make}, made on first use (timersLib)
	hk           hostKinds         // Blob, File and DOMException for structured clone (blob.go)
	stack        stackState        // Error.captureStackTrace and Error.prepareStackTrace (stacktrace.go)
}

//go:embed lib/timers.js
var timersJS string

// timersSource makes the maker of a realm's Node timers, which return Node's Timeout and Immediate objects (timers.go).
var timersSource = jsutil.NewSource("node:internal/timers", timersJS)

// Setup installs Node's globals in w's realm (core.Extension). It runs on w's goroutine, before the script.
func (n *nodeState) Setup(w *core.Worker, rt *goja.Runtime) error {
	n.w = w
	g := rt.GlobalObject()
	n.errorCtor, _ = g.Get("Error").(*goja.Object) // the web worker's own globals are not made (OmitWebGlobals)
	n.r = w.Realm()
	n.builtinNames = builtinNames()
	var err error
	if ex := rt.Try(func() { err = n.install(rt) }); ex != nil {
		return ex
	}
	return err
}

func (n *nodeState) install(rt *goja.Runtime) error {
	stateKey.Set(rt, n)
	g := rt.GlobalObject()
	_ = g.Set("global", g)
	n.installTimers(rt)
	if err := n.installTicks(rt); err != nil { // ticks.go: the loop's wrapped callback now, the queue with process
		return err
	}
	if err := n.installProcessGlobal(rt); err != nil {
		return err
	}
	if n.envDataFrame != nil {
		f := n.envDataFrame
		n.envDataFrame = nil
		m, err := clone.Deserialize(rt, f)
		if err != nil {
			return err
		}
		if _, err := n.call("loadEnvironmentData", m); err != nil {
			return err
		}
	}
	if err := n.installGlobals(rt); err != nil {
		return err
	}
	n.installHostKinds(rt)
	n.installStackTraceAPI(rt)
	return n.installRequire()
}

// Accepting reports whether parentPort has been started (core.Extension).
func (n *nodeState) Accepting() bool { return n.accepting }

// Deliver dispatches one message from the parent on parentPort (core.Extension).
func (n *nodeState) Deliver(f *clone.Frame) error {
	if n.parentPort == nil {
		f.Release()
		return nil
	}
	v, err := clone.Deserialize(n.r.Runtime(), f)
	if err != nil {
		return n.r.Emit(n.parentPort.obj, "messageerror", n.r.CloneErrorValue(err))
	}
	return n.r.Emit(n.parentPort.obj, "message", v)
}

// Builtin resolves a module worker's import of a Node built-in module (core.Extension).
// The library's own internal/… modules are not reachable from scripts.
func (n *nodeState) Builtin(specifier string) (*goja.Object, bool) {
	name := strings.TrimPrefix(specifier, "node:")
	if isInternal(name) {
		return nil, false
	}
	return n.builtin(name)
}

// Uncaught ends a Node-style worker with exit code 1 after an uncaught exception or unhandled rejection
// (core.Extension). The main program prints the error (or hands it to its OnError); a worker sends it to its
// parent as an 'error' event.
func (n *nodeState) Uncaught(rec core.ErrorRecord) bool {
	w := n.w
	if w.Stopping() {
		return true // already ending: this is fallout
	}
	if n.handleUncaught(rec) { // a process 'uncaughtException' / 'unhandledRejection' listener (process_events.go)
		return true
	}
	n.exitSet, n.exitCode = true, 1
	if n.main {
		if n.onError != nil {
			func() {
				defer func() { _ = recover() }() // a hook that panics must not take the worker's thread down
				n.onError(rec)
			}()
		} else {
			n.printUncaught(rec)
		}
		n.emitProcess("exit", 1) // after the error is printed, as in Node
	} else if n.link != nil {
		n.link.errFrame.Store(n.errorFrame(rec))
	}
	w.Terminate()
	return true
}

// errorFrame serializes what a worker's 'error' event carries: the thrown value, or an Error made from the record
// when there is none or it cannot be cloned.
func (n *nodeState) errorFrame(rec core.ErrorRecord) *clone.Frame {
	rt := n.r.Runtime()
	if v := rec.Value(); v != nil {
		if f, err := clone.Serialize(rt, v, clone.Options{MaxBytes: core.JSLimits.MaxFrameBytes}); err == nil {
			return f
		}
	}
	ctor := n.errorCtor
	if rec.Name != "" {
		if c, ok := rt.GlobalObject().Get(rec.Name).(*goja.Object); ok {
			ctor = c
		}
	}
	var e *goja.Object
	if ctor != nil {
		e, _ = rt.New(ctor, rt.ToValue(rec.Message))
	}
	if e == nil {
		e = n.r.NewError("Error", "", rec.Message)
	}
	if rec.Stack != "" {
		_ = e.Set("stack", rec.Stack)
	}
	f, err := clone.Serialize(rt, e, clone.Options{})
	if err != nil {
		return nil
	}
	return f
}

// printUncaught writes an uncaught error of the main program as Node does: the position and its source line with
// a caret, then the stack.
func (n *nodeState) printUncaught(rec core.ErrorRecord) {
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
	case rec.Kind == core.ErrorUnhandledRejection:
		b.WriteString("Uncaught (in promise) " + rec.Message)
	default:
		b.WriteString("Uncaught " + rec.Message)
	}
	b.WriteString("\n")
	_, _ = io.WriteString(out, b.String())
}

// finalCode is the exit code of a Node-style worker whose loop ended.
func (n *nodeState) finalCode() int {
	switch {
	case n.exitSet:
		return n.exitCode
	case n.w == nil, n.w.Err() != nil, n.w.Stopping(): // nil: ended before its Setup ran
		return 1
	case n.codeProp != nil && !goja.IsUndefined(n.codeProp) && !goja.IsNull(n.codeProp):
		return int(int32(n.codeProp.ToInteger()))
	}
	return 0
}

// End fixes the exit code as the loop ends, before the outbox closes (the parent reads it once the outbox is
// closed), and releases what the parent sent that was never read (core.Extension).
func (n *nodeState) End() {
	n.code, n.codeSet = n.finalCode(), true
	if n.link != nil {
		n.link.outOfMemory.Store(n.w != nil && errors.Is(n.w.Err(), core.ErrWorkerOutOfMemory)) // nil: ended before its Setup ran
		n.link.exitCode.Store(int32(n.code))
	}
	for _, f := range []*clone.Frame{n.envFrame, n.envDataFrame, n.dataFrame} {
		f.Release()
	}
	n.envFrame, n.envDataFrame, n.dataFrame = nil, nil, nil
}

// Idle runs as the loop runs dry (core.Extension): process 'beforeExit' (with the exit code so far) — whose
// listeners may schedule more work, and then the loop goes on (true) — else process 'exit', after which the loop
// ends whatever the listeners did, as in Node. A realm that never made its process has no listeners: only an
// unsettled top-level await is left to report.
func (n *nodeState) Idle() bool {
	w := n.w
	if w.Stopping() {
		return false
	}
	if n.process != nil {
		w.RunTask(func() error { n.emitProcess("beforeExit", n.finalCode()); return nil })
		if w.HasRefs() && !w.Stopping() {
			return true
		}
	}
	if !w.Stopping() {
		n.unsettledAwait()
		w.RunTask(func() error { n.emitProcess("exit", n.finalCode()); return nil })
	}
	return false
}

// unsettledAwait ends a realm whose module graph still waits on a top-level await that nothing can settle any
// more (the loop ran dry) as Node does: a warning on the main program's stderr and exit code 13.
func (n *nodeState) unsettledAwait() {
	if n.modRealm == nil || n.exitSet {
		return
	}
	p, ok := n.modRealm.Pending()
	if !ok {
		return
	}
	n.exitSet, n.exitCode = true, 13
	if n.main {
		out := n.stderr
		if out == nil {
			out = os.Stderr
		}
		fmt.Fprintf(out, "Warning: Detected unsettled top-level await at %s\n", modules.FileURL(p))
	}
}

// emitProcess emits event on the realm's process object (process.emit(event, code)); an exception a listener
// throws is reported like any uncaught one.
func (n *nodeState) emitProcess(event string, code int) {
	if n.process == nil || n.r == nil || (event == "exit" && n.exitSent) {
		return
	}
	rt := n.r.Runtime()
	if event == "exit" {
		n.exitSent = true
		n.codeProp = rt.ToValue(code) // process.exitCode in the listeners, which may change it
	}
	emit, ok := goja.AssertFunction(n.process.Get("emit"))
	if !ok {
		return
	}
	if _, err := emit(n.process, rt.ToValue(event), rt.ToValue(code)); err != nil {
		n.r.Report(err)
	}
}
