package sharedmem

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"time"
	"unsafe"
	"weak"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// RealmOptions say how a realm's Atomics behave.
type RealmOptions struct {
	// CanBlock allows Atomics.wait. When false, Atomics.wait throws a
	// TypeError (after validating its arguments, as the spec orders). Worker
	// realms set it; a host's main realm may choose either (Node allows it,
	// browsers do not).
	CanBlock bool

	// Interrupt is closed when the realm's worker is terminated, after the
	// runtime was interrupted with goja's Runtime.Interrupt (as core does).
	// It wakes an Atomics.wait at once, and later waits return at once: the
	// wait returns "timed-out" and goja raises its uncatchable
	// InterruptedError at the next instruction. It also drops the realm's
	// pending Atomics.waitAsync waiters (their promises never settle) with
	// their timers and block references. A host realm that is discarded
	// while waitAsync promises may be pending should close it too. Nil:
	// never.
	Interrupt <-chan struct{}

	// Abort, if not nil, is asked at each Atomics.wait for a channel that
	// closes when that wait must end because the script running it is being
	// stopped (a host realm's TerminateExecution, which interrupts the
	// runtime first): the wait returns "timed-out" and goja raises its
	// InterruptedError at the next instruction. Unlike Interrupt it is not
	// final: the next script's waits block again. A nil channel never
	// closes.
	Abort func() <-chan struct{}

	// Schedule runs fn later on the realm's own goroutine (core passes
	// Worker.RunOnLoop) and returns false if the realm is gone, in which
	// case fn will never run. It must not run fn synchronously and must not
	// block. Atomics.waitAsync settles its promises through it; without it,
	// a waitAsync that would have to wait throws a TypeError.
	Schedule func(fn func(rt *goja.Runtime)) bool

	// MaxAllocation, if positive, is the largest length new SharedArrayBuffer(length) accepts: a larger one
	// throws RangeError "Array buffer allocation failed", checked before anything else (core's allocation guard,
	// core.MaxAllocationBytes). Lengths are limited to MaxByteLength in any case.
	MaxAllocation int64
}

// realm is the per-runtime state. It is reached from Go through realmKey,
// in internal/realmdata's side table, invisible to JavaScript. It
// references the runtime, so the table keeps both alive until the realm's
// owner drops them (Uninstall, or realmdata.Drop as core does).
type realm struct {
	rt   *goja.Runtime
	opts RealmOptions

	proto    *goja.Object  // %SharedArrayBuffer.prototype%
	ctor     *goja.Object  // %SharedArrayBuffer%
	rangeErr *goja.Object  // %RangeError%, from Install or when first needed (rangeError)
	bigint   goja.Callable // %BigInt%, for ToBigInt of strings and booleans

	strOK, strNotEqual, strTimedOut goja.Value

	ints     []int64 // the slab intValue hands out from
	intsUsed int

	// Wrappers of growable blocks in this realm, to show growth made
	// elsewhere; checked when growEpoch moved since seenEpoch.
	growables []growRef
	seenEpoch uint64

	// Blocking waits: at most one at a time per realm (the realm's goroutine
	// is blocked in it), so the waiter and its timer are reused.
	syncWaiter *waiter
	timer      *time.Timer

	asyncMu      sync.Mutex
	asyncPending map[*waiter]struct{}
	asyncIdle    chan struct{} // closed when asyncPending empties: ends the interrupt watcher
	asyncDead    bool          // Interrupt closed or Schedule failed: no new async waiters
}

var arrayBufferType = reflect.TypeFor[goja.ArrayBuffer]()

type growRef struct {
	w weak.Pointer[goja.Object]
	b *Block
}

// realmKey finds a runtime's realm.
var realmKey = realmdata.NewKey[*realm]("sharedmem")

// ErrNotInstalled is returned by Wrap for a runtime Install was not called
// on; ErrInstalled by a second Install on the same runtime.
var (
	ErrNotInstalled = errors.New("sharedmem: SharedArrayBuffer is not installed in this runtime")
	ErrInstalled    = errors.New("sharedmem: already installed in this runtime")
)

func realmOf(rt *goja.Runtime) *realm {
	r, _ := realmKey.Get(rt)
	return r
}

// Install defines the globals SharedArrayBuffer and Atomics in rt. Call it
// once per realm, on rt's goroutine, before the realm runs user code (it
// captures the intrinsics RangeError and BigInt from the global object). It
// fails if goja's internals are not what this package reads (see
// internal/gojainternal) or if rt already has them.
//
// The realm's Go state is kept outside the runtime (nothing of it is
// visible to scripts) and keeps the runtime alive until the realm's owner
// releases it: core does for its workers and host realms; a program that
// calls Install on its own goja.New() runtime calls Uninstall when done
// with it.
func Install(rt *goja.Runtime, opts RealmOptions) error {
	if err := gojainternal.TypedArrays(); err != nil {
		return err
	}
	if realmOf(rt) != nil {
		return ErrInstalled
	}
	r := &realm{
		rt:           rt,
		opts:         opts,
		strOK:        rt.ToValue("ok"),
		strNotEqual:  rt.ToValue("not-equal"),
		strTimedOut:  rt.ToValue("timed-out"),
		seenEpoch:    growEpoch.Load(),
		syncWaiter:   &waiter{ch: make(chan struct{}, 1)},
		asyncPending: map[*waiter]struct{}{},
	}
	var ok bool
	g := rt.GlobalObject()
	if !gojainternal.TemplateHas(g, "RangeError") { // else goja's own, looked up when first needed (rangeError)
		if r.rangeErr, ok = g.Get("RangeError").(*goja.Object); !ok {
			return errors.New("sharedmem: the realm has no RangeError constructor")
		}
	}
	if r.bigint, ok = goja.AssertFunction(g.Get("BigInt")); !ok {
		return errors.New("sharedmem: the realm has no BigInt function")
	}
	if err := r.installSharedArrayBuffer(); err != nil {
		return err
	}
	r.installAtomics()
	realmKey.Set(rt, r)
	return nil
}

// Uninstall releases the Go state Install made for rt: pending
// Atomics.waitAsync waiters are dropped (their promises never settle), and
// Wrap and BlockOf's growth refresh no longer find the realm (Wrap answers
// ErrNotInstalled), so the runtime can be garbage-collected once the caller
// lets go of it. The globals stay; scripts still running keep working, but
// the realm must not be given new shared memory. Call it on rt's goroutine
// when the realm ends, unless the realm's owner calls realmdata.Drop (core
// does). Uninstalling a runtime without shared memory does nothing.
func Uninstall(rt *goja.Runtime) {
	r := realmOf(rt)
	if r == nil {
		return
	}
	gojainternal.Settle(rt, rt.GlobalObject(), "SharedArrayBuffer", "Atomics") // the globals stay (lazyGlobals)
	r.purge()
	realmKey.Delete(rt)
}

// defineFunc defines obj[name] as a builtin method: writable, configurable,
// not enumerable, with the given name and length.
func (r *realm) defineFunc(obj *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) {
	obj.DefineDataProperty(name, r.newFunc(name, length, fn), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

func (r *realm) newFunc(name string, length int, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := r.rt.ToValue(fn).(*goja.Object)
	// DefineDataProperty's flags are (writable, configurable, enumerable).
	f.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	f.DefineDataProperty("length", r.rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return f
}

// Wrap returns a new SharedArrayBuffer of rt over b, with the realm's
// %SharedArrayBuffer.prototype%. The wrapper takes its own reference to b,
// released when the wrapper is garbage-collected; the caller keeps (and
// eventually releases) its own, so b must be live. Each call makes a new
// object (structured clone gives no identity across messages). Call it on
// rt's goroutine, after Install.
func Wrap(rt *goja.Runtime, b *Block) (*goja.Object, error) {
	r := realmOf(rt)
	if r == nil {
		return nil, ErrNotInstalled
	}
	proto := r.sabProto()
	b.Retain()
	return r.wrap(b, proto), nil
}

// wrap makes a wrapper over b that owns one reference to b (the caller's).
func (r *realm) wrap(b *Block, proto *goja.Object) *goja.Object {
	r.refresh()
	n := b.ByteLength()
	o := r.rt.ToValue(r.rt.NewArrayBuffer(b.mem[:n:cap(b.mem)])).(*goja.Object)
	o.SetPrototype(proto)
	runtime.AddCleanup(o, (*Block).Release, b)
	if b.grows {
		if len(r.growables) == cap(r.growables) {
			r.prune() // amortized: the list stays proportional to the live wrappers
		}
		r.growables = append(r.growables, growRef{weak.Make(o), b})
	}
	return o
}

// prune drops the growables whose wrapper was collected.
func (r *realm) prune() {
	live := r.growables[:0]
	for _, g := range r.growables {
		if g.w.Value() != nil {
			live = append(live, g)
		}
	}
	clear(r.growables[len(live):])
	r.growables = live
}

// BlockOf returns the block of o if o is a genuine SharedArrayBuffer (made by
// this package's constructor or Wrap), and false for anything else —
// notably for an ArrayBuffer whose prototype was swapped to look like one.
// It does not take a reference: the block lives at least as long as o. Call
// it on rt's goroutine.
func BlockOf(rt *goja.Runtime, o *goja.Object) (*Block, bool) {
	if o == nil {
		return nil, false
	}
	b := blockOf(o)
	if b == nil {
		return nil, false
	}
	if r := realmOf(rt); r != nil {
		r.refresh()
	}
	return b, true
}

// blockOf identifies a wrapper by its data pointer: only Wrap creates an
// ArrayBuffer over a block's memory, and a block stays registered while any
// wrapper exists.
func blockOf(o *goja.Object) *Block {
	if o.ExportType() != arrayBufferType {
		return nil // before Export, which deep-copies ordinary objects
	}
	ab, ok := o.Export().(goja.ArrayBuffer)
	if !ok || ab.Detached() {
		return nil
	}
	data := ab.Bytes()
	if cap(data) == 0 {
		return nil
	}
	return lookupBase(uintptr(unsafe.Pointer(unsafe.SliceData(data))))
}

// refresh makes this realm's wrappers of growable blocks show their current
// byte length, if any block grew since the last look. goja's ArrayBuffer has
// no notion of growth, so the length lives in the wrapper's byte slice;
// it is rewritten here, on the realm's goroutine. Views keep their length
// (goja has no length-tracking views); views made afterwards see the growth.
func (r *realm) refresh() {
	e := growEpoch.Load()
	if e == r.seenEpoch {
		return
	}
	r.seenEpoch = e
	r.prune()
	for _, g := range r.growables {
		o := g.w.Value()
		if o == nil {
			continue
		}
		ab := o.Export().(goja.ArrayBuffer)
		if ab.Detached() {
			continue
		}
		if n := g.b.ByteLength(); len(ab.Bytes()) != n {
			_ = gojainternal.SetArrayBufferBytes(ab, g.b.mem[:n:cap(g.b.mem)]) // cannot fail: Install checked TypedArrays
		}
	}
}

// Errors thrown into JavaScript.

func (r *realm) typeError(format string, args ...any) *goja.Object {
	return r.rt.NewTypeError(fmt.Sprintf(format, args...))
}

func (r *realm) rangeError(format string, args ...any) *goja.Object {
	if r.rangeErr == nil {
		v, _ := gojainternal.TemplateValue(r.rt, r.rt.GlobalObject(), "RangeError") // Install checked TemplateHas
		r.rangeErr, _ = v.(*goja.Object)
	}
	o, err := r.rt.New(r.rangeErr, r.rt.ToValue(fmt.Sprintf(format, args...)))
	if err != nil {
		panic(err)
	}
	return o
}
