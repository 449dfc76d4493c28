package sharedmem

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// waiters returns the number of waiters queued on byte index key.
func (b *Block) waiterCount(key int) int {
	b.wmu.Lock()
	defer b.wmu.Unlock()
	n := 0
	if l := b.waiters[key]; l != nil {
		for w := l.head; w != nil; w = w.next {
			n++
		}
	}
	return n
}

func newTestBlock(t testing.TB, n int) *Block {
	t.Helper()
	b, err := NewBlock(n, -1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Release)
	return b
}

func loops(t testing.TB, n int, opts RealmOptions) []*loop {
	ls := make([]*loop, n)
	for i := range ls {
		ls[i] = newLoop(t, opts)
	}
	return ls
}

// Four realms on four goroutines add to the same counters; the totals are
// exact. Int32 (word), Int8 and Int16 (sub-word: four realms hammer the same
// 32-bit word through the CAS loop) and BigInt64.
func TestAtomicsAddFourRealms(t *testing.T) {
	checkRegistry(t)
	n := 1_000_000
	if testing.Short() {
		n = 100_000
	}
	b := newTestBlock(t, 64)
	ls := loops(t, 4, RealmOptions{CanBlock: true})
	for _, l := range ls {
		l.share(t, "sab", b)
	}
	var chans []<-chan result
	for i, l := range ls {
		chans = append(chans, l.Go(fmt.Sprintf(`(function (n) {
			const i32 = new Int32Array(sab), i8 = new Int8Array(sab, 16, 4), i16 = new Int16Array(sab, 20, 2);
			const i64 = new BigInt64Array(sab, 24, 1);
			for (let i = 0; i < n; i++) Atomics.add(i32, 0, 1);
			for (let i = 0; i < n / 10; i++) { Atomics.add(i8, %d, 1); Atomics.sub(i16, %d, 1); Atomics.add(i64, 0, 3n); }
			return true;
		})(%d)`, i, i%2, n)))
	}
	for _, ch := range chans {
		if r := <-ch; r.err != nil {
			t.Fatal(r.err)
		}
	}
	v, err := ls[0].Eval(`const u = new Int32Array(sab), i8 = new Int8Array(sab, 16, 4), i16 = new Int16Array(sab, 20, 2);
		[Atomics.load(u, 0), i8[0], i8[1], i8[2], i8[3], i16[0], i16[1], String(new BigInt64Array(sab, 24, 1)[0])].join()`)
	if err != nil {
		t.Fatal(err)
	}
	per8 := int8(n / 10)        // n/10 adds, wrapped to 8 bits
	per16 := int16(-2 * n / 10) // two realms each subtract n/10 from each Int16
	want := fmt.Sprintf("%d,%d,%d,%d,%d,%d,%d,%d", 4*n, per8, per8, per8, per8, per16, per16, 4*3*(n/10))
	if v != want {
		t.Fatalf("totals = %v, want %v", v, want)
	}
}

// Two realms pass a token back and forth with wait/notify.
func TestWaitNotifyPingPong(t *testing.T) {
	checkRegistry(t)
	rounds := 10_000
	if testing.Short() {
		rounds = 1_000
	}
	b := newTestBlock(t, 8)
	ls := loops(t, 2, RealmOptions{CanBlock: true})
	for _, l := range ls {
		l.share(t, "sab", b)
	}
	// ia[0] is whose turn it is (0 or 1); each side waits for its turn.
	prog := `(function (me, n) {
		const ia = new Int32Array(sab);
		let woken = 0;
		for (let i = 0; i < n; i++) {
			while (Atomics.load(ia, 0) !== me) {
				if (Atomics.wait(ia, 0, 1 - me) === "ok") woken++;
			}
			Atomics.store(ia, 0, 1 - me);
			Atomics.notify(ia, 0);
			Atomics.add(ia, 1, 1);
		}
		return woken;
	})`
	c0 := ls[0].Go(prog + fmt.Sprintf("(0, %d)", rounds))
	c1 := ls[1].Go(prog + fmt.Sprintf("(1, %d)", rounds))
	r0, r1 := <-c0, <-c1
	if r0.err != nil || r1.err != nil {
		t.Fatal(r0.err, r1.err)
	}
	v, _ := ls[0].Eval(`Atomics.load(new Int32Array(sab), 1)`)
	if v != int64(2*rounds) {
		t.Fatalf("rounds counted = %v, want %d", v, 2*rounds)
	}
	t.Logf("woken by notify: %v and %v of %d waits each", r0.v, r1.v, rounds)
}

func TestWaitTimeouts(t *testing.T) {
	checkRegistry(t)
	rt := newRealm(t, RealmOptions{CanBlock: true})
	run(t, rt, `var i32a = new Int32Array(new SharedArrayBuffer(8)); var i64a = new BigInt64Array(new SharedArrayBuffer(8));`)
	for _, src := range []string{`Atomics.wait(i32a, 0, 0, 30)`, `Atomics.wait(i64a, 0, 0n, 30.5)`, `Atomics.wait(i32a, 1, 0, "30")`} {
		start := time.Now()
		v := run(t, rt, src)
		el := time.Since(start)
		if v.String() != "timed-out" || el < 30*time.Millisecond || el > 2*time.Second {
			t.Errorf("%s = %v after %v", src, v, el)
		}
	}
	// did-timeout.js / was-woken-before-timeout.js are in the multi-realm tests below
}

func TestWaitNotEqualAcrossRealms(t *testing.T) {
	checkRegistry(t)
	b := newTestBlock(t, 8)
	ls := loops(t, 2, RealmOptions{CanBlock: true})
	for _, l := range ls {
		l.share(t, "sab", b)
	}
	if _, err := ls[0].Eval(`Atomics.store(new Int32Array(sab), 0, 7)`); err != nil {
		t.Fatal(err)
	}
	v, err := ls[1].Eval(`Atomics.wait(new Int32Array(sab), 0, 6)`)
	if err != nil || v != "not-equal" {
		t.Fatalf("wait = %v, %v", v, err)
	}
}

// notify wakes waiters in the order they started waiting, and returns how
// many it woke; waiters on another index are not woken
// (notify-in-order.js, notify-one.js, notify-two.js, notify-all-on-loc.js,
// waiterlist-block-indexedposition-wake.js, waiterlist-order-of-operations-is-fifo.js).
func TestNotifyCountAndFIFO(t *testing.T) {
	checkRegistry(t)
	const n = 4
	b := newTestBlock(t, 16)
	main := newLoop(t, RealmOptions{CanBlock: true})
	main.share(t, "sab", b)
	ws := loops(t, n+1, RealmOptions{CanBlock: true})
	var done []<-chan result
	for i, l := range ws[:n] {
		l.share(t, "sab", b)
		done = append(done, l.Go(`Atomics.wait(new Int32Array(sab), 0, 0)`))
		waitFor(t, fmt.Sprintf("waiter %d to queue", i), 5*time.Second, func() bool { return b.waiterCount(0) == i+1 })
	}
	// a waiter on index 1 (byte 4) and one on the same index of a sub-view with another offset (byte 8)
	ws[n].share(t, "sab", b)
	other := ws[n].Go(`Atomics.wait(new Int32Array(sab, 4), 1, 0)`)
	waitFor(t, "the other waiter", 5*time.Second, func() bool { return b.waiterCount(8) == 1 })

	notify := func(count string) any {
		v, err := main.Eval(`Atomics.notify(new Int32Array(sab), 0` + count + `)`)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	expectWoken := func(idx ...int) {
		t.Helper()
		for _, i := range idx {
			select {
			case r := <-done[i]:
				if r.err != nil || r.v != "ok" {
					t.Fatalf("waiter %d: %v, %v", i, r.v, r.err)
				}
				done[i] = nil
			case <-time.After(5 * time.Second):
				t.Fatalf("waiter %d not woken", i)
			}
		}
		for i, ch := range done {
			if ch == nil {
				continue
			}
			select {
			case r := <-ch:
				t.Fatalf("waiter %d woke out of order: %v", i, r)
			default:
			}
		}
	}
	if v := notify(", 0"); v != int64(0) {
		t.Fatalf("notify(0) = %v", v)
	}
	if v := notify(", 1"); v != int64(1) {
		t.Fatalf("notify(1) = %v", v)
	}
	expectWoken(0)
	if v := notify(", 2"); v != int64(2) {
		t.Fatalf("notify(2) = %v", v)
	}
	expectWoken(1, 2)
	if v := notify(""); v != int64(1) {
		t.Fatalf("notify() = %v", v)
	}
	expectWoken(3)
	if v := notify(""); v != int64(0) {
		t.Fatalf("notify() with none waiting = %v", v)
	}
	select {
	case r := <-other:
		t.Fatalf("a waiter on another index woke: %v", r)
	default:
	}
	v, _ := main.Eval(`Atomics.notify(new Int32Array(sab), 2)`)
	if v != int64(1) {
		t.Fatalf("notify of byte 8 = %v", v)
	}
	if r := <-other; r.v != "ok" {
		t.Fatalf("other waiter: %v", r)
	}
}

// Closing Interrupt wakes a wait with no timeout at once; later waits throw
// at once too.
func TestInterruptWakesWait(t *testing.T) {
	checkRegistry(t)
	b := newTestBlock(t, 8)
	l := newLoop(t, RealmOptions{CanBlock: true})
	l.share(t, "sab", b)
	ch := l.Go(`Atomics.wait(new Int32Array(sab), 0, 0)`)
	waitFor(t, "the waiter", 5*time.Second, func() bool { return b.waiterCount(0) == 1 })
	start := time.Now()
	l.Interrupt()
	r := <-ch
	el := time.Since(start)
	if _, ok := r.err.(*goja.InterruptedError); !ok {
		t.Fatalf("wait ended with %v, %v; want an InterruptedError", r.v, r.err)
	}
	if el > 100*time.Millisecond {
		t.Errorf("wait took %v to wake after Interrupt", el)
	}
	if n := b.waiterCount(0); n != 0 {
		t.Errorf("%d waiters left queued", n)
	}
	t.Logf("interrupt → wait returned in %v", el)

	// goja clears the interrupt flag once the InterruptedError reached the
	// top; the closed channel keeps the realm from blocking again.
	v, err := l.Eval(`Atomics.wait(new Int32Array(sab), 0, 0)`)
	if err != nil || v != "timed-out" {
		t.Fatalf("wait after interrupt = %v, %v", v, err)
	}
}

// waitAsync: resolved by notify through Schedule, timed out by its timer,
// FIFO together with blocking waiters, and counted by notify
// (returns-result-object-value-is-promise-resolves-to-ok.js, -timed-out.js,
// returns-promise.js, good-views.js, no-spurious-wakeup-*.js).
func TestWaitAsync(t *testing.T) {
	checkRegistry(t)
	b := newTestBlock(t, 16)
	l := newLoop(t, RealmOptions{CanBlock: true})
	other := newLoop(t, RealmOptions{CanBlock: true})
	l.share(t, "sab", b)
	other.share(t, "sab", b)
	reports := make(chan string, 16)
	l.Do(func(rt *goja.Runtime) {
		rt.Set("report", func(call goja.FunctionCall) goja.Value {
			reports <- call.Argument(0).String()
			return goja.Undefined()
		})
	})
	expect := func(want string) {
		t.Helper()
		select {
		case got := <-reports:
			if got != want {
				t.Fatalf("report %q, want %q", got, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no report (want %q)", want)
		}
	}

	// Resolved by notify from another realm.
	if _, err := l.Eval(`
		var ia = new Int32Array(sab), i64 = new BigInt64Array(sab, 8, 1);
		var r = Atomics.waitAsync(ia, 0, 0);
		if (r.async !== true || !(r.value instanceof Promise) || Object.getPrototypeOf(r.value) !== Promise.prototype) throw new Error("shape");
		r.value.then(function (v) { report("a:" + v); });
		Atomics.waitAsync(i64, 0, 0n, Infinity).value.then(function (v) { report("b:" + v); });
	`); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "async waiters", 5*time.Second, func() bool { return b.waiterCount(0) == 1 && b.waiterCount(8) == 1 })
	if v, _ := other.Eval(`Atomics.notify(new Int32Array(sab), 0)`); v != int64(1) {
		t.Fatalf("notify = %v", v)
	}
	expect("a:ok")
	if v, _ := other.Eval(`Atomics.notify(new BigInt64Array(sab), 1, 5)`); v != int64(1) {
		t.Fatalf("notify = %v", v)
	}
	expect("b:ok")

	// Timeout.
	start := time.Now()
	if _, err := l.Eval(`Atomics.waitAsync(ia, 0, 0, 20).value.then(function (v) { report("t:" + v); })`); err != nil {
		t.Fatal(err)
	}
	expect("t:timed-out")
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Errorf("timed out after %v", el)
	}
	if n := b.waiterCount(0); n != 0 {
		t.Fatalf("%d waiters left", n)
	}

	// Notified from its own realm: resolved asynchronously, after the
	// current job.
	if _, err := l.Eval(`
		var log = [];
		Atomics.waitAsync(ia, 1, 0).value.then(function (v) { log.push("resolved:" + v); report(log.join()); });
		log.push("notify:" + Atomics.notify(ia, 1));
	`); err != nil {
		t.Fatal(err)
	}
	expect("notify:1,resolved:ok")

	// FIFO across an async waiter, a blocking waiter in another realm and a
	// second async waiter; notify(…, 1) three times.
	if _, err := l.Eval(`Atomics.waitAsync(ia, 2, 0).value.then(function (v) { report("first:" + v); })`); err != nil {
		t.Fatal(err)
	}
	second := other.Go(`Atomics.wait(new Int32Array(sab), 2, 0)`)
	waitFor(t, "the blocking waiter", 5*time.Second, func() bool { return b.waiterCount(8) == 2 })
	if _, err := l.Eval(`Atomics.waitAsync(ia, 2, 0).value.then(function (v) { report("third:" + v); })`); err != nil {
		t.Fatal(err)
	}
	main := newLoop(t, RealmOptions{})
	main.share(t, "sab", b)
	if v, _ := main.Eval(`Atomics.notify(new Int32Array(sab), 2, 1)`); v != int64(1) {
		t.Fatalf("notify = %v", v)
	}
	expect("first:ok")
	select {
	case r := <-second:
		t.Fatalf("blocking waiter woke early: %v", r)
	default:
	}
	if v, _ := main.Eval(`Atomics.notify(new Int32Array(sab), 2, 1)`); v != int64(1) {
		t.Fatalf("notify = %v", v)
	}
	if r := <-second; r.v != "ok" {
		t.Fatalf("blocking waiter: %v", r)
	}
	select {
	case got := <-reports:
		t.Fatalf("third waiter resolved early: %s", got)
	case <-time.After(20 * time.Millisecond):
	}
	if v, _ := main.Eval(`Atomics.notify(new Int32Array(sab), 2)`); v != int64(1) {
		t.Fatalf("notify = %v", v)
	}
	expect("third:ok")
}

// Pending waitAsync waiters of a realm that goes away are dropped: by
// Interrupt at once, or when Schedule first returns false. Their block
// references and timers go with them (goleak and LiveBlocks check).
func TestWaitAsyncRealmGone(t *testing.T) {
	checkRegistry(t)
	b, err := NewBlock(8, -1)
	if err != nil {
		t.Fatal(err)
	}

	// Interrupt: waiters with and without timeouts are purged.
	l := newLoop(t, RealmOptions{})
	l.share(t, "sab", b)
	if _, err := l.Eval(`var ia = new Int32Array(sab);
		Atomics.waitAsync(ia, 0, 0); Atomics.waitAsync(ia, 0, 0, 60000); Atomics.waitAsync(ia, 1, 0, 1e9)`); err != nil {
		t.Fatal(err)
	}
	if b.waiterCount(0) != 2 || b.waiterCount(4) != 1 {
		t.Fatal("waiters not queued")
	}
	l.Interrupt()
	waitFor(t, "the purge", 5*time.Second, func() bool { return b.waiterCount(0) == 0 && b.waiterCount(4) == 0 })
	if _, err := l.Eval(`Atomics.waitAsync(new Int32Array(sab), 0, 0)`); err == nil {
		t.Error("waitAsync in an interrupted realm did not throw")
	}
	l.Close()

	// Schedule returns false: the first settlement drops the rest.
	l2 := newLoop(t, RealmOptions{})
	l2.share(t, "sab", b)
	if _, err := l2.Eval(`var ia = new Int32Array(sab);
		Atomics.waitAsync(ia, 0, 0, 5); Atomics.waitAsync(ia, 1, 0)`); err != nil {
		t.Fatal(err)
	}
	l2.closeWithoutDrain()
	waitFor(t, "the timeout to find the realm gone", 5*time.Second, func() bool { return b.waiterCount(0) == 0 && b.waiterCount(4) == 0 })
	l2.Close()

	b.Release()
	waitFreed(t, b) // the dropped waiters gave their references back
}

// closeWithoutDrain makes Schedule return false but leaves the loop
// running until Close.
func (l *loop) closeWithoutDrain() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
}

// A grow in one realm shows in the other's byteLength and new views.
func TestGrowAcrossRealms(t *testing.T) {
	checkRegistry(t)
	b, err := NewBlock(4, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	ls := loops(t, 2, RealmOptions{})
	for _, l := range ls {
		l.share(t, "sab", b)
	}
	if _, err := ls[1].Eval(`var keep = new Uint8Array(sab)`); err != nil {
		t.Fatal(err)
	}
	if _, err := ls[0].Eval(`sab.grow(40); Atomics.store(new Int32Array(sab), 9, 99)`); err != nil {
		t.Fatal(err)
	}
	v, err := ls[1].Eval(`[sab.byteLength, new Int32Array(sab).length, Atomics.load(new Int32Array(sab), 9), keep.length, sab.maxByteLength, sab.growable].join()`)
	if err != nil || v != "40,10,99,4,64,true" {
		t.Fatalf("other realm sees %v, %v", v, err)
	}
	if b.ByteLength() != 40 {
		t.Fatalf("ByteLength = %d", b.ByteLength())
	}
	// Concurrent grows from both realms converge to the largest.
	var wg sync.WaitGroup
	for i, l := range ls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Eval(fmt.Sprintf(`for (let n = 41 + %d; n <= 64; n += 2) { try { sab.grow(n); } catch (e) { if (!(e instanceof RangeError)) throw e; } }`, i))
		}()
	}
	wg.Wait()
	if b.ByteLength() != 64 && b.ByteLength() != 63 {
		t.Fatalf("ByteLength after concurrent grows = %d", b.ByteLength())
	}
}

// Only notify wakes a waiter: writes by every other Atomics operation do not
// (no-spurious-wakeup-on-{add,and,compareExchange,exchange,or,store,sub,xor}.js
// and bigint/ variants); a NaN or undefined timeout waits until notified,
// and a long one is cut short by notify (nan-for-timeout-agent.js,
// undefined-for-timeout.js, was-woken-before-timeout.js, bigint/was-woken.js).
func TestNoSpuriousWakeup(t *testing.T) {
	checkRegistry(t)
	b := newTestBlock(t, 16)
	ls := loops(t, 2, RealmOptions{CanBlock: true})
	for _, l := range ls {
		l.share(t, "sab", b)
	}
	ops := []string{"Atomics.add(v, 0, 1)", "Atomics.and(v, 0, 1)", "Atomics.compareExchange(v, 0, 0, 2)",
		"Atomics.exchange(v, 0, 3)", "Atomics.or(v, 0, 4)", "Atomics.store(v, 0, 5)", "Atomics.sub(v, 0, 6)",
		"Atomics.xor(v, 0, 7)"}
	for _, view := range []struct{ ctor, zero, suffix string }{{"Int32Array", "0", ""}, {"BigInt64Array", "0n", "n"}} {
		for _, op := range ops {
			op := strings.NewReplacer("1)", "1"+view.suffix+")", "2)", "2"+view.suffix+")", "3)", "3"+view.suffix+")",
				"4)", "4"+view.suffix+")", "5)", "5"+view.suffix+")", "6)", "6"+view.suffix+")", "7)", "7"+view.suffix+")",
				"0, 0,", "0, "+view.zero+",").Replace(op)
			if _, err := ls[0].Eval(`Atomics.store(new ` + view.ctor + `(sab), 0, ` + view.zero + `)`); err != nil {
				t.Fatal(err)
			}
			// No timeout: the waiter ends only by the notify below, so a slow machine cannot make it time out
			// before the operation runs. A wake-up by the operation shows as a result before the notify.
			ch := ls[1].Go(`Atomics.wait(new ` + view.ctor + `(sab), 0, ` + view.zero + `)`)
			waitFor(t, "the waiter", 5*time.Second, func() bool { return b.waiterCount(0) == 1 })
			if _, err := ls[0].Eval(`var v = new ` + view.ctor + `(sab); ` + op); err != nil {
				t.Fatal(op, err)
			}
			select {
			case r := <-ch:
				t.Fatalf("%s %s woke the waiter: %v, %v", view.ctor, op, r.v, r.err)
			case <-time.After(20 * time.Millisecond):
			}
			if b.waiterCount(0) != 1 {
				t.Fatalf("%s %s: %d waiters after the operation, want 1", view.ctor, op, b.waiterCount(0))
			}
			if _, err := ls[0].Eval(`Atomics.notify(new ` + view.ctor + `(sab), 0)`); err != nil {
				t.Fatal(err)
			}
			if r := <-ch; r.err != nil || r.v != "ok" {
				t.Fatalf("%s %s: wait = %v, %v; want ok after the notify", view.ctor, op, r.v, r.err)
			}
		}
	}
	for _, timeout := range []string{"NaN", "undefined", "1e9", "Infinity"} {
		if _, err := ls[0].Eval(`Atomics.store(new Int32Array(sab), 0, 0)`); err != nil {
			t.Fatal(err)
		}
		ch := ls[1].Go(`Atomics.wait(new Int32Array(sab), 0, 0, ` + timeout + `)`)
		waitFor(t, "the waiter", 5*time.Second, func() bool { return b.waiterCount(0) == 1 })
		select {
		case r := <-ch:
			t.Fatalf("timeout %s: returned early: %v", timeout, r)
		case <-time.After(20 * time.Millisecond):
		}
		if v, _ := ls[0].Eval(`Atomics.notify(new Int32Array(sab), 0)`); v != int64(1) {
			t.Fatalf("notify = %v", v)
		}
		if r := <-ch; r.v != "ok" {
			t.Fatalf("timeout %s: wait = %v", timeout, r)
		}
	}
}
