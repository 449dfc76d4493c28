package clone_test

import (
	"crypto/rand"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// fakeShared is a stand-in for package sharedmem: a "SharedArrayBuffer" is
// an ArrayBuffer it made, and tokens are single-use entries of a table.
type fakeShared struct {
	mu       sync.Mutex
	shared   map[*goja.Object]bool
	tokens   map[clone.SharedToken][]byte
	released int
}

func newFakeShared() *fakeShared {
	return &fakeShared{shared: map[*goja.Object]bool{}, tokens: map[clone.SharedToken][]byte{}}
}

// make returns a new shared buffer of n bytes in rt.
func (s *fakeShared) make(rt *goja.Runtime, n int) *goja.Object {
	o := rt.ToValue(rt.NewArrayBuffer(make([]byte, n))).(*goja.Object)
	s.mu.Lock()
	s.shared[o] = true
	s.mu.Unlock()
	return o
}

func (s *fakeShared) counts() (tokens, released int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tokens), s.released
}

func (s *fakeShared) IsShared(_ *goja.Runtime, o *goja.Object) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shared[o]
}

func (s *fakeShared) Share(_ *goja.Runtime, o *goja.Object) (clone.SharedToken, int, clone.Ref, error) {
	var tok clone.SharedToken
	rand.Read(tok[:])
	b := o.Export().(goja.ArrayBuffer).Bytes()
	s.mu.Lock()
	s.tokens[tok] = b
	s.mu.Unlock()
	return tok, len(b), &fakeRef{s, tok}, nil
}

func (s *fakeShared) Attach(rt *goja.Runtime, tok clone.SharedToken, n int) (*goja.Object, error) {
	s.mu.Lock()
	b, ok := s.tokens[tok]
	delete(s.tokens, tok)
	s.mu.Unlock()
	if !ok {
		return nil, errors.New("fake: unknown or used token")
	}
	if len(b) != n {
		return nil, errors.New("fake: length mismatch")
	}
	o := rt.ToValue(rt.NewArrayBuffer(b)).(*goja.Object)
	s.mu.Lock()
	s.shared[o] = true
	s.mu.Unlock()
	return o, nil
}

type fakeRef struct {
	s   *fakeShared
	tok clone.SharedToken
}

func (r *fakeRef) Release() {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	delete(r.s.tokens, r.tok)
	r.s.released++
}

// sharedFrame is a version-2 frame whose manifest names one
// SharedArrayBuffer of 8 bytes, which is the value.
var sharedFrame = []byte{
	'J', 'S', 'W', 'C', 0x02, // magic, version 2
	0x01,                                                  // manifest: 1 entry
	'u',                                                   // a SharedArrayBuffer
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, // its token
	0x08,             // its byte length
	0, 0, 0, 0, 0, 0, // padding: the value starts at byte 32
	'u', 0x00, // the value: manifest entry 0
}

// countRef counts its releases.
type countRef struct{ n int }

func (r *countRef) Release() { r.n++ }

// TestSharedUnsupported checks that without a shared-memory implementation
// a frame holding a SharedArrayBuffer fails with a DataCloneError and still
// releases its references.
func TestSharedUnsupported(t *testing.T) {
	defer clone.SetSharedMemory(clone.CurrentSharedMemory())
	clone.SetSharedMemory(nil)
	ref := &countRef{}
	rt := goja.New()
	_, err := clone.Deserialize(rt, clone.NewFrame(append([]byte(nil), sharedFrame...), ref))
	checkDataCloneError(t, rt, err, "SharedArrayBuffer is not supported yet.")
	if ref.n != 1 {
		t.Errorf("reference released %d times, want 1", ref.n)
	}
}

func TestShared(t *testing.T) {
	s := newFakeShared()
	defer clone.SetSharedMemory(clone.CurrentSharedMemory())
	clone.SetSharedMemory(s)

	src := goja.New()
	sab := s.make(src, 16)
	src.Set("sab", sab)
	run(t, src, `new Uint8Array(sab)[2] = 7`)
	f, err := clone.Serialize(src, run(t, src, `({sab, view: new Int16Array(sab, 4, 2), again: sab})`), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tokens, _ := s.counts(); tokens != 1 {
		t.Fatalf("%d tokens issued, want 1", tokens)
	}
	// The manifest holds the token; the value refers to it.
	b := f.Bytes()
	if b[5] != 1 || b[6] != 'u' {
		t.Fatalf("manifest: % x", b[:8])
	}
	replay := append([]byte(nil), b...)

	dst := goja.New()
	v, err := clone.Deserialize(dst, f)
	if err != nil {
		t.Fatal(err)
	}
	check(t, dst, v, `v.sab === v.again && v.view.buffer === v.sab && v.view.byteOffset === 4 && new Uint8Array(v.sab)[2] === 7`)
	// Same memory: a write on one side shows on the other.
	run(t, dst, `new Uint8Array(v.sab)[0] = 99`)
	check(t, src, sab, `new Uint8Array(v)[0] === 99`)
	if tokens, released := s.counts(); tokens != 0 || released != 1 {
		t.Errorf("after Deserialize: %d tokens left, %d references released; want 0, 1", tokens, released)
	}

	// The token was single-use: replaying the frame fails.
	if _, err := clone.Deserialize(goja.New(), clone.NewFrame(replay)); err == nil || !strings.Contains(err.Error(), "unknown or used token") {
		t.Errorf("replayed token: got %v", err)
	}

	// A frame dropped unread releases its reference, and its token is gone.
	f, err = clone.Serialize(src, sab, clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Release()
	if tokens, released := s.counts(); tokens != 0 || released != 2 {
		t.Errorf("after Release: %d tokens left, %d references released; want 0, 2", tokens, released)
	}

	// A shared buffer cannot be transferred.
	_, err = clone.Serialize(src, sab, clone.Options{Transfer: []goja.Value{sab}})
	checkDataCloneError(t, src, err, "the SharedArrayBuffer at index 0 of the transfer list cannot be transferred.")

	// A failed Serialize gives back the references it took.
	_, err = clone.Serialize(src, run(t, src, `[sab, function f() {}]`), clone.Options{})
	checkDataCloneError(t, src, err, "could not be cloned.")
	if tokens, released := s.counts(); tokens != 0 || released != 3 {
		t.Errorf("after a failed Serialize: %d tokens left, %d references released; want 0, 3", tokens, released)
	}

	// The cap counts the manifest entry.
	full, err := clone.Serialize(src, sab, clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := full.Len()
	full.Release()
	if _, err := clone.Serialize(src, sab, clone.Options{MaxBytes: n - 1}); !errors.Is(err, clone.ErrFrameTooLarge) {
		t.Errorf("cap %d for a frame of %d: got %v", n-1, n, err)
	}
	f, err = clone.Serialize(src, sab, clone.Options{MaxBytes: n})
	if err != nil {
		t.Errorf("cap %d for a frame of %d: %v", n, n, err)
	}
	f.Release()
	if tokens, _ := s.counts(); tokens != 0 {
		t.Errorf("%d tokens left", tokens)
	}
}

// TestSharedMalformedReleases checks that a frame rejected after its
// manifest was read still releases its references.
func TestSharedMalformedReleases(t *testing.T) {
	s := newFakeShared()
	defer clone.SetSharedMemory(clone.CurrentSharedMemory())
	clone.SetSharedMemory(s)
	src := goja.New()
	f, err := clone.Serialize(src, s.make(src, 8), clone.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := append(append([]byte(nil), f.Bytes()...), 'X') // a trailing byte
	ref := &countRef{}
	if _, err := clone.Deserialize(goja.New(), clone.NewFrame(bad, ref)); !errors.Is(err, clone.ErrMalformedFrame) {
		t.Fatalf("got %v, want ErrMalformedFrame", err)
	}
	f.Release()
	if ref.n != 1 {
		t.Errorf("reference released %d times, want 1", ref.n)
	}
}
