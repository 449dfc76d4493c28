package capi

// #include "capi.h"
import "C"

import (
	"slices"
	"strconv"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
)

// Main-context sessions (ZJSInspectorSession*): a synchronous transport. Everything happens on the context's owner
// thread, inside the library call that caused it: a command runs inside ZJSInspectorSessionDispatch, and every
// message a session queues is handed to its callback before the call that queued it returns.

// A contextSession is what a ZJSInspectorSessionRef names.
type contextSession struct {
	h          uintptr
	c          *context
	s          *inspector.Session
	fn, ud     uintptr // the ZJSInspectorMessageCallback and its userData
	released   bool    // ZJSInspectorSessionRelease ran: the callback is never called again
	delivering bool    // flush is running: the callback is not re-entered for this session
}

// contextTarget is the inspector's view of a main context: a synchronous target.
type contextTarget struct{ c *context }

// Run runs fn at once when called on the context's owner thread while the context lives, and reports false
// otherwise (inspector.Session then drops the session's objects itself, which touches no runtime).
// While the context is paused in the debugger, fn from another thread is queued for the paused owner thread.
func (t contextTarget) Run(fn func(rt *goja.Runtime)) bool {
	c := t.c
	if gettid() != c.tid {
		if !c.pauseQ.enqueue(fn) {
			return false
		}
		if !c.pauseQ.paused() && c.loop != nil { // wake a host waiting in ZJSContextRunPendingEvents
			c.loop.RunOnLoop(func(*goja.Runtime) { c.runLate() })
		}
		return true
	}
	if c.closed { // c.closed is only read on the owner thread
		return false
	}
	fn(c.rt)
	return true
}

// Context describes the context: its id comes from the worker id sequence, so no two execution contexts in the
// process share one.
func (t contextTarget) Context() inspector.ContextInfo {
	id := strconv.FormatUint(t.c.targetID, 10)
	return inspector.ContextInfo{
		ID:       int(t.c.targetID),
		Name:     "main context " + id,
		UniqueID: "jsworker-context-" + id,
	}
}

// flush hands every message queued for the session to its callback, in order, unless the session was released.
// The callback is never re-entered for one session: a flush started inside it (the callback dispatched a command)
// returns at once, and the outer flush delivers what that queued once the callback returns.
func (cs *contextSession) flush() {
	if cs.delivering {
		return
	}
	cs.delivering = true
	defer func() { cs.delivering = false }()
	for !cs.released {
		msg, r := cs.s.Next(0)
		if r != inspector.PumpMessage {
			return
		}
		deliver(cs.fn, cs.ud, msg)
	}
}

// flushInspector delivers what c's sessions have queued: called after the calls that run JavaScript, where a
// pending Runtime.evaluate with awaitPromise may have been answered.
func (c *context) flushInspector() {
	c.runLate()
	if len(c.sessions) == 0 {
		return
	}
	for _, cs := range slices.Clone(c.sessions) {
		cs.flush()
	}
}

// inspectConsole is the context's HostRealmOptions.OnConsole: it reports a console call to every session (those
// with Runtime enabled queue Runtime.consoleAPICalled) and delivers it before the console call returns.
func (c *context) inspectConsole(level string, args []goja.Value) {
	for _, s := range c.remoteSessions() {
		s.ConsoleAPICalled(c.rt, level, args)
	}
	if len(c.sessions) == 0 {
		return
	}
	for _, cs := range slices.Clone(c.sessions) {
		if !cs.released {
			cs.s.ConsoleAPICalled(c.rt, level, args)
			cs.flush()
		}
	}
}

// endInspectorSessions tells every session that the context is going away, and delivers their last messages
// (Runtime.executionContextDestroyed if enabled, Inspector.detached). The session handles stay valid until
// released; dispatching to them fails.
func (c *context) endInspectorSessions() {
	c.closed = true
	c.endRemoteSessions()
	sessions := c.sessions
	c.sessions = nil
	for _, cs := range sessions {
		cs.s.TargetClosed()
		cs.flush()
	}
}

// removeSession forgets cs.
func (c *context) removeSession(cs *contextSession) {
	if i := slices.Index(c.sessions, cs); i >= 0 {
		c.sessions = slices.Delete(c.sessions, i, i+1)
	}
}

// getContextSession resolves a ZJSInspectorSessionRef parameter for the calling thread.
func getContextSession(fn string, h uintptr) (*contextSession, error) {
	o, err := resolve(fn, "session", h, kindContextSession, gettid())
	if err != nil {
		return nil, err
	}
	return o.(*contextSession), nil
}

//export ZJSInspectorSessionCreate
func ZJSInspectorSessionCreate(ctx, callback, userData uintptr) (result uintptr) {
	const fn = "ZJSInspectorSessionCreate"
	defer fence(fn, 0, nil)
	c, err := enter(fn, ctx)
	if err != nil || callback == 0 || !c.inspectable || c.closed {
		return 0
	}
	if c.targetID == 0 {
		c.targetID = core.NextTargetID()
	}
	cs := &contextSession{c: c, fn: callback, ud: userData}
	cs.s = inspector.NewSession(contextTarget{c}) // queues Runtime.executionContextsCleared
	cs.h = handles.add(kindContextSession, c.tid, cs)
	c.sessions = append(c.sessions, cs)
	cs.flush() // the first message reaches the callback before Create returns
	return cs.h
}

//export ZJSInspectorSessionDispatch
func ZJSInspectorSessionDispatch(session uintptr, message *byte, length uintptr) (result bool) {
	const fn = "ZJSInspectorSessionDispatch"
	defer fence(fn, 0, nil)
	cs, err := getContextSession(fn, session)
	if err != nil {
		return dispatchToPaused(fn, session, message, length)
	}
	msg, ok := messageBytes(message, length)
	if !ok {
		return false
	}
	if cs.s.Dispatch(msg) != nil { // the command ran (or was refused) inside: its response is queued
		return false // inspector.ErrClosed: the context was released
	}
	cs.flush()
	return true
}

// dispatchToPaused is ZJSInspectorSessionDispatch from a thread that does not own the session: accepted only while
// the session's context is paused in the debugger, when the paused owner thread runs the command and delivers its
// answer through the callback.
func dispatchToPaused(fn string, session uintptr, message *byte, length uintptr) bool {
	e, ok := handles.get(session)
	if session == 0 || !ok || e.kind != kindContextSession {
		return false
	}
	cs := e.obj.(*contextSession) // immutable fields only: s and c.pauseQ are safe from any thread
	msg, ok := messageBytes(message, length)
	if !ok || !cs.c.pauseQ.paused() {
		return false
	}
	return cs.s.Dispatch(msg) == nil
}

//export ZJSInspectorSessionRelease
func ZJSInspectorSessionRelease(session uintptr) {
	const fn = "ZJSInspectorSessionRelease"
	defer fence(fn, 0, nil)
	if session == 0 {
		return
	}
	cs, err := getContextSession(fn, session)
	if err != nil {
		return
	}
	handles.remove(cs.h)
	cs.released = true
	cs.c.removeSession(cs)
	cs.s.Close() // a synchronous target drops the session's objects before Close returns
}
