package node

import (
	_ "embed"

	"github.com/dop251/goja"
	"syscall"
	"unsafe"

	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed lib/tty.js
var ttyJS string

// ttySource is the tty module.
var ttySource = jsutil.NewSource("node:tty", ttyJS)

// ttyNatives are tty.js's natives.
func ttyNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	// isatty reports whether descriptor fd is a terminal (for 1 and 2: only when the worker writes to the real
	// standard output and error).
	def("isatty", 1, func(c goja.FunctionCall) goja.Value {
		fd := int(c.Argument(0).ToInteger())
		if o := n.w.Options(); (fd == 1 && o.Stdout != nil) || (fd == 2 && o.Stderr != nil) {
			return rt.ToValue(false)
		}
		var t syscall.Termios
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
		return rt.ToValue(errno == 0)
	})
}
