package clone_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// bufferBytes returns the memory of the ArrayBuffer v.
func bufferBytes(t testing.TB, v goja.Value) []byte {
	t.Helper()
	ab, ok := v.Export().(goja.ArrayBuffer)
	if !ok {
		t.Fatalf("%v is not an ArrayBuffer", v)
	}
	return ab.Bytes()
}

func TestTransfer(t *testing.T) {
	src := goja.New()
	buf := run(t, src, `var b = new ArrayBuffer(16); var u = new Uint8Array(b); u[3] = 42; var view = new Uint16Array(b, 4, 2); b`)
	mem := bufferBytes(t, buf)
	f, err := clone.Serialize(src, run(t, src, `({b, view, again: b})`), clone.Options{Transfer: []goja.Value{buf}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Len() > 64 {
		t.Errorf("frame of %d bytes: the buffer's memory must not be in it", f.Len())
	}
	// The sender's buffer is detached, and its views with it.
	check(t, src, buf, `v.byteLength === 0 && u.length === 0 && view.length === 0 && u[3] === undefined`)
	run(t, src, `try { new Uint8Array(b); throw 1; } catch (e) { if (!(e instanceof TypeError)) throw e; }`)

	dst := goja.New()
	v, err := clone.Deserialize(dst, f)
	if err != nil {
		t.Fatal(err)
	}
	check(t, dst, v, `v.b.byteLength === 16 && v.again === v.b && new Uint8Array(v.b)[3] === 42 &&
		v.view.buffer === v.b && v.view.byteOffset === 4 && v.view.length === 2`)
	// Zero-copy: the receiver's buffer is the sender's memory.
	if got := bufferBytes(t, run(t, dst, `v.b`)); &got[0] != &mem[0] {
		t.Error("the transferred buffer was copied")
	}
}

func TestTransferUnreachableBuffer(t *testing.T) {
	src := goja.New()
	a := run(t, src, `var a = new ArrayBuffer(4); a`)
	f, err := clone.Serialize(src, src.ToValue("hello"), clone.Options{Transfer: []goja.Value{a}})
	if err != nil {
		t.Fatal(err)
	}
	check(t, src, a, `v.byteLength === 0`) // transferred although the value does not reach it
	dst := goja.New()
	v, err := clone.Deserialize(dst, f)
	if err != nil {
		t.Fatal(err)
	}
	check(t, dst, v, `v === "hello"`)
}

// TestSerializeTransferRejected checks that a frame released without commit
// leaves the sender's buffers attached, intact and transferable again.
func TestSerializeTransferRejected(t *testing.T) {
	src := goja.New()
	buf := run(t, src, `var b = new ArrayBuffer(8); var u = new Uint8Array(b); u[0] = 7; b`)
	f, commit, err := clone.SerializeTransfer(src, run(t, src, `[b, u]`), clone.Options{Transfer: []goja.Value{buf}})
	if err != nil {
		t.Fatal(err)
	}
	// Attached until commit, and then it may not be listed by another frame.
	check(t, src, buf, `v.byteLength === 8 && u[0] === 7`)
	_, err = clone.Serialize(src, buf, clone.Options{Transfer: []goja.Value{buf}})
	checkDataCloneError(t, src, err, "is already being transferred by another message.")

	f.Release() // the channel refused it: commit is not called
	_ = commit
	check(t, src, buf, `v.byteLength === 8 && u[0] === 7 && (u[1] = 9, new Uint8Array(v)[1] === 9)`)
	if n := clone.PendingCount(); n != 0 {
		t.Errorf("%d buffers still pending", n)
	}
	// It can be transferred again.
	f, err = clone.Serialize(src, buf, clone.Options{Transfer: []goja.Value{buf}})
	if err != nil {
		t.Fatal(err)
	}
	f.Release()
	check(t, src, buf, `v.byteLength === 0`)
}

func TestSerializeTransferCommit(t *testing.T) {
	src := goja.New()
	buf := run(t, src, `var b = new ArrayBuffer(8); new Uint8Array(b)[5] = 5; b`)
	mem := bufferBytes(t, buf)
	f, commit, err := clone.SerializeTransfer(src, buf, clone.Options{Transfer: []goja.Value{buf}})
	if err != nil {
		t.Fatal(err)
	}
	// The receiver may read the frame before the sender commits.
	dst := goja.New()
	v, err := clone.Deserialize(dst, f)
	if err != nil {
		t.Fatal(err)
	}
	check(t, src, buf, `v.byteLength === 8`)
	commit()
	commit() // a second call does nothing
	check(t, src, buf, `v.byteLength === 0`)
	check(t, dst, v, `v.byteLength === 8 && new Uint8Array(v)[5] === 5`)
	if got := bufferBytes(t, v); &got[0] != &mem[0] {
		t.Error("the transferred buffer was copied")
	}
	if n := clone.PendingCount(); n != 0 {
		t.Errorf("%d buffers still pending", n)
	}
	// No transfer list: commit is a no-op, never nil.
	f, commit, err = clone.SerializeTransfer(src, src.ToValue(1), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	commit()
	f.Release()
}

// TestTransferListRejected checks each invalid transfer list: a
// DataCloneError, and nothing detached or marked.
func TestTransferListRejected(t *testing.T) {
	tests := []struct{ list, msg string }{
		{`[1]`, "the value at index 0 of the transfer list is not transferable (only ArrayBuffers are)."},
		{`[good, {}]`, "the value at index 1 of the transfer list is not transferable (only ArrayBuffers are)."},
		{`[good, new Uint8Array(2)]`, "the value at index 1 of the transfer list is not transferable (only ArrayBuffers are)."},
		{`[good, function () {}]`, "the value at index 1 of the transfer list is not transferable (only ArrayBuffers are)."},
		{`[good, good]`, "the ArrayBuffer at index 1 of the transfer list is listed more than once."},
		{`[good, detached]`, "the ArrayBuffer at index 1 of the transfer list is detached."},
		{`[undefined]`, "the value at index 0 of the transfer list is not transferable (only ArrayBuffers are)."},
	}
	for _, tt := range tests {
		t.Run(tt.list, func(t *testing.T) {
			rt := goja.New()
			run(t, rt, `var good = new ArrayBuffer(4); var detached = new ArrayBuffer(4);`)
			f, err := clone.Serialize(rt, run(t, rt, `detached`), clone.Options{Transfer: []goja.Value{run(t, rt, `detached`)}})
			if err != nil {
				t.Fatal(err)
			}
			f.Release()
			var list []goja.Value
			if err := rt.ExportTo(run(t, rt, tt.list), &list); err != nil {
				t.Fatal(err)
			}
			f, err = clone.Serialize(rt, run(t, rt, `({good})`), clone.Options{Transfer: list})
			if f != nil {
				t.Fatal("got a frame")
			}
			checkDataCloneError(t, rt, err, tt.msg)
			check(t, rt, run(t, rt, `good`), `v.byteLength === 4`)
			if n := clone.PendingCount(); n != 0 {
				t.Errorf("%d buffers still pending", n)
			}
		})
	}
}

// TestTransferValueRejected checks that a value that cannot be cloned
// leaves the listed buffers alone.
func TestTransferValueRejected(t *testing.T) {
	rt := goja.New()
	buf := run(t, rt, `var b = new ArrayBuffer(4); b`)
	for _, src := range []string{`({b, f() {}})`, `({b, get x() { throw new Error("boom"); }})`, `({b, s: "x".repeat(1000)})`} {
		_, err := clone.Serialize(rt, run(t, rt, src), clone.Options{Transfer: []goja.Value{buf}, MaxBytes: 100})
		if err == nil {
			t.Fatalf("%s: no error", src)
		}
		check(t, rt, buf, `v.byteLength === 4`)
		if n := clone.PendingCount(); n != 0 {
			t.Errorf("%s: %d buffers still pending", src, n)
		}
	}
}

// TestTransferNotCountedByMaxBytes checks that the cap counts the frame's
// bytes, not the memory it moves.
func TestTransferNotCountedByMaxBytes(t *testing.T) {
	rt := goja.New()
	buf := run(t, rt, `new ArrayBuffer(1 << 20)`)
	f, err := clone.Serialize(rt, buf, clone.Options{Transfer: []goja.Value{buf}, MaxBytes: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	if f.Len() > 64 {
		t.Errorf("frame of %d bytes", f.Len())
	}
	_, err = clone.Serialize(rt, run(t, rt, `new ArrayBuffer(1 << 20)`), clone.Options{MaxBytes: 64})
	if !errors.Is(err, clone.ErrFrameTooLarge) {
		t.Errorf("copying 1 MiB under a 64-byte cap: got %v", err)
	}
}

// TestHammerTransfer moves buffers back and forth between goroutines that
// each own a runtime and write into what they receive; the race detector
// checks that sender and receiver never touch the memory at the same time.
func TestHammerTransfer(t *testing.T) {
	const P = 3
	n := 300
	if testing.Short() {
		n = 60
	}
	var wg sync.WaitGroup
	for p := 0; p < P; p++ {
		ping, pong := make(chan *clone.Frame, 1), make(chan *clone.Frame, 1)
		player := func(in <-chan *clone.Frame, out chan<- *clone.Frame, first bool) {
			defer wg.Done()
			defer close(out)
			rt := goja.New()
			if first {
				f, err := clone.Serialize(rt, run(t, rt, `var b = new ArrayBuffer(256); b`), clone.Options{Transfer: []goja.Value{run(t, rt, `b`)}})
				if err != nil {
					t.Error(err)
					return
				}
				out <- f
			}
			for i := 0; i < n; i++ {
				f, ok := <-in
				if !ok {
					return
				}
				v, err := clone.Deserialize(rt, f)
				if err != nil {
					t.Error(err)
					return
				}
				if err := rt.Set("b", v); err != nil {
					t.Error(err)
					return
				}
				run(t, rt, `var u = new Uint32Array(b); for (var j = 0; j < u.length; j++) u[j]++;`)
				f, commit, err := clone.SerializeTransfer(rt, v, clone.Options{Transfer: []goja.Value{v}})
				if err != nil {
					t.Error(err)
					return
				}
				out <- f
				commit()
				if run(t, rt, `b.byteLength`).ToInteger() != 0 {
					t.Error("not detached after commit")
				}
			}
		}
		wg.Add(2)
		go player(pong, ping, true)
		go player(ping, pong, false)
	}
	wg.Wait()
	if n := clone.PendingCount(); n != 0 {
		t.Errorf("%d buffers still pending", n)
	}
}
