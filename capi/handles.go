package capi

import (
	"fmt"
	"sync"
	"sync/atomic"
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
	kindValueBlock     // a block of value handles (valueblocks.go): the table's entry for every JSValueRef in it
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
	case kindValueBlock:
		return "a value (JSValueRef)"
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

// shardBits is log2 of the number of shards of the handle table.
const shardBits = 6

// shardMask selects a handle's shard from its offset above firstHandle.
const shardMask = 1<<shardBits - 1

// A shard is one part of the handle table, with its own lock. Every handle lives in the shard its creating thread
// picks (tid & shardMask), so the threads of different hosts rarely share a lock, and a thread working alone takes
// only uncontended locks.
type shard struct {
	mu sync.Mutex
	m  map[uintptr]entry
	_  [48]byte // keeps neighbouring shards' locks off one cache line
}

// handleTable is the process-wide registry of handles, in shards without a global lock. A handle is
// firstHandle + seq<<shardBits + shard, seq taken from one atomic counter: values only grow, so a released handle is
// never reused and a stale handle is always detected, never mistaken for a newer object.
type handleTable struct {
	seq    atomic.Uint64 // the sequence number of the last handle given out
	shards [1 << shardBits]shard
}

var handles = newHandleTable()

// newHandleTable returns an empty table.
func newHandleTable() *handleTable {
	t := &handleTable{}
	for i := range t.shards {
		t.shards[i].m = make(map[uintptr]entry)
	}
	return t
}

// shardOf returns the shard of handle h, or nil for a value no handle can have.
func (t *handleTable) shardOf(h uintptr) *shard {
	if h <= firstHandle {
		return nil
	}
	return &t.shards[(h-firstHandle)&shardMask]
}

// add registers obj and returns its new handle.
func (t *handleTable) add(k kind, tid int, obj any) uintptr {
	i := uintptr(tid) & shardMask
	h := firstHandle + uintptr(t.seq.Add(1))<<shardBits + i
	s := &t.shards[i]
	s.mu.Lock()
	s.m[h] = entry{kind: k, tid: tid, obj: obj}
	s.mu.Unlock()
	return h
}

// put registers obj under handle h, which the caller reserved (a value block's key, valueblocks.go).
func (t *handleTable) put(h uintptr, e entry) {
	s := t.shardOf(h)
	s.mu.Lock()
	s.m[h] = e
	s.mu.Unlock()
}

// get returns the entry of h. For a value handle (valueblocks.go) it is its block's entry as kind kindValue, obj
// being the *valueBlock: only the block's owner may look the value up in it (valueBlock.at).
func (t *handleTable) get(h uintptr) (entry, bool) {
	s := t.shardOf(h)
	if s == nil {
		return entry{}, false
	}
	key, isValue := h, isValueHandle(h)
	if isValue {
		key, _ = blockKeyOf(h)
	}
	s.mu.Lock()
	e, ok := s.m[key]
	s.mu.Unlock()
	if isValue {
		if !ok || e.kind != kindValueBlock {
			return entry{}, false
		}
		e.kind = kindValue
	}
	return e, ok
}

// remove forgets every handle in hs; unknown handles are ignored. Consecutive handles of one shard (a scope's
// handles, all made by its thread) are removed under one lock.
func (t *handleTable) remove(hs ...uintptr) {
	var held *shard
	for _, h := range hs {
		s := t.shardOf(h)
		if s == nil {
			continue
		}
		if s != held {
			if held != nil {
				held.mu.Unlock()
			}
			s.mu.Lock()
			held = s
		}
		delete(s.m, h)
	}
	if held != nil {
		held.mu.Unlock()
	}
}

// count returns the number of live handles of kind k (every kind for 0). Tests use it to check for leaks. Values
// are counted one by one for the calling thread's contexts only: a block is its owner's to read (valueblocks.go).
func (t *handleTable) count(k kind) int {
	n, tid := 0, gettid()
	for i := range t.shards {
		s := &t.shards[i]
		s.mu.Lock()
		for _, e := range s.m {
			switch {
			case e.kind == kindValueBlock:
				if (k == 0 || k == kindValue) && e.tid == tid {
					n += e.obj.(*valueBlock).live
				}
			case k == 0 || e.kind == k:
				n++
			}
		}
		s.mu.Unlock()
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
	if b, isBlock := e.obj.(*valueBlock); isBlock && e.tid == tid { // the caller owns the block: read its slot
		if val := b.at(h); val != nil {
			e.obj = val
		} else {
			ok = false
		}
	}
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
