package capi

import (
	"fmt"
	"sync"
)

// A kind is the type of object a handle names.
type kind uint8

// Handle kinds.
const (
	kindContext kind = iota + 1
	kindValue
	kindString
	kindPropertyNames
	kindWorker
	kindScope
	kindWorkerSession  // ZJSWorkerInspectorSessionRef
	kindContextSession // ZJSInspectorSessionRef
	kindModuleRequest  // ZJSModuleRequestRef (module.go): valid during a loader callback only
	kindClass          // JSClassRef (class.go): belongs to no thread
	kindAccumulator    // JSPropertyNameAccumulatorRef (class_object.go): valid during a getPropertyNames callback
	kindFinalizing     // the JSObjectRef a finalize callback receives (class_object.go): valid during the call
)

// String names the kind as the public header does, for exception messages.
func (k kind) String() string {
	switch k {
	case kindContext:
		return "a context (JSContextRef)"
	case kindValue:
		return "a value (JSValueRef)"
	case kindString:
		return "a string (JSStringRef)"
	case kindPropertyNames:
		return "a property name array (JSPropertyNameArrayRef)"
	case kindWorker:
		return "a worker (JSWorkerRef)"
	case kindScope:
		return "a handle scope (ZJSHandleScopeRef)"
	case kindWorkerSession:
		return "a worker inspector session (ZJSWorkerInspectorSessionRef)"
	case kindContextSession:
		return "a context inspector session (ZJSInspectorSessionRef)"
	case kindModuleRequest:
		return "a module request (ZJSModuleRequestRef)"
	case kindClass:
		return "a class (JSClassRef)"
	case kindAccumulator:
		return "a property name accumulator (JSPropertyNameAccumulatorRef)"
	case kindFinalizing:
		return "an object being finalized (JSObjectRef)"
	}
	return "an unknown object"
}

// firstHandle is the value before the first handle given out. Starting high means that 0 (NULL) and small integers
// never name a live object, and the constant does not fit in a 32-bit uintptr: the library builds only where a
// pointer has 64 bits, which the public header's pointer-typed handles need.
const firstHandle uintptr = 42 << 32

// An entry is what a handle names: its kind, the OS thread that owns it and the Go object.
type entry struct {
	kind kind
	tid  int
	obj  any
}

// handleTable is the process-wide registry of handles. Values only grow, so a released handle is never reused: a
// stale handle is always detected, never mistaken for a newer object.
type handleTable struct {
	mu   sync.Mutex
	last uintptr // the last handle given out
	m    map[uintptr]entry
}

var handles = handleTable{last: firstHandle, m: make(map[uintptr]entry)}

// add registers obj and returns its new handle.
func (t *handleTable) add(k kind, tid int, obj any) uintptr {
	t.mu.Lock()
	t.last++
	h := t.last
	t.m[h] = entry{kind: k, tid: tid, obj: obj}
	t.mu.Unlock()
	return h
}

// get returns the entry of h.
func (t *handleTable) get(h uintptr) (entry, bool) {
	t.mu.Lock()
	e, ok := t.m[h]
	t.mu.Unlock()
	return e, ok
}

// remove forgets every handle in hs; unknown handles are ignored.
func (t *handleTable) remove(hs ...uintptr) {
	t.mu.Lock()
	for _, h := range hs {
		delete(t.m, h)
	}
	t.mu.Unlock()
}

// count returns the number of live handles of kind k (every kind for 0). Tests use it to check for leaks.
func (t *handleTable) count(k kind) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, e := range t.m {
		if k == 0 || e.kind == k {
			n++
		}
	}
	return n
}

// resolve returns the object named by handle h, which was passed as parameter param of function fn, checking that it
// is of kind want and owned by thread tid. The error says which check failed; its text becomes an exception message.
func resolve(fn, param string, h uintptr, want kind, tid int) (any, error) {
	if h == 0 {
		return nil, fmt.Errorf("%s: %s is NULL, not %s", fn, param, want)
	}
	e, ok := handles.get(h)
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: %s is not %s: no live handle has this value (it was released, or never created)",
			fn, param, want)
	case e.kind != want:
		return nil, fmt.Errorf("%s: %s is %s, not %s", fn, param, e.kind, want)
	case e.tid != tid:
		return nil, fmt.Errorf("%s: %s belongs to another thread (created on thread %d, used from thread %d)",
			fn, param, e.tid, tid)
	}
	return e.obj, nil
}
