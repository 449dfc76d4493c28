package capi

// #include "capi.h"
import "C"

import (
	"unsafe"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
)

// Inspector sessions over the C ABI (docs/inspector.md, "The C API"). The backend is package inspector; this file
// is the transport of worker sessions (ZJSWorkerInspectorSession*: asynchronous, pumped by the host) and the
// delivery shared with main-context sessions (inspector_context.go: synchronous).

// A workerSession is what a ZJSWorkerInspectorSessionRef names. It keeps the core worker, not the worker's handle,
// so that it outlives JSWorkerRelease: the session then pumps its last messages and reports Closed.
type workerSession struct {
	h      uintptr
	w      *core.Worker
	s      *inspector.Session
	fn, ud uintptr // the ZJSInspectorMessageCallback and its userData
}

// Pump results (ZJSWorkerInspectorPumpResult).
const (
	pumpMessage int32 = 0 // one message was delivered to the callback
	pumpTimeout int32 = 1 // nothing came within the timeout
	pumpClosed  int32 = 2 // the session ended and every message was delivered
	pumpError   int32 = 3 // the call was refused: not a live session of the calling thread, or an internal error
)

// testHookDeliver, when a test sets it, receives the messages meant for a callback instead of the C function (the
// Go tests cannot make C function pointers). It is set before any session exists and never changed.
var testHookDeliver func(fn, userData uintptr, msg []byte)

// deliver calls the message callback fn with msg on the calling thread. The callback receives a NUL-terminated C
// copy, freed when it returns (capi.h, jsw_call_inspector). It may call the library, this session included.
func deliver(fn, userData uintptr, msg []byte) {
	if testHookDeliver != nil {
		testHookDeliver(fn, userData, msg)
		return
	}
	n := len(msg)
	msg = append(msg, 0)
	C.jsw_call_inspector(C.uintptr_t(fn), (*C.char)(unsafe.Pointer(unsafe.SliceData(msg))), C.size_t(n),
		C.uintptr_t(userData))
}

// messageBytes views the command a host passed (valid for the call only: inspector.Session.Dispatch copies it).
// A NULL or empty message is refused: no CDP command is empty, and refusing it queues nothing (as zig-js's C API).
func messageBytes(message *byte, length uintptr) ([]byte, bool) {
	if message == nil || length == 0 {
		return nil, false
	}
	return unsafe.Slice(message, length), true
}

// getWorkerSession resolves a ZJSWorkerInspectorSessionRef parameter for the calling thread.
func getWorkerSession(fn string, h uintptr) (*workerSession, error) {
	o, err := resolve(fn, "session", h, kindWorkerSession, gettid())
	if err != nil {
		return nil, err
	}
	return o.(*workerSession), nil
}

//export ZJSWorkerInspectorSessionCreate
func ZJSWorkerInspectorSessionCreate(worker, callback, userData uintptr) (result uintptr) {
	const fn = "ZJSWorkerInspectorSessionCreate"
	defer fence(fn, 0, nil)
	if callback == 0 {
		return 0
	}
	tid := gettid()
	wr, err := getWorker(fn, worker, tid)
	if err != nil {
		return 0
	}
	s, err := wr.w.InspectorSession() // queues Runtime.executionContextsCleared: the first pump has a message
	if err != nil {
		return 0 // the worker is terminating or has ended
	}
	ws := &workerSession{w: wr.w, s: s, fn: callback, ud: userData}
	ws.h = handles.add(kindWorkerSession, tid, ws)
	return ws.h
}

//export ZJSWorkerInspectorSessionDispatch
func ZJSWorkerInspectorSessionDispatch(session uintptr, message *byte, length uintptr) (result bool) {
	const fn = "ZJSWorkerInspectorSessionDispatch"
	defer fence(fn, 0, nil)
	ws, err := getWorkerSession(fn, session)
	if err != nil {
		return false
	}
	msg, ok := messageBytes(message, length)
	if !ok {
		return false
	}
	return ws.s.Dispatch(msg) == nil // inspector.ErrClosed: the session's worker ended
}

//export ZJSWorkerInspectorSessionPump
func ZJSWorkerInspectorSessionPump(session uintptr, timeoutMs uint64) (result int32) {
	const fn = "ZJSWorkerInspectorSessionPump"
	result = pumpError // what a recovered panic returns
	defer fence(fn, 0, nil)
	ws, err := getWorkerSession(fn, session)
	if err != nil {
		return pumpError
	}
	msg, r := ws.s.Next(timeout(timeoutMs))
	switch r {
	case inspector.PumpMessage:
		// The callback may dispatch, pump (a nested pump delivers the next message) or release this session;
		// nothing here touches the session after it returns.
		deliver(ws.fn, ws.ud, msg)
		return pumpMessage
	case inspector.PumpTimeout:
		return pumpTimeout
	}
	return pumpClosed
}

//export ZJSWorkerInspectorSessionRelease
func ZJSWorkerInspectorSessionRelease(session uintptr) {
	const fn = "ZJSWorkerInspectorSessionRelease"
	defer fence(fn, 0, nil)
	if session == 0 {
		return
	}
	ws, err := getWorkerSession(fn, session)
	if err != nil {
		return
	}
	handles.remove(ws.h) // from here on the handle is stale: no callback of this session runs again
	ws.w.DetachInspectorSession(ws.s)
	// The worker drops the session's objects on its own thread between macrotasks. A worker that ended after
	// accepting that task (terminated in between) never runs it: its thread is gone, so drop them here.
	select {
	case <-ws.s.Dropped():
	case <-ws.w.Done():
		ws.s.TargetClosed()
	}
}
