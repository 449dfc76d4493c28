package node

import (
	_ "embed"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed lib/stacktrace.js
var stacktraceJS string

// stacktraceSource is internal/stacktrace: V8's Error.captureStackTrace and Error.prepareStackTrace with CallSite
// objects (getFileName, getLineNumber, getColumnNumber, getFunctionName, isNative, toString …), emulated over
// goja's call stack for the libraries that read their caller's file that way (callsites, threads).
var stacktraceSource = jsutil.NewSource("node:internal/stacktrace", stacktraceJS)

// What is emulated, and how far. Error.captureStackTrace(obj, fn) is V8's. Error.prepareStackTrace is an accessor on
// Error: while it holds a function, the global Error is a stand-in (internal/stacktrace's wrap) whose errors get
// their stack from it, as V8 does; when it is set back, the original returns. So `new Error().stack` in code that
// sets it first (the callsites package) gets CallSites; errors goja makes itself (a TypeError it throws) and
// errors of an Error reference taken before keep goja's string stack. Nothing runs until a program uses either.

// stackState is the nodeState's part for the stack trace API.
type stackState struct {
	prepare goja.Value   // Error.prepareStackTrace; nil when never set
	wrapper *goja.Object // the stand-in Error, made on first use
	get     goja.Value   // the prepareStackTrace accessor's getter and setter
	set     goja.Value
}

// stacktraceNatives are internal/stacktrace's natives.
func stacktraceNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	// frames(skip) returns the call stack below its own frame and skip more (the innermost first), each
	// [fileName, line, column, functionName, native].
	def("frames", 1, func(c goja.FunctionCall) goja.Value {
		stack := rt.CaptureCallStack(0, nil)
		skip := 1 + int(c.Argument(0).ToInteger()) // frames itself, then the library frames its caller names
		var out []any
		for i := skip; i < len(stack); i++ {
			f := &stack[i]
			p := f.Position()
			name := f.FuncName()
			native := f.SrcName() == "<native>"
			if name == "<anonymous>" || name == "<native>" {
				name = ""
			}
			out = append(out, rt.NewArray(p.Filename, p.Line, p.Column, name, native))
		}
		return rt.NewArray(out...)
	})
	def("prepare", 0, func(goja.FunctionCall) goja.Value {
		if n.stack.prepare == nil {
			return goja.Undefined()
		}
		return n.stack.prepare
	})
}

// installStackTraceAPI defines Error.captureStackTrace and the Error.prepareStackTrace accessor; the module behind
// them loads on first use.
func (n *nodeState) installStackTraceAPI(rt *goja.Runtime) {
	orig := n.errorCtor
	if orig == nil {
		return
	}
	jsutil.DefineFunc(rt, orig, "captureStackTrace", 2, func(c goja.FunctionCall) goja.Value {
		fn, _ := goja.AssertFunction(n.mustBuiltin("internal/stacktrace").Get("captureStackTrace"))
		if _, err := fn(goja.Undefined(), c.Arguments...); err != nil {
			panic(err)
		}
		return goja.Undefined()
	})
	n.stack.get = rt.ToValue(func(goja.FunctionCall) goja.Value {
		if n.stack.prepare == nil {
			return goja.Undefined()
		}
		return n.stack.prepare
	})
	n.stack.set = rt.ToValue(func(c goja.FunctionCall) goja.Value {
		n.setPrepare(rt, c.Argument(0))
		return goja.Undefined()
	})
	_ = orig.DefineAccessorProperty("prepareStackTrace", n.stack.get, n.stack.set, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// setPrepare stores Error.prepareStackTrace and puts the stand-in Error in the global while it is a function.
func (n *nodeState) setPrepare(rt *goja.Runtime, v goja.Value) {
	n.stack.prepare = v
	g := rt.GlobalObject()
	cur, _ := g.Get("Error").(*goja.Object)
	if _, callable := goja.AssertFunction(v); callable {
		if cur != n.errorCtor {
			return
		}
		if n.stack.wrapper == nil {
			wrap, _ := goja.AssertFunction(n.mustBuiltin("internal/stacktrace").Get("wrap"))
			w, err := wrap(goja.Undefined(), n.errorCtor, n.stack.get, n.stack.set)
			if err != nil {
				panic(err)
			}
			n.stack.wrapper = w.(*goja.Object)
		}
		_ = g.DefineDataProperty("Error", n.stack.wrapper, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		n.swapConstructor(n.errorCtor, n.stack.wrapper)
		return
	}
	if cur != nil && cur == n.stack.wrapper {
		_ = g.DefineDataProperty("Error", n.errorCtor, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
		n.swapConstructor(n.stack.wrapper, n.errorCtor)
	}
}

// swapConstructor makes Error.prototype.constructor to, if it is from (so that e.constructor === Error holds for
// the Error in the global; a program's own value is left alone).
func (n *nodeState) swapConstructor(from, to *goja.Object) {
	proto, ok := n.errorCtor.Get("prototype").(*goja.Object)
	if ok && proto.Get("constructor") == from {
		_ = proto.Set("constructor", to)
	}
}
