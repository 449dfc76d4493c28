package clone

import (
	"errors"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/sharedmem"
)

// sharedBlocks plugs package sharedmem into the SharedMemory hook: a
// SharedArrayBuffer travels as a single-use token of sharedmem's process-wide
// registry, and the receiving realm wraps the same block.
type sharedBlocks struct{}

func init() { SetSharedMemory(sharedBlocks{}) }

func (sharedBlocks) IsShared(rt *goja.Runtime, o *goja.Object) bool {
	_, ok := sharedmem.BlockOf(rt, o)
	return ok
}

// Share registers a token holding its own reference to the block; the token
// is the frame's Ref, so releasing the frame discards it (a no-op once
// Attach consumed it).
func (sharedBlocks) Share(rt *goja.Runtime, o *goja.Object) (SharedToken, int, Ref, error) {
	b, ok := sharedmem.BlockOf(rt, o)
	if !ok {
		return SharedToken{}, 0, nil, errors.New("jsworker: not a SharedArrayBuffer")
	}
	tok := sharedmem.Register(b)
	return SharedToken(tok), b.ByteLength(), tok, nil
}

// Attach consumes the token and wraps its block in rt; the wrapper holds its
// own reference, so the token's is given back.
func (sharedBlocks) Attach(rt *goja.Runtime, tok SharedToken, byteLength int) (*goja.Object, error) {
	b, err := sharedmem.Consume(sharedmem.Token(tok))
	if err != nil {
		return nil, &DataCloneError{Message: "the SharedArrayBuffer's token is unknown or was already used"}
	}
	defer b.Release()
	if b.ByteLength() < byteLength {
		return nil, &DataCloneError{Message: "the SharedArrayBuffer is smaller than the frame says"}
	}
	return sharedmem.Wrap(rt, b)
}
