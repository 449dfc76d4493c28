package node

import (
	"os"
	"syscall"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// The parts of process that pools and test harnesses lean on besides process.go's: the 'uncaughtException' and
// 'unhandledRejection' events (a listener keeps the realm alive, as in Node), cpuUsage, resourceUsage and chdir.

// handleUncaught offers an uncaught exception or unhandled rejection to process's listeners, as Node does:
// 'uncaughtExceptionMonitor' listeners see it first; an unhandled rejection goes to 'unhandledRejection' listeners,
// or else (Node's default --unhandled-rejections=throw) to 'uncaughtException' listeners with origin
// 'unhandledRejection'. It returns true when a listener took it; a listener that throws leaves the original error
// to the default handling. 'unhandledRejection' listeners get (reason, promise).
func (n *nodeState) handleUncaught(rec core.ErrorRecord) bool {
	if n.process == nil || n.r == nil || n.w.Stopping() {
		return false
	}
	rt := n.r.Runtime()
	count := func(event string) int64 {
		f, ok := goja.AssertFunction(n.process.Get("listenerCount"))
		if !ok {
			return 0
		}
		v, err := f(n.process, rt.ToValue(event))
		if err != nil {
			return 0
		}
		return v.ToInteger()
	}
	emit := func(args ...goja.Value) bool {
		f, ok := goja.AssertFunction(n.process.Get("emit"))
		if !ok {
			return false
		}
		_, err := f(n.process, args...)
		return err == nil
	}
	v := rec.Value()
	if v == nil {
		v = goja.Undefined()
	}
	origin := "uncaughtException"
	if rec.Kind == core.ErrorUnhandledRejection {
		origin = "unhandledRejection"
	}
	if count("uncaughtExceptionMonitor") > 0 {
		emit(rt.ToValue("uncaughtExceptionMonitor"), v, rt.ToValue(origin))
	}
	if rec.Kind == core.ErrorUnhandledRejection && count("unhandledRejection") > 0 {
		p := rec.Promise()
		if p == nil {
			p = goja.Undefined()
		}
		return emit(rt.ToValue("unhandledRejection"), v, p)
	}
	if count("uncaughtException") > 0 {
		return emit(rt.ToValue("uncaughtException"), v, rt.ToValue(origin))
	}
	return false
}

// processExtraNatives are the natives of process.js beyond processNatives.
func (n *nodeState) processExtraNatives(def func(string, int, func(goja.FunctionCall) goja.Value)) {
	r, rt := n.r, n.r.Runtime()
	usage := func() *syscall.Rusage {
		var u syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
			panic(r.NewError("Error", "", "process.cpuUsage: "+err.Error()))
		}
		return &u
	}
	micros := func(t syscall.Timeval) int64 { return int64(t.Sec)*1e6 + int64(t.Usec) }
	def("cpuUsage", 0, func(goja.FunctionCall) goja.Value {
		u := usage()
		return rt.NewArray(micros(u.Utime), micros(u.Stime))
	})
	def("resourceUsage", 0, func(goja.FunctionCall) goja.Value {
		u := usage()
		o := rt.NewObject()
		for _, kv := range []struct {
			k string
			v int64
		}{
			{"userCPUTime", micros(u.Utime)}, {"systemCPUTime", micros(u.Stime)}, {"maxRSS", int64(u.Maxrss)},
			{"sharedMemorySize", int64(u.Ixrss)}, {"unsharedDataSize", int64(u.Idrss)},
			{"unsharedStackSize", int64(u.Isrss)}, {"minorPageFault", int64(u.Minflt)},
			{"majorPageFault", int64(u.Majflt)}, {"swappedOut", int64(u.Nswap)}, {"fsRead", int64(u.Inblock)},
			{"fsWrite", int64(u.Oublock)}, {"ipcSent", int64(u.Msgsnd)}, {"ipcReceived", int64(u.Msgrcv)},
			{"signalsCount", int64(u.Nsignals)}, {"voluntaryContextSwitches", int64(u.Nvcsw)},
			{"involuntaryContextSwitches", int64(u.Nivcsw)},
		} {
			_ = o.Set(kv.k, kv.v)
		}
		return o
	})
	def("chdir", 1, func(c goja.FunctionCall) goja.Value {
		if !n.main {
			e := r.NewError("TypeError", "", "process.chdir() is not supported in workers")
			_ = e.Set("code", "ERR_WORKER_UNSUPPORTED_OPERATION")
			panic(e)
		}
		dir := c.Argument(0).String()
		if err := os.Chdir(dir); err != nil {
			from, _ := os.Getwd()
			e := n.fsErrorValue(wrap(err, "chdir", from, dir)).(*goja.Object)
			_ = e.Set("message", "ENOENT: no such file or directory, chdir "+from+" -> '"+dir+"'")
			if pe, ok := err.(*os.PathError); ok {
				if en, ok := pe.Err.(syscall.Errno); ok {
					if nm, ok := errnoNames[en]; ok {
						_ = e.Set("message", nm[0]+": "+nm[1]+", chdir "+from+" -> '"+dir+"'")
					}
				}
			}
			panic(e)
		}
		return goja.Undefined()
	})
}
