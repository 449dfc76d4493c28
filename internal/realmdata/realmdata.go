// Package realmdata keeps Go state per goja realm (per *goja.Runtime) in a
// side table, so that no trace of it is visible to JavaScript.
//
// goja has no user-data slot on a Runtime. Hanging state on the global
// object, even under a private symbol as a non-enumerable property, shows
// it to Object.getOwnPropertySymbols(globalThis) and Reflect.ownKeys; a
// table keyed by the runtime does not.
//
// # Lifetime
//
// The table holds runtimes weakly: a key never keeps a runtime alive by
// itself, and the entry of a runtime that was garbage-collected is deleted
// by a cleanup (runtime.AddCleanup). But the table holds values strongly,
// and a value that references the runtime, directly or through any goja
// value (every *goja.Object does), keeps the runtime reachable from the
// table, so it is never collected. That is the usual case (sharedmem's and
// clone's records hold the realm's intrinsics), so the realm's owner must
// call Drop(rt) when the realm ends: core does for workers and host realms;
// a Go program that installs sharedmem or uses clone on a bare goja.New()
// runtime calls sharedmem.Uninstall and clone.ReleaseRealm (or lets both go
// by calling nothing and keeping the runtime for the whole process). Len
// counts the runtimes with state, for leak checks.
//
// # Concurrency
//
// Get takes no lock: a lock-free sync.Map lookup by the runtime's address,
// a check that the entry is still that runtime's (the address of a
// collected runtime can be reused before its cleanup ran), and an atomic
// load of the entry's values. Set, Delete and Drop of one runtime are
// serialized by a mutex of that runtime's entry. Every function is safe for
// concurrent use; state of one runtime is normally used from the goroutine
// that owns it.
package realmdata

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"

	"github.com/dop251/goja"
)

// A Key names one kind of per-realm state whose values have type T. Make
// keys once, at package level, with NewKey.
type Key[T any] struct {
	id   int
	name string
}

var nextID atomic.Int64

// NewKey returns a new key; name is for diagnostics only.
func NewKey[T any](name string) *Key[T] {
	return &Key[T]{id: int(nextID.Add(1) - 1), name: name}
}

// String returns the key's name.
func (k *Key[T]) String() string { return k.name }

// entry is the state of one runtime. vals holds one slot per key; a slot's
// value is set and read atomically, so that a Set changes one slot in place
// and copies nothing (a realm's setup sets about ten keys: copying every
// slot at each was a third of a kilobyte a Set). vals itself is replaced,
// copied, only when a key made after the entry needs a slot it lacks.
type entry struct {
	addr uintptr
	rt   weak.Pointer[goja.Runtime]
	mu   sync.Mutex // serializes writers; guards dropped
	vals atomic.Pointer[[]slot]
	gone bool // dropped: writers make a new entry
}

// slot is one key's value; nil when the key has none.
type slot struct{ v atomic.Pointer[any] }

// table maps a runtime's address to its entry.
var table sync.Map // uintptr -> *entry

func addrOf(rt *goja.Runtime) uintptr { return uintptr(unsafe.Pointer(rt)) }

// lookup returns rt's entry, or nil.
func lookup(rt *goja.Runtime) *entry {
	v, ok := table.Load(addrOf(rt))
	if !ok {
		return nil
	}
	e := v.(*entry)
	if e.rt.Value() != rt {
		return nil // a collected runtime's, at a reused address
	}
	return e
}

// Get returns the value of k for rt, and whether one was set.
func (k *Key[T]) Get(rt *goja.Runtime) (T, bool) {
	var zero T
	if rt == nil {
		return zero, false
	}
	e := lookup(rt)
	if e == nil {
		return zero, false
	}
	vals := e.vals.Load()
	if vals == nil || k.id >= len(*vals) {
		return zero, false
	}
	p := (*vals)[k.id].v.Load()
	if p == nil {
		return zero, false
	}
	v, _ := (*p).(T) // a nil interface value stays the zero T
	return v, true
}

// Set sets the value of k for rt. Setting nothing for a nil rt.
func (k *Key[T]) Set(rt *goja.Runtime, v T) {
	if rt == nil {
		return
	}
	var a any = v
	k.update(rt, &a)
}

// Delete forgets the value of k for rt (the other keys' values stay). When
// rt has no value left, its entry goes, as with Drop.
func (k *Key[T]) Delete(rt *goja.Runtime) {
	if rt == nil {
		return
	}
	e := lookup(rt)
	if e == nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	vals := e.vals.Load()
	if e.gone || vals == nil || k.id >= len(*vals) {
		return
	}
	(*vals)[k.id].v.Store(nil)
	for i := range *vals {
		if (*vals)[i].v.Load() != nil {
			return
		}
	}
	e.gone = true
	e.vals.Store(nil)
	table.CompareAndDelete(e.addr, e)
}

// update stores v (nil: none) in k's slot of rt's entry, making the entry
// if needed; the entry's slots are made for every key there is, copied only
// for a key made after them.
func (k *Key[T]) update(rt *goja.Runtime, v *any) {
	for {
		e := entryFor(rt)
		e.mu.Lock()
		if e.gone {
			e.mu.Unlock()
			continue // dropped meanwhile: make a new one
		}
		vals := e.vals.Load()
		if vals == nil || k.id >= len(*vals) {
			n := max(int(nextID.Load()), k.id+1)
			grown := make([]slot, n)
			if vals != nil {
				for i := range *vals {
					grown[i].v.Store((*vals)[i].v.Load())
				}
			}
			vals = &grown
			grown[k.id].v.Store(v)
			e.vals.Store(vals)
		} else {
			(*vals)[k.id].v.Store(v)
		}
		e.mu.Unlock()
		return
	}
}

// entryFor returns rt's entry, making it if needed.
func entryFor(rt *goja.Runtime) *entry {
	a := addrOf(rt)
	for {
		if e := lookup(rt); e != nil {
			return e
		}
		ne := &entry{addr: a, rt: weak.Make(rt)}
		old, loaded := table.LoadOrStore(a, ne)
		if loaded {
			oe := old.(*entry)
			if oe.rt.Value() == rt {
				return oe
			}
			// A collected runtime's entry at a reused address: replace it.
			if !table.CompareAndSwap(a, oe, ne) {
				continue
			}
		}
		runtime.AddCleanup(rt, forget, ne)
		return ne
	}
}

// forget deletes the entry of a collected runtime.
func forget(e *entry) { table.CompareAndDelete(e.addr, e) }

// Drop forgets every value of rt. The realm's owner calls it when the realm
// ends; afterwards Get answers false for rt until a new Set. Dropping a
// runtime without state does nothing.
func Drop(rt *goja.Runtime) {
	if rt == nil {
		return
	}
	e := lookup(rt)
	if e == nil {
		return
	}
	e.mu.Lock()
	e.gone = true
	e.vals.Store(nil)
	e.mu.Unlock()
	table.CompareAndDelete(e.addr, e)
}

// Len returns the number of runtimes with state in the table (including,
// until their cleanup runs, collected ones), for leak checks.
func Len() int {
	n := 0
	table.Range(func(_, _ any) bool { n++; return true })
	return n
}
