package sharedmem

import (
	"crypto/rand"
	"errors"
	"sync"
)

// A Token names one reference to a Block while it travels inside a frame: a
// random 128-bit value from crypto/rand, valid once. The frame's payload
// carries the token (through its manifest), never a pointer.
type Token [16]byte

// ErrUnknownToken is returned by Consume for a token that is not registered:
// forged, already consumed (replayed or duplicated) or discarded.
var ErrUnknownToken = errors.New("sharedmem: unknown or already used shared-memory token")

// The process-wide registry: token → the reference it holds.
var registry = struct {
	sync.Mutex
	m map[Token]*Block
}{m: map[Token]*Block{}}

// Register takes a new reference to b for a fresh token and returns the
// token. The reference is handed on by Consume or dropped by Discard.
// Any goroutine may call it.
func Register(b *Block) Token {
	b.Retain()
	for {
		var t Token
		rand.Read(t[:]) // never fails (crypto/rand aborts the process instead)
		registry.Lock()
		if _, dup := registry.m[t]; !dup {
			registry.m[t] = b
			registry.Unlock()
			return t
		}
		registry.Unlock()
	}
}

// Consume atomically removes t from the registry and hands its reference to
// the caller, who must Release it (typically after Wrap has taken its own).
// An unknown or already used token fails with ErrUnknownToken and changes
// nothing: deserializing a forged or replayed frame fails closed. Any
// goroutine may call it.
func Consume(t Token) (*Block, error) {
	registry.Lock()
	b, ok := registry.m[t]
	delete(registry.m, t)
	registry.Unlock()
	if !ok {
		return nil, ErrUnknownToken
	}
	return b, nil
}

// Discard consumes t and releases its reference: for frames released unread.
// An unknown token is a no-op, so a frame may discard every token it carries
// whether or not it was read. Any goroutine may call it.
func Discard(t Token) {
	if b, err := Consume(t); err == nil {
		b.Release()
	}
}

// Release discards the token (see Discard), so that a Token can sit in a
// frame's list of references (clone.Ref) and be given back when the frame is.
func (t Token) Release() { Discard(t) }

// RegistryLen returns the number of registered tokens: for leak checks in
// tests.
func RegistryLen() int {
	registry.Lock()
	defer registry.Unlock()
	return len(registry.m)
}
