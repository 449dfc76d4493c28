//go:build !race

package sharedmem

import (
	"fmt"
	"testing"
)

// Deliberately racy: plain typed-array accesses (goja's own, not atomic) to
// shared memory from two realms at once. The race detector rightly reports
// them, so this file is built without -race only. It shows what the
// Atomics-only tests cannot: plain and atomic accesses see the same bytes,
// and only the atomic counter is exact.
func TestPlainAndAtomicAccessMix(t *testing.T) {
	checkRegistry(t)
	n := 200_000
	if testing.Short() {
		n = 20_000
	}
	b := newTestBlock(t, 16)
	ls := loops(t, 2, RealmOptions{CanBlock: true})
	for _, l := range ls {
		l.share(t, "sab", b)
	}
	var chans []<-chan result
	for _, l := range ls {
		chans = append(chans, l.Go(fmt.Sprintf(`(function (n) {
			const ia = new Int32Array(sab);
			for (let i = 0; i < n; i++) { Atomics.add(ia, 0, 1); ia[1]++; }
		})(%d)`, n)))
	}
	for _, ch := range chans {
		if r := <-ch; r.err != nil {
			t.Fatal(r.err)
		}
	}
	v, err := ls[0].Eval(`const ia = new Int32Array(sab); [ia[0], ia[1]]`)
	if err != nil {
		t.Fatal(err)
	}
	got := v.([]any)
	if got[0] != int64(2*n) {
		t.Fatalf("atomic counter = %v, want %d", got[0], 2*n)
	}
	if p := got[1].(int64); p > int64(2*n) || p < int64(n) {
		t.Fatalf("plain counter = %d, want between %d and %d", p, n, 2*n)
	}
	t.Logf("plain ia[1]++ from two realms: %v of %d (lost updates are expected)", got[1], 2*n)

	// A plain spin sees another realm's Atomics.store, and a plain write
	// followed by notify wakes a waiter.
	spin := ls[0].Go(`(function () { const ia = new Int32Array(sab); while (ia[2] === 0) {} return ia[2]; })()`)
	if _, err := ls[1].Eval(`Atomics.store(new Int32Array(sab), 2, 5)`); err != nil {
		t.Fatal(err)
	}
	if r := <-spin; r.v != int64(5) {
		t.Fatalf("spin = %v", r)
	}
	wait := ls[0].Go(`Atomics.wait(new Int32Array(sab), 3, 0)`)
	waitFor(t, "the waiter", 5e9, func() bool { return b.waiterCount(12) == 1 })
	if _, err := ls[1].Eval(`const ib = new Int32Array(sab); ib[3] = 1; Atomics.notify(ib, 3)`); err != nil {
		t.Fatal(err)
	}
	if r := <-wait; r.v != "ok" {
		t.Fatalf("wait = %v", r)
	}
}
