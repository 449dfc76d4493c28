package capi

import (
	"sync"
	"testing"
)

// TestHandleTable_Shards: handles from many threads land in their shards, are found, never reused, and a value no
// handle has (below firstHandle, a neighbour's value, a removed handle) is not found.
func TestHandleTable_Shards(t *testing.T) {
	tab := newHandleTable()
	var wg sync.WaitGroup
	const perThread = 500
	got := make([][]uintptr, 70)
	for tid := range got {
		wg.Add(1)
		go func(tid int) {
			defer wg.Done()
			for i := 0; i < perThread; i++ {
				got[tid] = append(got[tid], tab.add(kindValue, tid, i))
			}
		}(tid)
	}
	wg.Wait()
	seen := map[uintptr]bool{}
	for tid, hs := range got {
		for i, h := range hs {
			if seen[h] {
				t.Fatalf("handle %x given out twice", h)
			}
			seen[h] = true
			e, ok := tab.get(h)
			if !ok || e.tid != tid || e.obj != i || e.kind != kindValue {
				t.Fatalf("get(%x) = %+v, %v; want thread %d object %d", h, e, ok, tid, i)
			}
			if seen[h+1] || seen[h-1] {
				continue
			}
			if _, ok := tab.get(h + 1); ok {
				t.Fatalf("get(%x) found an entry no handle has", h+1)
			}
		}
	}
	if n := tab.count(0); n != len(seen) {
		t.Fatalf("count = %d, want %d", n, len(seen))
	}
	for _, h := range []uintptr{0, 1, firstHandle - 1, firstHandle} {
		if _, ok := tab.get(h); ok {
			t.Fatalf("get(%x) found an entry", h)
		}
	}
	for _, hs := range got {
		tab.remove(hs...)
	}
	tab.remove(0, firstHandle) // impossible values are ignored
	if n := tab.count(0); n != 0 {
		t.Fatalf("%d handles left after removing all", n)
	}
	for h := range seen {
		if _, ok := tab.get(h); ok {
			t.Fatalf("removed handle %x still found", h)
		}
	}
	if h := tab.add(kindString, 3, nil); seen[h] {
		t.Fatalf("handle %x reused after its release", h)
	}
}
