package sharedmem

import (
	"errors"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// A Token can sit in a frame's reference list (clone.Ref).
var _ interface{ Release() } = Token{}

// freed reports whether b's last reference was released.
func (b *Block) freed() bool { return b.refs.Load() == 0 }

// waitFreed waits for every block to be freed, collecting garbage (the
// wrappers' cleanups run after a GC). LiveBlocks is process-wide, so tests
// follow their own blocks instead.
func waitFreed(t testing.TB, bs ...*Block) {
	t.Helper()
	waitFor(t, "blocks to be freed", 10*time.Second, func() bool {
		for _, b := range bs {
			if !b.freed() {
				return false
			}
		}
		return true
	})
}

func TestTokenRegistry(t *testing.T) {
	checkRegistry(t)
	b, err := NewBlock(16, -1)
	if err != nil {
		t.Fatal(err)
	}

	// Register / Consume hands the reference over.
	tok := Register(b)
	if RegistryLen() != 1 {
		t.Fatalf("RegistryLen = %d", RegistryLen())
	}
	got, err := Consume(tok)
	if err != nil || got != b {
		t.Fatalf("Consume = %v, %v", got, err)
	}
	got.Release()

	// Replayed: the same token a second time.
	if _, err := Consume(tok); !errors.Is(err, ErrUnknownToken) {
		t.Fatalf("replayed Consume: %v", err)
	}
	// Forged: a token never registered (and the zero token).
	if _, err := Consume(Token{1, 2, 3}); !errors.Is(err, ErrUnknownToken) {
		t.Fatalf("forged Consume: %v", err)
	}
	if _, err := Consume(Token{}); !errors.Is(err, ErrUnknownToken) {
		t.Fatalf("zero Consume: %v", err)
	}
	// Duplicate: one registered token listed twice in a manifest; the
	// second use fails closed and the first still owns exactly one reference.
	dup := Register(b)
	manifest := []Token{dup, dup}
	first, err1 := Consume(manifest[0])
	_, err2 := Consume(manifest[1])
	if err1 != nil || !errors.Is(err2, ErrUnknownToken) {
		t.Fatalf("duplicate: %v, %v", err1, err2)
	}
	first.Release()
	// Tokens are distinct.
	seen := map[Token]bool{}
	for range 1000 {
		k := Register(b)
		if seen[k] {
			t.Fatal("a token was issued twice")
		}
		seen[k] = true
	}
	// Discard (and Token.Release, as Frame.Release calls it) drop unread
	// tokens; unknown tokens are no-ops.
	n := 0
	for k := range seen {
		if n%2 == 0 {
			Discard(k)
		} else {
			k.Release()
		}
		n++
	}
	Discard(Token{9})
	tok.Release()
	if RegistryLen() != 0 {
		t.Fatalf("RegistryLen = %d after discarding", RegistryLen())
	}
	// Only the creator's reference is left: releasing it frees the block.
	if n := b.refs.Load(); n != 1 {
		t.Fatalf("%d references left, want 1", n)
	}
	b.Release()
	if !b.freed() {
		t.Fatal("the block was not freed by its last Release")
	}
}

func TestTokenRegistryConcurrent(t *testing.T) {
	checkRegistry(t)
	b, err := NewBlock(8, -1)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				k := Register(b)
				switch (g + i) % 3 {
				case 0:
					if x, err := Consume(k); err == nil {
						x.Release()
					} else {
						t.Error(err)
					}
					if _, err := Consume(k); err == nil {
						t.Error("a token was consumed twice")
					}
				case 1:
					Discard(k)
					Discard(k)
				default:
					k.Release()
				}
			}
		}()
	}
	wg.Wait()
	b.Release()
	if RegistryLen() != 0 || !b.freed() {
		t.Fatalf("RegistryLen %d, freed %v", RegistryLen(), b.freed())
	}
}

// The path a SharedArrayBuffer takes through a frame: BlockOf + Register in
// the sender's realm, Consume + Wrap + Release in the receiver's. Both see
// the same memory; after both realms are gone the block is freed.
func TestTransferByToken(t *testing.T) {
	checkRegistry(t)
	var blk *Block
	func() {
		a := newRealm(t, RealmOptions{})
		bRealm := newRealm(t, RealmOptions{})
		v := run(t, a, `var sab = new SharedArrayBuffer(8); Atomics.store(new Int32Array(sab), 0, 42); sab`)
		var ok bool
		blk, ok = BlockOf(a, v.(*goja.Object))
		if !ok {
			t.Fatal("BlockOf failed on a SharedArrayBuffer")
		}
		tok := Register(blk) // the frame's reference
		got, err := Consume(tok)
		if err != nil {
			t.Fatal(err)
		}
		w, err := Wrap(bRealm, got)
		got.Release()
		if err != nil {
			t.Fatal(err)
		}
		bRealm.Set("sab", w)
		run(t, bRealm, `assert.sameValue(Atomics.add(new Int32Array(sab), 0, 1), 42); assert(sab instanceof SharedArrayBuffer);`)
		run(t, a, `assert.sameValue(Atomics.load(new Int32Array(sab), 0), 43)`)
		if b2, ok := BlockOf(bRealm, w); !ok || b2 != blk {
			t.Fatal("the receiver's wrapper is not over the same block")
		}
		// An unread frame: Discard frees its reference.
		Discard(Register(blk))
		if n := blk.refs.Load(); n != 2 {
			t.Fatalf("%d references, want the two wrappers'", n)
		}
		Uninstall(a) // the realms end
		Uninstall(bRealm)
	}()
	waitFreed(t, blk)
}

// Wrappers release their reference when collected; so do constructor-made
// buffers; an uninstalled runtime is forgotten and collected.
func TestWrapperGC(t *testing.T) {
	checkRegistry(t)
	realmsBefore := realmdata.Len()
	var runtimes []weak.Pointer[goja.Runtime]
	b, err := NewBlock(32, 64)
	if err != nil {
		t.Fatal(err)
	}
	all := []*Block{b}
	func() {
		for range 3 {
			rt := newRealm(t, RealmOptions{})
			w, err := Wrap(rt, b)
			if err != nil {
				t.Fatal(err)
			}
			rt.Set("w", w)
			v := run(t, rt, `var keep = [new Int32Array(w), new SharedArrayBuffer(1024), new SharedArrayBuffer(8, {maxByteLength: 16}).slice()];
				[keep[1], keep[2]]`)
			var objs []*goja.Object
			if err := rt.ExportTo(v, &objs); err != nil {
				t.Fatal(err)
			}
			for _, o := range objs {
				x, _ := BlockOf(rt, o)
				all = append(all, x)
			}
			Uninstall(rt)
			runtimes = append(runtimes, weak.Make(rt))
		}
	}()
	b.Release() // the creator's reference; the wrappers keep it alive until collected
	if b.freed() {
		t.Fatal("block freed while wrappers exist")
	}
	waitFreed(t, all...)
	waitFor(t, "the runtimes to be collected and forgotten", 10*time.Second, func() bool {
		for _, w := range runtimes {
			if w.Value() != nil {
				return false
			}
		}
		return realmdata.Len() <= realmsBefore
	})
}

func TestBlockAPI(t *testing.T) {
	tooBig := MaxByteLength
	tooBig++ // (wraps to negative on 32-bit platforms: still refused)
	for _, c := range []struct{ n, max int }{{-1, -1}, {4, 3}, {0, -2}, {tooBig, -1}, {0, tooBig}} {
		if _, err := NewBlock(c.n, c.max); err == nil {
			t.Errorf("NewBlock(%d, %d) succeeded", c.n, c.max)
		}
	}
	b, err := NewBlock(3, -1)
	if err != nil {
		t.Fatal(err)
	}
	if b.ByteLength() != 3 || b.Growable() || b.MaxByteLength() != 3 {
		t.Fatalf("fixed block: %d %v %d", b.ByteLength(), b.Growable(), b.MaxByteLength())
	}
	if err := b.Grow(3); err == nil {
		t.Error("a fixed block grew")
	}
	g, err := NewBlock(0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Growable() || g.MaxByteLength() != 10 || g.ByteLength() != 0 {
		t.Fatal("growable block")
	}
	if err := g.Grow(4); err != nil {
		t.Fatal(err)
	}
	if err := g.Grow(4); err != nil {
		t.Fatalf("growing to the same length: %v", err)
	}
	if g.Grow(3) == nil || g.Grow(11) == nil || g.ByteLength() != 4 {
		t.Fatalf("Grow: shrinking or exceeding succeeded; length %d", g.ByteLength())
	}
	// The memory never moves and is 8-byte aligned.
	p := g.base()
	_ = g.Grow(10)
	if g.base() != p || p%8 != 0 {
		t.Fatal("memory moved or misaligned")
	}
	live := LiveBlocks()
	b.Release()
	g.Release()
	if !b.freed() || !g.freed() || LiveBlocks() > live-2 {
		t.Fatalf("not freed: %v %v, LiveBlocks %d → %d", b.freed(), g.freed(), live, LiveBlocks())
	}
	mustPanic(t, "Retain after free", b.Retain)
	mustPanic(t, "Release after free", g.Release)

	rt := goja.New()
	if _, err := Wrap(rt, b); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("Wrap before Install: %v", err)
	}
	if err := Install(rt, RealmOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := Install(rt, RealmOptions{}); !errors.Is(err, ErrInstalled) {
		t.Errorf("second Install: %v", err)
	}
	Uninstall(rt)
	if _, err := Wrap(rt, b); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("Wrap after Uninstall: %v", err)
	}
	Uninstall(rt) // twice: nothing
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

// Atomics on small, arbitrarily aligned non-shared buffers (goja allocates
// them anywhere): every element of every kind reads back what was stored,
// neighbours untouched.
func TestAtomicsSmallNonSharedBuffers(t *testing.T) {
	rt := newRealm(t, RealmOptions{})
	run(t, rt, `
		for (var size = 1; size <= 24; size++) {
			intArrayConstructors.concat(bigIntArrayConstructors).forEach(function (TA) {
				var es = TA.BYTES_PER_ELEMENT;
				if (size < es) return;
				var buf = new ArrayBuffer(size);
				var bytes = new Uint8Array(buf);
				var view = new TA(buf, 0, Math.floor(size / es));
				var big = es === 8;
				for (var i = 0; i < view.length; i++) {
					bytes.fill(0xAA);
					var v = big ? 0x0102030405060708n : 0x7A;
					Atomics.store(view, i, v);
					assert.sameValue(Atomics.load(view, i), big ? v : 0x7A, TA.name + " size " + size + " index " + i);
					assert.sameValue(Atomics.add(view, i, big ? 1n : 1), big ? v : 0x7A);
					assert.sameValue(Atomics.compareExchange(view, i, big ? v + 1n : 0x7B, big ? 0n : 0), big ? v + 1n : 0x7B);
					assert.sameValue(Atomics.xor(view, i, big ? 5n : 5), big ? 0n : 0);
					for (var j = 0; j < size; j++) {
						if (j < i * es || j >= (i + 1) * es) assert.sameValue(bytes[j], 0xAA, "neighbour byte " + j);
					}
				}
			});
		}
	`)
}
