package sharedmem

import (
	"math"
	"time"
	"unsafe"

	"github.com/dop251/goja"
)

// Atomics.wait, waitAsync and notify.
//
// Each block keeps a FIFO waiter list per byte index, guarded by the block's
// mutex (the spec's WaiterList critical section): a waiter reads the value
// and enqueues itself under the mutex, and notify dequeues under it, so a
// store followed by notify cannot slip between the read and the enqueue.
//
// A blocking waiter (one per realm at a time, reused) sleeps in a select on
// its signal channel, its timer and the realm's Interrupt channel. An async
// waiter is settled by whoever dequeues it — notify, its timer, or the
// purge when the realm goes away — and that party alone finishes it: it
// stops the timer, gives back the block reference the waiter held, and
// resolves the promise on the realm's goroutine through Schedule.

type waitList struct{ head, tail *waiter }

type waiter struct {
	prev, next *waiter
	list       *waitList // non-nil while queued; guarded by the block's mutex
	key        int       // byte index in the block

	ch chan struct{} // blocking waiter: signalled under the block's mutex when dequeued by notify

	// async waiter
	async   bool
	realm   *realm
	block   *Block
	resolve func(any) error
	timer   *time.Timer // set under the block's mutex before the waiter can be dequeued
}

// enqueue and dequeue run with b.wmu held.
func (b *Block) enqueue(w *waiter) {
	if b.waiters == nil {
		b.waiters = map[int]*waitList{}
	}
	l := b.waiters[w.key]
	if l == nil {
		l = &waitList{}
		b.waiters[w.key] = l
	}
	w.list, w.prev, w.next = l, l.tail, nil
	if l.tail != nil {
		l.tail.next = w
	} else {
		l.head = w
	}
	l.tail = w
}

func (b *Block) dequeue(w *waiter) {
	l := w.list
	if w.prev != nil {
		w.prev.next = w.next
	} else {
		l.head = w.next
	}
	if w.next != nil {
		w.next.prev = w.prev
	} else {
		l.tail = w.prev
	}
	w.list, w.prev, w.next = nil, nil, nil
	if l.head == nil {
		delete(b.waiters, w.key)
	}
}

// sharedBlock returns the block a view's buffer is a wrapper of, or nil for
// a non-shared (or detached) buffer.
func sharedBlock(vw view) *Block {
	if vw.buf.Detached() {
		return nil
	}
	data := vw.buf.Bytes()
	if cap(data) == 0 {
		return nil
	}
	return lookupBase(uintptr(unsafe.Pointer(unsafe.SliceData(data))))
}

// waitArgs validates and coerces the arguments of wait and waitAsync, in the
// spec's order (DoWait steps 1–7).
func (r *realm) waitArgs(call goja.FunctionCall, fn string) (b *Block, data []byte, bi, size int, expect uint64, d time.Duration, forever bool) {
	vw := r.validateView(call.Argument(0), true, fn)
	b = sharedBlock(vw)
	if b == nil {
		panic(r.typeError("Atomics.%s: the typed array is not over a SharedArrayBuffer", fn))
	}
	i := r.index(vw, call.Argument(1), fn)
	if vw.kind == kindBigInt64 {
		expect = rawFromBigInt(r.toBigInt(call.Argument(2)))
	} else {
		raw, _ := toRawNumber(call.Argument(2))
		expect = truncate(raw, 4)
	}
	q := call.Argument(3).ToFloat()
	switch {
	case q != q || math.IsInf(q, 1):
		forever = true
	case q > 0:
		if ns := q * float64(time.Millisecond); ns < float64(math.MaxInt64) {
			d = time.Duration(ns)
		} else {
			forever = true
		}
	}
	r.refresh()
	size = vw.kind.Size()
	return b, vw.buf.Bytes(), (vw.offset + i) * size, size, expect, d, forever
}

func (r *realm) interrupted() bool {
	if r.opts.Interrupt == nil {
		return false
	}
	select {
	case <-r.opts.Interrupt:
		return true
	default:
		return false
	}
}

// wait is Atomics.wait(typedArray, index, value, timeout).
func (r *realm) wait(call goja.FunctionCall) goja.Value {
	b, data, bi, size, expect, d, forever := r.waitArgs(call, "wait")
	if !r.opts.CanBlock {
		panic(r.typeError("Atomics.wait cannot be called in this context"))
	}
	if r.interrupted() {
		return r.strTimedOut // see the Interrupt case below
	}
	w := r.syncWaiter
	w.key = bi
	b.wmu.Lock()
	if memLoad(data, bi, size) != expect {
		b.wmu.Unlock()
		return r.strNotEqual
	}
	b.enqueue(w)
	b.wmu.Unlock()

	var abort <-chan struct{}
	if r.opts.Abort != nil {
		abort = r.opts.Abort()
	}
	var timeout <-chan time.Time
	if !forever {
		if r.timer == nil {
			r.timer = time.NewTimer(d)
		} else {
			r.timer.Reset(d)
		}
		timeout = r.timer.C
		defer r.timer.Stop()
	}
	select {
	case <-w.ch:
		return r.strOK
	case <-timeout:
		if r.leave(b, w) {
			return r.strTimedOut
		}
		return r.strOK
	case <-abort:
		// The script is being stopped (RealmOptions.Abort), as below.
		if r.leave(b, w) {
			return r.strTimedOut
		}
		return r.strOK
	case <-r.opts.Interrupt:
		// The worker is being terminated: its runtime was interrupted
		// (goja's Runtime.Interrupt) before the channel closed, so goja
		// raises its uncatchable InterruptedError at the next instruction.
		// Returning, rather than throwing, lets that happen; a "timed-out"
		// is the truth if anything still looks.
		if r.leave(b, w) {
			return r.strTimedOut
		}
		return r.strOK
	}
}

// leave takes a blocking waiter out of its list after a timeout or an
// interrupt. If notify dequeued it first, the signal is already in the
// channel (notify sends under the mutex): it is consumed, and leave reports
// false (the wait was woken).
func (r *realm) leave(b *Block, w *waiter) bool {
	b.wmu.Lock()
	queued := w.list != nil
	if queued {
		b.dequeue(w)
	}
	b.wmu.Unlock()
	if !queued {
		<-w.ch
	}
	return queued
}

// waitAsync is Atomics.waitAsync(typedArray, index, value, timeout).
func (r *realm) waitAsync(call goja.FunctionCall) goja.Value {
	b, data, bi, size, expect, d, forever := r.waitArgs(call, "waitAsync")
	b.wmu.Lock()
	if memLoad(data, bi, size) != expect {
		b.wmu.Unlock()
		return r.asyncResult(false, r.strNotEqual)
	}
	if !forever && d == 0 {
		b.wmu.Unlock()
		return r.asyncResult(false, r.strTimedOut)
	}
	b.wmu.Unlock()
	if r.opts.Schedule == nil {
		panic(r.typeError("Atomics.waitAsync: this realm has no event loop to settle the promise"))
	}
	promise, resolve, _ := r.rt.NewPromise()
	w := &waiter{key: bi, async: true, realm: r, block: b, resolve: resolve}
	if !r.addPending(w) {
		// The realm is going away: a promise that never settles.
		return r.asyncResult(true, r.rt.ToValue(promise))
	}
	b.Retain() // released by whoever finishes the waiter
	b.wmu.Lock()
	// The value may have changed while the lock was dropped (NewPromise and
	// addPending cannot run under it); read it again in the critical section.
	if memLoad(data, bi, size) != expect {
		b.wmu.Unlock()
		r.finish(w)
		return r.asyncResult(false, r.strNotEqual)
	}
	b.enqueue(w)
	if !forever {
		w.timer = time.AfterFunc(d, w.expire)
	}
	b.wmu.Unlock()
	return r.asyncResult(true, r.rt.ToValue(promise))
}

func (r *realm) asyncResult(async bool, v goja.Value) goja.Value {
	o := r.rt.NewObject()
	o.DefineDataProperty("async", r.rt.ToValue(async), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	o.DefineDataProperty("value", v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return o
}

// expire is an async waiter's timer (on the timer's goroutine).
func (w *waiter) expire() {
	b := w.block
	b.wmu.Lock()
	owned := w.list != nil
	if owned {
		b.dequeue(w)
	}
	b.wmu.Unlock()
	if owned {
		w.realm.settle(w, w.realm.strTimedOut)
	}
}

// addPending records an async waiter of the realm; it fails once the realm
// was interrupted. The first pending waiter starts a goroutine that purges
// them all if Interrupt closes; it ends when none is left.
func (r *realm) addPending(w *waiter) bool {
	r.asyncMu.Lock()
	defer r.asyncMu.Unlock()
	if r.asyncDead || r.interrupted() {
		return false
	}
	r.asyncPending[w] = struct{}{}
	if len(r.asyncPending) == 1 && r.opts.Interrupt != nil {
		idle := make(chan struct{})
		r.asyncIdle = idle
		go func() {
			select {
			case <-r.opts.Interrupt:
				r.purge()
			case <-idle:
			}
		}()
	}
	return true
}

// finish is done exactly once per async waiter, by the party that dequeued
// it (or that never enqueued it).
func (r *realm) finish(w *waiter) {
	r.asyncMu.Lock()
	delete(r.asyncPending, w)
	if len(r.asyncPending) == 0 && r.asyncIdle != nil {
		close(r.asyncIdle)
		r.asyncIdle = nil
	}
	r.asyncMu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
	}
	w.block.Release()
}

// settle finishes a dequeued async waiter and resolves its promise on the
// realm's goroutine. If the realm is gone (Schedule returns false), every
// other waiter of the realm is dropped too.
func (r *realm) settle(w *waiter, result goja.Value) {
	r.finish(w)
	r.asyncMu.Lock()
	dead := r.asyncDead
	r.asyncMu.Unlock()
	if dead {
		return
	}
	resolve := w.resolve
	if !r.opts.Schedule(func(*goja.Runtime) { _ = resolve(result) }) {
		r.purge()
	}
}

// purge drops every pending async waiter of the realm (its worker was
// terminated, or its loop is gone): their promises never settle.
func (r *realm) purge() {
	r.asyncMu.Lock()
	r.asyncDead = true
	ws := make([]*waiter, 0, len(r.asyncPending))
	for w := range r.asyncPending {
		ws = append(ws, w)
	}
	r.asyncMu.Unlock()
	for _, w := range ws {
		b := w.block
		b.wmu.Lock()
		owned := w.list != nil
		if owned {
			b.dequeue(w)
		}
		b.wmu.Unlock()
		if owned {
			r.finish(w)
		}
	}
}

// notify is Atomics.notify(typedArray, index, count).
func (r *realm) notify(call goja.FunctionCall) goja.Value {
	vw := r.validateView(call.Argument(0), true, "notify")
	i := r.index(vw, call.Argument(1), "notify")
	count := math.Inf(1)
	if c := call.Argument(2); !goja.IsUndefined(c) {
		count = max(toIntegerOrInfinity(c), 0)
	}
	b := sharedBlock(vw)
	if b == nil {
		return r.rt.ToValue(0)
	}
	r.refresh()
	return r.rt.ToValue(b.notify((vw.offset+i)*vw.kind.Size(), count))
}

// notify wakes up to count waiters on byte index key, oldest first, and
// returns how many it woke.
func (b *Block) notify(key int, count float64) int {
	var async []*waiter
	n := 0
	b.wmu.Lock()
	if l := b.waiters[key]; l != nil {
		for l.head != nil && float64(n) < count {
			w := l.head
			b.dequeue(w)
			n++
			if w.async {
				async = append(async, w)
			} else {
				w.ch <- struct{}{}
			}
		}
	}
	b.wmu.Unlock()
	for _, w := range async {
		w.realm.settle(w, w.realm.strOK)
	}
	return n
}
