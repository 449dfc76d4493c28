package capi

import "sync/atomic"

// Value handles live in blocks, not in the handle table one by one. A context hands out JSValueRefs from its
// current block of blockSize consecutive handles, reserved from one process-wide counter: making, resolving and
// releasing a value touch only the context's own memory (no lock, no map), and the table holds one entry per block,
// under the block's first handle, so that a handle can still be told apart from any thread: a value of another
// context or thread, a released one, one of another kind (resolve's messages). A handle is never given out twice:
// blocks take fresh ranges, and a block leaves the table once every one of its handles was given out and released.
//
// A value handle is valueBase + seq<<shardBits + shard, seq = block<<blockBits + slot, the shard being the creating
// thread's as for every handle (handles.go); value handles are above valueBase, every other handle below it.

// blockBits is log2 of the handles in a block.
const blockBits = 8

// blockSize is the number of handles in a block.
const blockSize = 1 << blockBits

// valueBase is where value handles start: far above every other handle (firstHandle + seq<<shardBits with a
// sequence that never reaches 2^55), and a multiple of the shard count so that shardOf works for both.
const valueBase uintptr = 1 << 62

// blockSeq numbers the blocks handed out.
var blockSeq atomic.Uint64

// A valueBlock holds the values of blockSize consecutive handles of one context. c and tid never change; the rest
// is the owner thread's: no lock and no atomic operation on the path of a value.
type valueBlock struct {
	c    *context
	tid  int
	key  uintptr // the handle of slot 0: the block's key in the handle table
	next int     // slots handed out
	idx  int     // index in c.blocks
	live int     // values placed and not yet released
	vals [blockSize]*value
}

// isValueHandle reports whether h is in the value handles' range.
func isValueHandle(h uintptr) bool { return h >= valueBase }

// blockKeyOf returns the key of the block value handle h belongs to, and h's slot in it.
func blockKeyOf(h uintptr) (key uintptr, slot int) {
	off := h - valueBase
	seq := off >> shardBits
	return valueBase + (seq&^(blockSize-1))<<shardBits + off&shardMask, int(seq & (blockSize - 1))
}

// at returns the live value of handle h in b, or nil. Only b's owner may call it.
func (b *valueBlock) at(h uintptr) *value {
	_, slot := blockKeyOf(h)
	if val := b.vals[slot]; val != nil && val.h == h {
		return val
	}
	return nil
}

// newBlock starts a new current block for c and registers it.
func (c *context) newBlock() *valueBlock {
	if b := c.blk; b != nil && b.live == 0 {
		c.dropBlock(b) // every handle of the full block was released already
	}
	b := &valueBlock{c: c, tid: c.tid, idx: len(c.blocks)}
	seq := blockSeq.Add(1) << blockBits
	b.key = valueBase + uintptr(seq)<<shardBits + uintptr(c.tid)&shardMask
	handles.put(b.key, entry{kind: kindValueBlock, tid: c.tid, obj: b})
	c.blocks = append(c.blocks, b)
	c.blk = b
	return b
}

// dropBlock forgets b: its handles are all given out and released.
func (c *context) dropBlock(b *valueBlock) {
	handles.remove(b.key)
	last := len(c.blocks) - 1
	c.blocks[b.idx] = c.blocks[last]
	c.blocks[b.idx].idx = b.idx
	c.blocks[last] = nil
	c.blocks = c.blocks[:last]
	if c.blk == b {
		c.blk = nil
	}
}

// placeValue gives val the next handle of c's current block.
func (c *context) placeValue(val *value) {
	b := c.blk
	if b == nil || b.next == blockSize {
		b = c.newBlock()
	}
	val.h = b.key + uintptr(b.next)<<shardBits
	val.blk = b
	b.vals[b.next] = val
	b.next++
	b.live++
}

// unplaceValue ends the handle of val (its record may then be reused).
func (c *context) unplaceValue(val *value) {
	b := val.blk
	_, slot := blockKeyOf(val.h)
	b.vals[slot] = nil
	val.blk = nil
	if b.live--; b.live == 0 && b.next == blockSize {
		c.dropBlock(b)
	}
}

// lookupValue returns c's live value of handle h, or nil: the fast path of resolve for c's owner.
func (c *context) lookupValue(h uintptr) *value {
	if b := c.blk; b != nil && h-b.key < blockSize<<shardBits && (h-b.key)&shardMask == 0 {
		return b.at(h)
	}
	return nil
}

// dropBlocks forgets every block of c (its destruction).
func (c *context) dropBlocks() {
	keys := make([]uintptr, 0, len(c.blocks))
	for _, b := range c.blocks {
		keys = append(keys, b.key)
		b.live = 0
	}
	handles.remove(keys...)
	c.blocks, c.blk = nil, nil
}
