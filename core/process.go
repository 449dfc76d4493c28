package core

import (
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// NodeVersion is what process.version says in the main program and in
// worker_threads workers: the Node release whose worker_threads API jsworker
// follows, marked as jsworker's so that nobody mistakes it for Node.
// process.versions.jsworker holds jsworker's own version.
const NodeVersion = "v20.0.0-jsworker"

// Version is jsworker's version (the library's, see include/jsworker.h).
const Version = "0.2.0"

var processStart = time.Now()

// execPath returns process.execPath: the running executable.
var execPath = sync.OnceValue(func() string {
	p, err := os.Executable()
	if err != nil {
		return "jsworker"
	}
	return p
})

// makeProcess builds the realm's process object.
func (n *nodeState) makeProcess(r *jsRealm, call func(string, ...goja.Value) (goja.Value, error)) (*goja.Object, error) {
	rt := r.rt
	info := rt.NewObject()
	info.Set("version", NodeVersion)
	versions := rt.NewObject()
	versions.Set("node", strings.TrimSuffix(strings.TrimPrefix(NodeVersion, "v"), "-jsworker"))
	versions.Set("jsworker", Version)
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
	if n.envFrame != nil {
		f := n.envFrame
		n.envFrame = nil
		v, err := clone.Deserialize(rt, f)
		if err != nil {
			return nil, err
		}
		env = v
	} else {
		o := rt.NewObject()
		for _, kv := range n.env {
			if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
				o.Set(k, v)
			}
		}
		env = o
	}
	info.Set("env", env)
	p, err := call("makeProcess", info)
	if err != nil {
		return nil, err
	}
	return p.(*goja.Object), nil
}

// processNatives are the prelude's process natives; they act on the realm's
// worker when it is Node-style and do nothing elsewhere.
func (r *jsRealm) processNatives(def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := r.rt
	node := func() *nodeState {
		if r.w == nil {
			return nil
		}
		return r.w.node
	}
	def("exit", 1, func(c goja.FunctionCall) goja.Value {
		n := node()
		if n == nil {
			return goja.Undefined()
		}
		code := 0
		if a := c.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
			code = int(int32(a.ToInteger()))
		} else if n.codeProp != nil && !goja.IsUndefined(n.codeProp) && !goja.IsNull(n.codeProp) {
			code = int(int32(n.codeProp.ToInteger()))
		}
		if !n.exitSet {
			n.exitSet, n.exitCode = true, code
			n.emitProcess(r, "exit", n.exitCode) // its listeners run now, as in Node; a second exit() does not re-emit
		}
		r.w.Terminate() // the script stops at its next instruction
		return goja.Undefined()
	})
	def("getExitCode", 0, func(goja.FunctionCall) goja.Value {
		if n := node(); n != nil && n.codeProp != nil {
			return n.codeProp
		}
		return goja.Undefined()
	})
	def("setExitCode", 1, func(c goja.FunctionCall) goja.Value {
		n := node()
		if n == nil {
			return goja.Undefined()
		}
		v := c.Argument(0)
		if !goja.IsUndefined(v) && !goja.IsNull(v) {
			f := v.ToFloat()
			if f != float64(int64(f)) {
				panic(r.newError("RangeError", "", "The value of \"code\" is out of range. It must be an integer. Received "+v.String()))
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
		o.Set("rss", residentBytes())
		o.Set("heapTotal", int64(ms.HeapSys))
		o.Set("heapUsed", int64(ms.HeapAlloc))
		o.Set("external", 0)
		o.Set("arrayBuffers", 0)
		return o
	})
	def("rss", 0, func(goja.FunctionCall) goja.Value { return rt.ToValue(residentBytes()) })
	def("hrtime", 0, func(goja.FunctionCall) goja.Value {
		return rt.ToValue(float64(time.Since(processStart).Nanoseconds()))
	})
	def("cwd", 0, func(goja.FunctionCall) goja.Value {
		d, err := os.Getwd()
		if err != nil {
			panic(r.newError("Error", "", "process.cwd: "+err.Error()))
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
		if r.w != nil {
			if c.Argument(0).ToInteger() == 2 && r.w.opts.Stderr != nil {
				out = r.w.opts.Stderr
			} else if c.Argument(0).ToInteger() == 1 && r.w.opts.Stdout != nil {
				out = r.w.opts.Stdout
			}
		}
		io.WriteString(out, c.Argument(1).String())
		return goja.Undefined()
	})
}

// residentBytes returns the process's resident set size in bytes, read
// from /proc/self/statm (0 where that does not exist).
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * int64(os.Getpagesize())
}

// emitProcess emits event on the realm's process object (process.emit(event, code)); an exception a listener
// throws is reported like any uncaught one.
func (n *nodeState) emitProcess(r *jsRealm, event string, code int) {
	if n.process == nil || r == nil || (event == "exit" && n.exitSent) {
		return
	}
	if event == "exit" {
		n.exitSent = true
		n.codeProp = r.rt.ToValue(code) // process.exitCode in the listeners, which may change it
	}
	emit, ok := goja.AssertFunction(n.process.Get("emit"))
	if !ok {
		return
	}
	if _, err := emit(n.process, r.rt.ToValue(event), r.rt.ToValue(code)); err != nil {
		r.report(err)
	}
}

// drained runs as a Node-style loop runs dry: process 'beforeExit' (with the exit code so far) — whose listeners
// may schedule more work, and then the loop goes on (it reports true) — else process 'exit', after which the loop
// ends whatever the listeners did, as in Node.
func (n *nodeState) drained(w *Worker) bool {
	r := w.js
	if n.process == nil || r == nil || w.isTerminating() {
		return false
	}
	w.macrotask(func() error { n.emitProcess(r, "beforeExit", n.finalCode(w)); return nil })
	if w.nodeAlive() && !w.isTerminating() {
		return true
	}
	if !w.isTerminating() {
		w.macrotask(func() error { n.emitProcess(r, "exit", n.finalCode(w)); return nil })
	}
	return false
}
