package clone_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"weak"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// hostMem is external memory as a host would own it: bytes outside the ArrayBuffer machinery, and a count of how
// often they were given back. A test holder registers an ArrayBuffer over it as capi does for NoCopy buffers.
type hostMem struct {
	bytes []byte
	freed atomic.Int32
	mem   *clone.External
}

func newHostMem(n int) *hostMem {
	h := &hostMem{bytes: make([]byte, n)}
	h.mem = clone.NewExternal(func() { h.freed.Add(1) })
	return h
}

// holder is the creating realm's hold, as capi's extBuffer.
type holder struct {
	h    *hostMem
	key  weak.Pointer[goja.Object]
	done bool
}

func (b *holder) Memory() *clone.External { return b.h.mem }
func (b *holder) Detached()               { b.drop() }
func (b *holder) drop() {
	if !b.done {
		b.done = true
		clone.UnregisterExternal(b.key)
		b.h.mem.Release()
	}
}

// buffer makes an ArrayBuffer of rt over h's memory and registers it.
func (h *hostMem) buffer(rt *goja.Runtime) (*goja.Object, *holder) {
	o := rt.ToValue(rt.NewArrayBuffer(h.bytes)).(*goja.Object)
	b := &holder{h: h, key: weak.Make(o)}
	clone.RegisterExternal(o, b)
	return o, b
}

// waitFreed collects until free ran, or fails after a generous timeout.
func waitFreed(t *testing.T, h *hostMem) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for h.freed.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the external memory was never given back (refs %d)", h.mem.Refs())
		}
		runtime.GC()
		time.Sleep(time.Millisecond) // lets the cleanup goroutine run; orders nothing
	}
}

func TestExternalTransferCarriesReference(t *testing.T) {
	h := newHostMem(64)
	src, dst := goja.New(), goja.New()
	o, b := h.buffer(src)
	if err := src.Set("b", o); err != nil {
		t.Fatal(err)
	}
	f, err := clone.Serialize(src, o, clone.Options{Transfer: []goja.Value{o}})
	if err != nil {
		t.Fatal(err)
	}
	if !b.done {
		t.Error("the commit did not tell the sender's holder its buffer is detached")
	}
	if got := h.mem.Refs(); got != 1 {
		t.Fatalf("after the transfer the memory has %d references, want 1 (the frame's)", got)
	}
	v, err := clone.Deserialize(dst, f)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.mem.Refs(); got != 1 || h.freed.Load() != 0 {
		t.Fatalf("after delivery: %d references, freed %d; want 1, 0", got, h.freed.Load())
	}
	ab := v.Export().(goja.ArrayBuffer)
	if &ab.Bytes()[0] != &h.bytes[0] {
		t.Fatal("the transferred external buffer was copied")
	}
	// The receiver transfers it on, to itself (structuredClone's path): still one reference, no copy.
	w, err := clone.Serialize(dst, v, clone.Options{Transfer: []goja.Value{v}})
	if err != nil {
		t.Fatal(err)
	}
	v2, err := clone.Deserialize(dst, w)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.mem.Refs(); got != 1 || h.freed.Load() != 0 {
		t.Fatalf("after the second transfer: %d references, freed %d; want 1, 0", got, h.freed.Load())
	}
	if ab := v2.Export().(goja.ArrayBuffer); &ab.Bytes()[0] != &h.bytes[0] {
		t.Fatal("the second transfer copied")
	}
	v, v2, ab = nil, nil, goja.ArrayBuffer{}
	dst = nil
	waitFreed(t, h)
	runtime.KeepAlive(src)
	if n := h.freed.Load(); n != 1 {
		t.Fatalf("free ran %d times", n)
	}
}

func TestExternalUndeliveredFrame(t *testing.T) {
	h := newHostMem(8)
	src := goja.New()
	o, b := h.buffer(src)
	f, commit, err := clone.SerializeTransfer(src, o, clone.Options{Transfer: []goja.Value{o}})
	if err != nil {
		t.Fatal(err)
	}
	if h.mem.Refs() != 2 {
		t.Fatalf("%d references before commit, want 2", h.mem.Refs())
	}
	// Not accepted: the frame is released, the sender keeps its buffer and its reference.
	f.Release()
	_ = commit
	if h.mem.Refs() != 1 || b.done || h.freed.Load() != 0 {
		t.Fatalf("after releasing an uncommitted frame: %d references, holder done %v", h.mem.Refs(), b.done)
	}
	// Accepted and committed, then dropped undelivered: the last reference goes with the frame.
	f, err = clone.Serialize(src, o, clone.Options{Transfer: []goja.Value{o}})
	if err != nil {
		t.Fatal(err)
	}
	if h.freed.Load() != 0 {
		t.Fatal("freed while the frame still carries the memory")
	}
	f.Release()
	if n := h.freed.Load(); n != 1 {
		t.Fatalf("free ran %d times after the frame was dropped, want 1", n)
	}
	if clone.ExternalCount() != 0 {
		t.Fatalf("%d registrations left", clone.ExternalCount())
	}
}

func TestExternalStructuredClone(t *testing.T) {
	h := newHostMem(16)
	rt := goja.New()
	if err := clone.InstallStructuredClone(rt); err != nil {
		t.Fatal(err)
	}
	o, _ := h.buffer(rt)
	h.bytes[0] = 7
	if err := rt.Set("b", o); err != nil {
		t.Fatal(err)
	}
	run(t, rt, `var c = structuredClone(b, {transfer: [b]});
		if (b.byteLength !== 0 || c.byteLength !== 16 || new Uint8Array(c)[0] !== 7) throw new Error("bad clone");
		new Uint8Array(c)[1] = 9;`)
	if h.bytes[1] != 9 || h.mem.Refs() != 1 {
		t.Fatalf("the clone does not write the host's memory (byte %d, refs %d)", h.bytes[1], h.mem.Refs())
	}
	run(t, rt, `c = null; b = null`)
	waitFreed(t, h)
}
