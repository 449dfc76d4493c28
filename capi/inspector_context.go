package capi

// #include "capi.h"
import "C"

import (
	"slices"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/inspector"
)

// Main-context sessions (ZJSInspectorSession*): a synchronous transport over the sessions of the context's
// core.HostRealm. Everything happens on the context's owner thread, inside the library call that caused it: a
// command dispatched there runs inside ZJSInspectorSessionDispatch (HostRealmOptions.IsOwner), and every message
// a session queues is handed to its callback before the call that queued it returns. The target, the Debugger,
// the pause and the endpoint listing are the HostRealm's.
//
// The Debugger domain (JSGlobalContextSetInspectable): scripts evaluated while the context is inspectable are
// compiled instrumented (HostRealm.RunScript), and a pause happens inside the library call that runs the
// JavaScript, on the owner thread. The realm then serves its sessions until one of them resumes: the messages of
// the pause reach the session callbacks on the owner thread (HostRealmOptions.OnInspectorIdle is flushSessions), and
// a callback may dispatch Debugger.resume (or a step) right there. While paused, ZJSInspectorSessionDispatch is also
// accepted from any other thread (dispatchToPaused): the command is queued, and the paused owner thread runs it and
// delivers the answer through the callback.

// A contextSession is what a ZJSInspectorSessionRef names.
type contextSession struct {
	h          uintptr
	c          *context
	s          *inspector.Session
	fn, ud     uintptr // the ZJSInspectorMessageCallback and its userData
	released   bool    // ZJSInspectorSessionRelease ran: the callback is never called again
	delivering bool    // flush is running: the callback is not re-entered for this session
}

// onOwnerThread is the realm's HostRealmOptions.IsOwner: a command dispatched on the owner thread runs at once.
func (c *context) onOwnerThread() bool { return gettid() == c.tid }

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

// flushInspector runs the commands other threads sent meanwhile and delivers what c's sessions have queued:
// called after the calls that run JavaScript, where a pending Runtime.evaluate with awaitPromise may have been
// answered.
func (c *context) flushInspector() {
	if c.host == nil { // a worker's context: the worker serves its own inspector
		return
	}
	c.host.ServeInspector()
	c.flushSessions()
}

// flushSessions delivers what c's sessions have queued. It is also the realm's HostRealmOptions.OnInspectorIdle:
// a pause delivers its messages (a callback may resume at once).
func (c *context) flushSessions() {
	if len(c.sessions) == 0 {
		return
	}
	for _, cs := range slices.Clone(c.sessions) {
		cs.flush()
	}
}

// inspectConsole is the realm's HostRealmOptions.OnConsole: the realm has sent the call to every session (those
// with Runtime enabled queued Runtime.consoleAPICalled); it is delivered before the console call returns.
func (c *context) inspectConsole(string, []goja.Value) { c.flushSessions() }

// endInspectorSessions delivers the sessions' last messages (Runtime.executionContextDestroyed if enabled,
// Inspector.detached) as the context is destroyed, after the realm was closed (closeEventLoop). The session
// handles stay valid until released; dispatching to them fails.
func (c *context) endInspectorSessions() {
	c.closed = true
	sessions := c.sessions
	c.sessions = nil
	for _, cs := range sessions {
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
	if err != nil || callback == 0 || c.host == nil || !c.host.Inspectable() || c.closed {
		return 0
	}
	s, err := c.host.InspectorSession() // queues Runtime.executionContextsCleared
	if err != nil {
		return 0
	}
	cs := &contextSession{c: c, s: s, fn: callback, ud: userData}
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
	cs := e.obj.(*contextSession) // immutable fields only: s and c.host are safe from any thread
	msg, ok := messageBytes(message, length)
	if !ok || !cs.c.host.Paused() {
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
	cs.c.host.DetachInspectorSession(cs.s) // on the owner thread: the session's objects are dropped before it returns
}
