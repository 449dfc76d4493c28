package realmdata

import (
	"runtime"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/dop251/goja"
)

var (
	keyInt = NewKey[int]("test.int")
	keyStr = NewKey[string]("test.str")
	keyObj = NewKey[*goja.Object]("test.obj")
	keyAny = NewKey[any]("test.any")
)

// waitFor collects garbage until cond holds, or fails after a generous
// deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		runtime.GC()
		runtime.Gosched()
	}
}

func TestSetGetDeleteDrop(t *testing.T) {
	before := Len()
	a, b := goja.New(), goja.New()
	if _, ok := keyInt.Get(a); ok {
		t.Fatal("a value before Set")
	}
	keyInt.Set(a, 1)
	keyStr.Set(a, "one")
	keyInt.Set(b, 2)
	keyAny.Set(b, nil) // a nil value is a value
	if v, ok := keyInt.Get(a); !ok || v != 1 {
		t.Fatalf("a int = %v %v", v, ok)
	}
	if v, ok := keyStr.Get(a); !ok || v != "one" {
		t.Fatalf("a str = %v %v", v, ok)
	}
	if v, ok := keyInt.Get(b); !ok || v != 2 {
		t.Fatalf("b int = %v %v", v, ok)
	}
	if v, ok := keyAny.Get(b); !ok || v != nil {
		t.Fatalf("b any = %v %v", v, ok)
	}
	if _, ok := keyStr.Get(b); ok {
		t.Fatal("b has a's string")
	}
	if n := Len(); n != before+2 {
		t.Fatalf("Len = %d, want %d", n, before+2)
	}
	keyInt.Set(a, 10)
	if v, _ := keyInt.Get(a); v != 10 {
		t.Fatalf("after a second Set: %d", v)
	}
	keyInt.Delete(a)
	if _, ok := keyInt.Get(a); ok {
		t.Fatal("Delete kept the value")
	}
	if v, ok := keyStr.Get(a); !ok || v != "one" {
		t.Fatal("Delete of one key dropped another")
	}
	keyAny.Set(b, 1)
	keyAny.Delete(b)
	keyInt.Delete(b) // b's last value: its entry goes
	if n := Len(); n != before+1 {
		t.Fatalf("Len = %d after b's last Delete, want %d", n, before+1)
	}
	keyInt.Set(b, 2)
	Drop(a)
	if _, ok := keyStr.Get(a); ok {
		t.Fatal("Drop kept a value")
	}
	if v, ok := keyInt.Get(b); !ok || v != 2 {
		t.Fatal("Drop of a dropped b's state")
	}
	keyInt.Set(a, 3) // a dropped runtime can get state again
	if v, ok := keyInt.Get(a); !ok || v != 3 {
		t.Fatal("Set after Drop")
	}
	Drop(a)
	Drop(b)
	Drop(b)   // twice: nothing
	Drop(nil) // nil: nothing
	keyInt.Set(nil, 1)
	if _, ok := keyInt.Get(nil); ok {
		t.Fatal("nil runtime has state")
	}
	if n := Len(); n != before {
		t.Fatalf("Len = %d after Drop, want %d", n, before)
	}
	if keyInt.String() != "test.int" {
		t.Fatal(keyInt.String())
	}
}

// The table does not keep a runtime alive by itself: with values that do
// not reference it, a runtime is collected and its entry forgotten.
func TestKeysDoNotKeepRuntimesAlive(t *testing.T) {
	before := Len()
	var weaks []weak.Pointer[goja.Runtime]
	for i := range 8 {
		rt := goja.New()
		keyInt.Set(rt, i)
		keyStr.Set(rt, "x")
		weaks = append(weaks, weak.Make(rt))
	}
	waitFor(t, "the runtimes to be collected and forgotten", func() bool {
		for _, w := range weaks {
			if w.Value() != nil {
				return false
			}
		}
		return Len() <= before
	})
}

// A value that references its runtime keeps it alive until Drop.
func TestValueKeepsRuntimeUntilDrop(t *testing.T) {
	before := Len()
	rt := goja.New()
	keyObj.Set(rt, rt.NewObject())
	w := weak.Make(rt)
	rt = nil
	for range 3 {
		runtime.GC()
	}
	rt = w.Value()
	if rt == nil {
		t.Fatal("the runtime was collected while a value referencing it was stored")
	}
	Drop(rt)
	rt = nil
	waitFor(t, "the dropped runtime to be collected", func() bool { return w.Value() == nil && Len() <= before })
}

// Hammer: P goroutines, each with its own runtimes, set, read, delete and
// drop state concurrently; nobody ever sees another runtime's value.
func TestHammer(t *testing.T) {
	before := Len()
	p, n := 8, 2000
	if testing.Short() {
		p, n = 4, 300
	}
	var wg sync.WaitGroup
	errs := make(chan string, p)
	for g := range p {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rt := goja.New()
			for i := range n {
				want := g*1_000_000 + i
				keyInt.Set(rt, want)
				if v, ok := keyInt.Get(rt); !ok || v != want {
					errs <- "lost or foreign value"
					return
				}
				switch i % 4 {
				case 1:
					keyInt.Delete(rt)
					if _, ok := keyInt.Get(rt); ok {
						errs <- "deleted value seen"
						return
					}
				case 2:
					Drop(rt)
					if _, ok := keyInt.Get(rt); ok {
						errs <- "dropped value seen"
						return
					}
				case 3:
					Drop(rt)
					rt = goja.New() // and a new realm
				}
			}
			Drop(rt)
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if n := Len(); n > before {
		// Only entries of collected runtimes may remain, until their cleanup.
		waitFor(t, "the table to empty", func() bool { return Len() <= before })
	}
}

func BenchmarkGet(b *testing.B) {
	rt := goja.New()
	keyInt.Set(rt, 1)
	keyStr.Set(rt, "s")
	defer Drop(rt)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, ok := keyStr.Get(rt); !ok {
				b.Fatal("missing")
			}
		}
	})
}

func BenchmarkGetSerial(b *testing.B) {
	rt := goja.New()
	keyStr.Set(rt, "s")
	defer Drop(rt)
	for range b.N {
		if _, ok := keyStr.Get(rt); !ok {
			b.Fatal("missing")
		}
	}
}

func BenchmarkGetWeakMutexSerial(b *testing.B) {
	var mu sync.Mutex
	m := map[weak.Pointer[goja.Runtime]]string{}
	rt := goja.New()
	m[weak.Make(rt)] = "s"
	for range b.N {
		mu.Lock()
		_, ok := m[weak.Make(rt)]
		mu.Unlock()
		if !ok {
			b.Fatal("missing")
		}
	}
}

// BenchmarkGetWeakMutex is the registry realmdata replaces in sharedmem: a
// map keyed by weak.Make(rt) behind one mutex. For comparison.
func BenchmarkGetWeakMutex(b *testing.B) {
	var mu sync.Mutex
	m := map[weak.Pointer[goja.Runtime]]string{}
	rt := goja.New()
	m[weak.Make(rt)] = "s"
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			_, ok := m[weak.Make(rt)]
			mu.Unlock()
			if !ok {
				b.Fatal("missing")
			}
		}
	})
}
