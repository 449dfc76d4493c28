package core

import (
	"sync"
	"time"

	"github.com/jsworker/jsworker/clone"
)

// WaitForever is the timeout that makes Channel.Pop and Worker.Receive wait
// until a message arrives or the channel is closed and drained. Any negative
// duration means the same.
const WaitForever time.Duration = -1

// ChannelLimits bound one channel. A zero field takes the default.
type ChannelLimits struct {
	// MaxFrameBytes is the largest frame accepted (default 64 MiB).
	MaxFrameBytes int
	// MaxQueuedBytes bounds the bytes of all frames queued at once
	// (default 256 MiB).
	MaxQueuedBytes int
	// MaxQueuedMessages bounds the number of frames queued at once
	// (default 1024).
	MaxQueuedMessages int
}

// Default channel limits.
const (
	DefaultMaxFrameBytes     = 64 << 20
	DefaultMaxQueuedBytes    = 256 << 20
	DefaultMaxQueuedMessages = 1024
)

// withDefaults returns l with every zero (or negative) field replaced by its
// default.
func (l ChannelLimits) withDefaults() ChannelLimits {
	if l.MaxFrameBytes <= 0 {
		l.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if l.MaxQueuedBytes <= 0 {
		l.MaxQueuedBytes = DefaultMaxQueuedBytes
	}
	if l.MaxQueuedMessages <= 0 {
		l.MaxQueuedMessages = DefaultMaxQueuedMessages
	}
	return l
}

// slotChunk is the smallest number of queue slots reserved at a time.
const slotChunk = 16

// A Channel is a bounded FIFO of frames between two threads: one per
// direction per worker (the inbox, main→worker, and the outbox,
// worker→main).
//
// Push never blocks and either takes ownership of the frame or releases it
// before returning an error. Pop waits up to a timeout. Close stops pushes,
// wakes every waiter, and leaves queued frames poppable (drain, then stop).
// Destroy releases every frame never consumed.
//
// All methods are safe for concurrent use. A Channel must not be copied.
type Channel struct {
	limits ChannelLimits
	notify func() // called after each successful Push and after the first Close; may be nil

	mu     sync.Mutex
	slots  []*clone.Frame // live frames are slots[head:]
	head   int
	bytes  int           // bytes of live frames
	closed bool          // no more pushes
	signal chan struct{} // closed and replaced to wake waiters; nil when nobody waits

	alloc func(n int) ([]*clone.Frame, error) // reserves slot storage; replaced in tests
}

// NewChannel returns an open channel with the given limits (zero fields take
// the defaults). notify, if not nil, is called on the pushing goroutine after
// every successful Push, and once on the goroutine that first closes the
// channel; it must not call back into this channel's Push or Close.
func NewChannel(limits ChannelLimits, notify func()) *Channel {
	return newChannel(limits.withDefaults(), notify)
}

// newChannel returns a channel with exactly the given limits.
func newChannel(limits ChannelLimits, notify func()) *Channel {
	return &Channel{limits: limits, notify: notify, alloc: allocSlots}
}

// allocSlots makes slot storage of capacity n, turning a refused allocation
// into ErrOutOfMemory instead of a panic.
func allocSlots(n int) (s []*clone.Frame, err error) {
	defer func() {
		if recover() != nil {
			s, err = nil, ErrOutOfMemory
		}
	}()
	return make([]*clone.Frame, 0, n), nil
}

// Limits returns the channel's limits, defaults applied.
func (c *Channel) Limits() ChannelLimits { return c.limits }

// Push appends f. On success the channel owns f. On failure f (and every
// reference it carries) has been released and the error is ErrClosed,
// ErrFrameTooLarge, ErrQueueFull or ErrOutOfMemory.
func (c *Channel) Push(f *clone.Frame) error {
	if f == nil {
		return nil
	}
	n := f.Len()
	c.mu.Lock()
	err := c.pushLocked(f, n)
	var sig chan struct{}
	if err == nil {
		sig, c.signal = c.signal, nil
	}
	c.mu.Unlock()
	if err != nil {
		f.Release()
		return err
	}
	if sig != nil {
		close(sig)
	}
	if c.notify != nil {
		c.notify()
	}
	return nil
}

func (c *Channel) pushLocked(f *clone.Frame, n int) error {
	switch {
	case c.closed:
		return ErrClosed
	case n > c.limits.MaxFrameBytes:
		return ErrFrameTooLarge
	case len(c.slots)-c.head >= c.limits.MaxQueuedMessages, c.bytes+n > c.limits.MaxQueuedBytes:
		return ErrQueueFull
	}
	if len(c.slots) == cap(c.slots) {
		if err := c.makeRoomLocked(); err != nil {
			return err
		}
	}
	c.slots = append(c.slots, f)
	c.bytes += n
	return nil
}

// makeRoomLocked is called when the slot storage is full. It first compacts
// the dead prefix; only a channel with no dead prefix grows, by at least a
// chunk, never beyond MaxQueuedMessages.
func (c *Channel) makeRoomLocked() error {
	if c.head > 0 {
		live := copy(c.slots, c.slots[c.head:])
		clear(c.slots[live:])
		c.slots = c.slots[:live]
		c.head = 0
		return nil
	}
	n := max(2*cap(c.slots), slotChunk)
	n = min(n, max(c.limits.MaxQueuedMessages, cap(c.slots)+1))
	s, err := c.alloc(n)
	if err != nil {
		return err
	}
	c.slots = append(s, c.slots...)
	return nil
}

// Pop removes and returns the oldest frame; the caller owns it.
//
// A zero timeout polls: Pop returns at once, without a timed wait. A negative
// timeout (WaitForever) waits as long as it takes. Pop returns (nil, false)
// when the timeout passes with nothing queued, or when the channel is closed
// and drained; Closed tells the two apart.
func (c *Channel) Pop(timeout time.Duration) (*clone.Frame, bool) {
	c.mu.Lock()
	if f := c.popLocked(); f != nil || c.closed || timeout == 0 {
		c.mu.Unlock()
		return f, f != nil
	}
	c.mu.Unlock()

	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	for {
		c.mu.Lock()
		if f := c.popLocked(); f != nil || c.closed {
			c.mu.Unlock()
			return f, f != nil
		}
		if c.signal == nil {
			c.signal = make(chan struct{})
		}
		sig := c.signal
		c.mu.Unlock()
		select {
		case <-sig:
		case <-expired:
			c.mu.Lock()
			f := c.popLocked()
			c.mu.Unlock()
			return f, f != nil
		}
	}
}

func (c *Channel) popLocked() *clone.Frame {
	if c.head == len(c.slots) {
		return nil
	}
	f := c.slots[c.head]
	c.slots[c.head] = nil
	c.head++
	if c.head == len(c.slots) { // empty: reuse the storage from the start
		c.slots, c.head = c.slots[:0], 0
	}
	c.bytes -= f.Len()
	return f
}

// Len returns the number of queued frames and their total bytes.
func (c *Channel) Len() (messages, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.slots) - c.head, c.bytes
}

// Close stops further pushes and wakes every waiting Pop. Frames already
// queued stay poppable. Close is idempotent; it reports whether this call
// closed the channel.
func (c *Channel) Close() bool {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return false
	}
	c.closed = true
	sig := c.signal
	c.signal = nil
	c.mu.Unlock()
	if sig != nil {
		close(sig)
	}
	if c.notify != nil {
		c.notify()
	}
	return true
}

// Closed reports whether Close has been called.
func (c *Channel) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Destroy closes the channel and releases every frame never consumed. The
// channel stays usable as a closed, empty channel.
func (c *Channel) Destroy() {
	c.Close()
	c.mu.Lock()
	live := c.slots[c.head:]
	c.slots, c.head, c.bytes = nil, 0, 0
	c.mu.Unlock()
	for _, f := range live {
		f.Release()
	}
}
