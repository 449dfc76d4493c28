package sharedmem

import (
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// TestExternalBlockNotifyAddress: a block over memory the Go collector does not manage (here a slice kept apart,
// standing for a C host's), a realm waiting on one of its elements, and a waker that knows only the address.
func TestExternalBlockNotifyAddress(t *testing.T) {
	checkRegistry(t)
	words := make([]uint64, 4) // 32 bytes, 8-byte aligned
	var freed atomic.Int32
	b, err := NewExternalBlock(unsafe.Pointer(&words[0]), 32, func() { freed.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewExternalBlock(unsafe.Add(unsafe.Pointer(&words[0]), 4), 8, nil); err != ErrMisaligned {
		t.Fatalf("misaligned memory: err = %v, want ErrMisaligned", err)
	}
	l := newLoop(t, RealmOptions{CanBlock: true})
	l.share(t, "sab", b)
	res := l.Go(`const ia = new Int32Array(sab, 8); ia[1] = 5; Atomics.wait(ia, 2, 0)`)
	waitFor(t, "the waiter", 20*time.Second, func() bool { return b.waiterCount(16) == 1 })
	if got := *(*int32)(unsafe.Add(unsafe.Pointer(&words[0]), 12)); got != 5 {
		t.Fatalf("the host's memory holds %d, want what JavaScript wrote (5)", got)
	}
	if n := NotifyAddress(uintptr(unsafe.Pointer(&words[0]))+12, -1); n != 0 {
		t.Fatalf("NotifyAddress of another element woke %d", n)
	}
	if n := NotifyAddress(uintptr(unsafe.Pointer(&words[0]))+16, -1); n != 1 {
		t.Fatalf("NotifyAddress woke %d, want 1", n)
	}
	if r := <-res; r.err != nil || r.v != "ok" {
		t.Fatalf("Atomics.wait returned %v, %v; want ok", r.v, r.err)
	}
	if n := NotifyAddress(0x10, 1); n != 0 {
		t.Fatalf("an address outside every block woke %d", n)
	}
	b.Release() // the caller's reference; the wrapper still holds one
	if freed.Load() != 0 {
		t.Fatal("freed while a wrapper holds the block")
	}
	l.Close()
	waitFor(t, "the external memory's free", 20*time.Second, func() bool { return freed.Load() == 1 })
	if n := NotifyAddress(uintptr(unsafe.Pointer(&words[0]))+16, -1); n != 0 {
		t.Fatalf("NotifyAddress on a freed block woke %d", n)
	}
}
