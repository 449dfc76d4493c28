package capi

// #include "capi.h"
import "C"

import (
	"unsafe"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// Console to the host (ZJSConsoleCallback). A context's console offers every line it prints to consoleWrite first
// (web.Config.ConsoleWrite, through core's HostRealmOptions and Options): with a callback set the line goes to the
// host instead of stdout/stderr, on the context's thread (the worker's, for a worker's context), as UTF-8 without
// its trailing newline, NUL-terminated for convenience, valid during the call.

// ZJSConsoleLevel values, by web's level names.
var consoleLevels = map[string]C.int{"log": 0, "info": 1, "warn": 2, "error": 3, "debug": 4}

// consoleWrite hands line to c's console callback, if any; it reports whether it did.
func (c *context) consoleWrite(level, line string) bool {
	cb := c.console
	if cb.fn == 0 || c.closed {
		return false
	}
	msg := make([]byte, len(line)+1) // NUL-terminated; Go memory without pointers may be passed for the call
	copy(msg, line)
	C.jsw_call_console(c.actor(), C.uintptr_t(cb.fn), C.jsw_handle(c.h), consoleLevels[level],
		(*C.char)(unsafe.Pointer(&msg[0])), C.size_t(len(line)), C.uintptr_t(cb.ud))
	return true
}

// withConsole gives cfg's worker the console hook of its context. The context is made on the worker's thread by
// the worker's first setup (workerctx.go), or by the hook itself at the first line; ZJSWorkerOptions'
// consoleCallback is set on it there, before the worker's first statement.
func (cfg *workerConfig) withConsole() {
	var c *context // the worker's thread only
	var w *core.Worker
	var rt *goja.Runtime
	initial := cfg.console
	get := func() *context {
		if c == nil && w != nil {
			c, _ = workerContext(w, rt)
			if c != nil && c.console.fn == 0 {
				c.console = initial
			}
		}
		return c
	}
	prev := cfg.opts.Setup
	cfg.opts.Setup = func(cw *core.Worker, crt *goja.Runtime) error {
		w, rt = cw, crt
		if initial.fn != 0 {
			get() // the callback is in place before the setup's own code and the script run
		}
		if prev != nil {
			return prev(cw, crt)
		}
		return nil
	}
	cfg.opts.ConsoleWrite = func(level, line string) bool {
		if initial.fn == 0 {
			if v, ok := workerContexts.Load(w); ok { // a setup may have set a callback on the context
				return v.(*context).consoleWrite(level, line)
			}
			return false
		}
		if c := get(); c != nil {
			return c.consoleWrite(level, line)
		}
		return false
	}
}

//export ZJSContextSetConsoleCallback
func ZJSContextSetConsoleCallback(ctx, callback, userData uintptr) {
	const fn = "ZJSContextSetConsoleCallback"
	defer fence(fn, ctx, nil)
	c, err := enter(fn, ctx)
	if err != nil {
		return
	}
	c.console = setupFn{callback, userData}
	if callback == 0 {
		c.console = setupFn{}
	}
}
