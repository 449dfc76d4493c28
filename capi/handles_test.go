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
		}
	}
	// Only once every handle is known: a neighbouring value no handle has is not found.
	for h := range seen {
		if seen[h+1] {
			continue
		}
		if _, ok := tab.get(h + 1); ok {
			t.Fatalf("get(%x) found an entry no handle has", h+1)
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

// BenchmarkHandleTable is one value's life on the hot path: made, resolved three times, released in a scope's batch.
// The parallel form is several host threads at once, each on its own thread id.
func BenchmarkHandleTable(b *testing.B) {
	life := func(tid int) {
		h := handles.add(kindValue, tid, nil)
		for range 3 {
			if _, ok := handles.get(h); !ok {
				b.Fatal("lost a handle")
			}
		}
		handles.remove(h)
	}
	b.Run("one", func(b *testing.B) {
		for range b.N {
			life(7)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		var next atomicInt
		b.RunParallel(func(pb *testing.PB) {
			tid := next.add()
			for pb.Next() {
				life(tid)
			}
		})
	})
}

// atomicInt hands out thread ids to the parallel benchmark.
type atomicInt struct {
	mu sync.Mutex
	n  int
}

func (a *atomicInt) add() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.n++
	return a.n
}
