package capi

// #include "capi.h"
import "C"

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
)

// Console to the host (ZJSConsoleCallback). A context's console offers every line it prints to its consoleSink
// first (web.Config.ConsoleWrite, through core's HostRealmOptions and Options): with a callback in effect the line
// goes to the host instead of stdout/stderr, on the context's thread (the worker's, for a worker's context), as
// UTF-8 without its trailing newline, NUL-terminated for convenience, valid during the call.
//
// Workers created from JavaScript (Worker, worker_threads, nested ones) inherit their creator's sink: a worker
// whose own context has no callback sends its lines to the callback in effect for its creator at the time of the
// line — its creator's own, or what the creator inherits — called with the worker's own context, on the worker's
// thread. The worker's context is made for it on its thread (at its setup when a callback is in effect then,
// otherwise at its first line).

// ZJSConsoleLevel values, by web's level names.
var consoleLevels = map[string]C.int{"log": 0, "info": 1, "warn": 2, "error": 3, "debug": 4}

// A consoleSink is where the console lines of a context go: its own callback, set on the context's thread, or the
// sink of the context whose JavaScript created the worker. Other threads read it (a child's lines), hence atomic.
type consoleSink struct {
	own    atomic.Pointer[setupFn]
	parent *consoleSink // nil: a context created by the host
}

// callback returns the callback in effect for s: its own, else its creator's, or nil.
func (s *consoleSink) callback() *setupFn {
	for ; s != nil; s = s.parent {
		if f := s.own.Load(); f != nil {
			return f
		}
	}
	return nil
}

// set makes fn s's own callback (fn.fn == 0: none, so that the creator's applies again).
func (s *consoleSink) set(fn setupFn) {
	if fn.fn == 0 {
		s.own.Store(nil)
		return
	}
	s.own.Store(&fn)
}

// workerSinks maps a worker whose console a sink serves to it (*core.Worker -> *consoleSink), from its setup to its
// end, so that the worker's context, whenever it is made, uses the same sink.
var workerSinks sync.Map

// sinkOf returns the sink of worker w, or a new one if it has none.
func sinkOf(w *core.Worker) *consoleSink {
	if s, ok := workerSinks.Load(w); ok {
		return s.(*consoleSink)
	}
	return &consoleSink{}
}

// consoleWrite hands line to c's console callback, if one is in effect; it reports whether it did.
func (c *context) consoleWrite(level, line string) bool {
	if c.closed || c.sink == nil {
		return false
	}
	cb := c.sink.callback()
	if cb == nil {
		return false
	}
	msg := make([]byte, len(line)+1) // NUL-terminated; Go memory without pointers may be passed for the call
	copy(msg, line)
	C.jsw_call_console(c.actor(), C.uintptr_t(cb.fn), C.jsw_handle(c.h), consoleLevels[level],
		(*C.char)(unsafe.Pointer(&msg[0])), C.size_t(len(line)), C.uintptr_t(cb.ud))
	return true
}

// childHook is the core.Options.ChildHook of a context or worker whose console sink is parent: the workers its
// JavaScript creates get sinks of their own that inherit parent's callback.
func childHook(parent *consoleSink) func(o *core.Options) {
	return func(o *core.Options) { withSink(o, &consoleSink{parent: parent}) }
}

// withSink gives the worker of options o the console of sink: its lines go to the callback in effect for sink,
// with the worker's context; the workers its JavaScript creates inherit sink.
func withSink(o *core.Options, sink *consoleSink) {
	var w *core.Worker // the worker's thread only, from its setup on
	var rt *goja.Runtime
	prev := o.Setup
	o.Setup = func(cw *core.Worker, crt *goja.Runtime) error {
		w, rt = cw, crt
		workerSinks.Store(cw, sink)
		cw.AtEnd(func() { workerSinks.Delete(cw) })
		if sink.callback() != nil {
			_, _ = workerContext(cw, crt) // the context is ready before the setup's own code and the script run
		}
		if prev != nil {
			return prev(cw, crt)
		}
		return nil
	}
	o.ConsoleWrite = func(level, line string) bool {
		if w == nil || sink.callback() == nil {
			return false
		}
		c, err := workerContext(w, rt)
		return err == nil && c.consoleWrite(level, line)
	}
	o.ChildHook = childHook(sink)
}

// withConsole gives cfg's worker the console callback of its options (ZJSWorkerOptions.consoleCallback), if any; a
// setup may change it on the worker's context.
func (cfg *workerConfig) withConsole() {
	sink := &consoleSink{}
	sink.set(cfg.console)
	withSink(&cfg.opts, sink)
}

//export ZJSContextSetConsoleCallback
func ZJSContextSetConsoleCallback(ctx, callback, userData uintptr) {
	const fn = "ZJSContextSetConsoleCallback"
	defer fence(fn, ctx, nil)
	c, err := enter(fn, ctx)
	if err != nil || c.sink == nil {
		return
	}
	c.sink.set(setupFn{callback, userData})
}
