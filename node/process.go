package node

import (
	_ "embed"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/jsutil"
	"github.com/jsworker/jsworker/internal/procmem"
)

//go:embed lib/process.js
var processJS string

// processSource makes a realm's process object.
var processSource = jsutil.NewSource("node:internal/process", processJS)

// installProcessGlobal defines globalThis.process as Node does: an accessor (not enumerable, configurable) whose
// setter replaces what the getter returns. The process object is made on the first read (proc), so a worker that
// never touches it does not pay for it; the accessor's two functions are made on the first touch of the property
// (a lazy property of the global object, processGlobal), where that is available.
func (n *nodeState) installProcessGlobal(rt *goja.Runtime) error {
	if gojainternal.DefineLazy(rt.GlobalObject(), processGlobal, "process") {
		return nil
	}
	get, set := n.processAccessor(rt)
	return rt.GlobalObject().DefineAccessorProperty("process", get, set, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// processGlobal makes globalThis.process's accessor on first touch.
var processGlobal = gojainternal.NewLazyFactory(func(rt *goja.Runtime, name string) gojainternal.Prop {
	n, _ := stateKey.Get(rt)
	if n == nil { // the realm's state was dropped (the realm ended): nothing to make
		return gojainternal.Prop{Value: goja.Undefined(), Writable: true, Configurable: true}
	}
	get, set := n.processAccessor(rt)
	return gojainternal.Prop{Accessor: true, Getter: get, Setter: set, Configurable: true}
})

// processAccessor returns the getter and setter of globalThis.process.
func (n *nodeState) processAccessor(rt *goja.Runtime) (get, set goja.Value) {
	get = rt.ToValue(func(goja.FunctionCall) goja.Value {
		if n.procReplaced != nil {
			return n.procReplaced
		}
		return n.proc()
	})
	set = rt.ToValue(func(c goja.FunctionCall) goja.Value {
		n.procReplaced = c.Argument(0)
		return goja.Undefined()
	})
	return get, set
}

// NodeVersion is what process.version says in the main program and in
// worker_threads workers: the Node release whose worker_threads API jsworker
// follows, marked as jsworker's so that nobody mistakes it for Node.
// process.versions.jsworker holds jsworker's own version.
const NodeVersion = "v20.0.0-jsworker"

var processStart = time.Now()

// execPath returns process.execPath: the running executable.
var execPath = sync.OnceValue(func() string {
	p, err := os.Executable()
	if err != nil {
		return "jsworker"
	}
	return p
})

// proc returns the realm's process object, making it on the first call (the process global, require('process'), a
// child's environment). Call it only while JavaScript runs on the realm's thread: a failure is thrown. Go code that
// only reports to process's listeners checks n.process instead: a process never made has none.
func (n *nodeState) proc() *goja.Object {
	if n.process == nil {
		p, err := n.makeProcess()
		if err != nil {
			var ex *goja.Exception
			if errors.As(err, &ex) {
				panic(ex)
			}
			panic(n.r.Runtime().NewGoError(err))
		}
		n.process = p
	}
	return n.process
}

// makeProcess builds the realm's process object.
func (n *nodeState) makeProcess() (*goja.Object, error) {
	rt := n.r.Runtime()
	info := rt.NewObject()
	info.Set("version", NodeVersion)
	versions := rt.NewObject()
	versions.Set("node", strings.TrimSuffix(strings.TrimPrefix(NodeVersion, "v"), "-jsworker"))
	versions.Set("jsworker", core.Version)
	versions.Set("go", runtime.Version())
	info.Set("versions", versions)
	info.Set("platform", runtime.GOOS)
	arch := runtime.GOARCH
	switch arch {
	case "amd64":
		arch = "x64"
	case "386":
		arch = "ia32"
	}
	info.Set("arch", arch)
	info.Set("pid", os.Getpid())
	info.Set("ppid", os.Getppid())
	info.Set("execPath", execPath())
	argv := make([]any, len(n.argv))
	for i, a := range n.argv {
		argv[i] = a
	}
	info.Set("argv", rt.NewArray(argv...))
	var env goja.Value
	switch {
	case n.envStore != nil && n.envCopy: // a copy of a SHARE_ENV parent's environment: a plain object again
		o := rt.NewObject()
		for _, k := range n.envStore.list() {
			if v, ok := n.envStore.get(k); ok {
				o.Set(k, v)
			}
		}
		env, n.envStore, n.envCopy = o, nil, false
	case n.envStore != nil: // SHARE_ENV: the parent's environment (env.go)
		env = n.envObject()
	case n.envFrame != nil: // options.env, or a copy of the parent's process.env
		f := n.envFrame
		n.envFrame = nil
		v, err := clone.Deserialize(rt, f)
		if err != nil {
			return nil, err
		}
		env = v
	default:
		o := rt.NewObject()
		for _, kv := range n.env {
			if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
				o.Set(k, v)
			}
		}
		env = o
	}
	info.Set("env", env)
	natives := rt.NewObject()
	def := func(name string, length int, fn func(goja.FunctionCall) goja.Value) {
		jsutil.DefineFunc(rt, natives, name, length, fn)
	}
	n.processNatives(def)
	n.processExtraNatives(def)     // process_events.go
	nextTick, err := n.tickQueue() // ticks.go
	if err != nil {
		return nil, err
	}
	natives.Set("nextTick", nextTick)
	mk, err := processSource.Call(rt, n.r.API().Get("EventEmitter"), natives)
	if err != nil {
		return nil, err
	}
	f, ok := goja.AssertFunction(mk)
	if !ok {
		return nil, errors.New("jsworker: process.js does not make a function")
	}
	p, err := f(goja.Undefined(), info)
	if err != nil {
		return nil, err
	}
	return p.(*goja.Object), nil
}

// processNatives are process.js's natives (its N).
func (n *nodeState) processNatives(def func(string, int, func(goja.FunctionCall) goja.Value)) {
	r, rt := n.r, n.r.Runtime()
	def("exit", 1, func(c goja.FunctionCall) goja.Value {
		code := 0
		if a := c.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
			code = int(int32(a.ToInteger()))
		} else if n.codeProp != nil && !goja.IsUndefined(n.codeProp) && !goja.IsNull(n.codeProp) {
			code = int(int32(n.codeProp.ToInteger()))
		}
		if !n.exitSet {
			n.exitSet, n.exitCode = true, code
			n.emitProcess("exit", n.exitCode) // its listeners run now, as in Node; a second exit() does not re-emit
		}
		n.w.Terminate() // the script stops at its next instruction
		return goja.Undefined()
	})
	def("getExitCode", 0, func(goja.FunctionCall) goja.Value {
		if n.codeProp != nil {
			return n.codeProp
		}
		return goja.Undefined()
	})
	def("setExitCode", 1, func(c goja.FunctionCall) goja.Value {
		v := c.Argument(0)
		if !goja.IsUndefined(v) && !goja.IsNull(v) {
			f := v.ToFloat()
			if f != float64(int64(f)) {
				panic(r.NewError("RangeError", "", "The value of \"code\" is out of range. It must be an integer. Received "+v.String()))
			}
			v = rt.ToValue(int64(f))
		}
		n.codeProp = v
		return goja.Undefined()
	})
	def("memoryUsage", 0, func(goja.FunctionCall) goja.Value {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		o := rt.NewObject()
		o.Set("rss", procmem.Resident())
		o.Set("heapTotal", int64(ms.HeapSys))
		o.Set("heapUsed", int64(ms.HeapAlloc))
		o.Set("external", 0)
		o.Set("arrayBuffers", 0)
		return o
	})
	def("rss", 0, func(goja.FunctionCall) goja.Value { return rt.ToValue(procmem.Resident()) })
	def("hrtime", 0, func(goja.FunctionCall) goja.Value {
		return rt.ToValue(float64(time.Since(processStart).Nanoseconds()))
	})
	def("cwd", 0, func(goja.FunctionCall) goja.Value {
		d, err := os.Getwd()
		if err != nil {
			panic(r.NewError("Error", "", "process.cwd: "+err.Error()))
		}
		return rt.ToValue(d)
	})
	def("uptime", 0, func(goja.FunctionCall) goja.Value {
		return rt.ToValue(time.Since(processStart).Seconds())
	})
	def("write", 2, func(c goja.FunctionCall) goja.Value {
		var out io.Writer = os.Stdout
		if c.Argument(0).ToInteger() == 2 {
			out = os.Stderr
		}
		if o := n.w.Options(); c.Argument(0).ToInteger() == 2 && o.Stderr != nil {
			out = o.Stderr
		} else if c.Argument(0).ToInteger() == 1 && o.Stdout != nil {
			out = o.Stdout
		}
		io.WriteString(out, c.Argument(1).String())
		return goja.Undefined()
	})
}
