package core

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jsworker/jsworker/clone"
)

// countRef counts how often a frame releases the reference it carries.
type countRef struct{ n atomic.Int32 }

func (r *countRef) Release() { r.n.Add(1) }

func frame(n int, refs ...clone.Ref) *clone.Frame { return clone.NewFrame(make([]byte, n), refs...) }

func TestChannel_FIFOWithoutFrontShifts(t *testing.T) {
	c := NewChannel(ChannelLimits{}, nil)
	var sent []*clone.Frame
	for i := range 10 {
		f := frame(i + 1)
		sent = append(sent, f)
		if err := c.Push(f); err != nil {
			t.Fatal(err)
		}
	}
	base := &c.slots[:1][0]
	for i := range 5 {
		f, ok := c.Pop(0)
		if !ok || f != sent[i] {
			t.Fatalf("pop %d: got %v, want frame %d", i, f, i)
		}
		if c.head != i+1 {
			t.Fatalf("head = %d after %d pops, want %d (a cursor, not a shift)", c.head, i+1, i+1)
		}
		if &c.slots[:1][0] != base {
			t.Fatal("the backing array moved on pop")
		}
	}
	if n, b := c.Len(); n != 5 || b != 6+7+8+9+10 {
		t.Fatalf("Len = %d messages, %d bytes; want 5, 40", n, b)
	}
	for i := 5; i < 10; i++ {
		if f, _ := c.Pop(0); f != sent[i] {
			t.Fatalf("pop %d out of order", i)
		}
	}
	if n, b := c.Len(); n != 0 || b != 0 {
		t.Fatalf("Len after draining = %d, %d", n, b)
	}
}

func TestChannel_ReservesInChunksAndCompactsBeforeGrowing(t *testing.T) {
	c := NewChannel(ChannelLimits{}, nil)
	c.Push(frame(1))
	if cap(c.slots) != slotChunk {
		t.Fatalf("first reservation = %d slots, want a chunk of %d", cap(c.slots), slotChunk)
	}
	for len(c.slots) < slotChunk {
		c.Push(frame(1))
	}
	for range 10 {
		c.Pop(0)
	}
	// Full storage with a dead prefix of 10: the next push compacts.
	if err := c.Push(frame(1)); err != nil {
		t.Fatal(err)
	}
	if cap(c.slots) != slotChunk || c.head != 0 || len(c.slots) != 7 {
		t.Fatalf("after compaction cap=%d head=%d len=%d; want %d, 0, 7", cap(c.slots), c.head, len(c.slots), slotChunk)
	}
	for len(c.slots) < slotChunk {
		c.Push(frame(1))
	}
	c.Push(frame(1)) // no dead prefix: grows
	if cap(c.slots) != 2*slotChunk {
		t.Fatalf("grew to %d slots, want %d", cap(c.slots), 2*slotChunk)
	}
	c.Destroy()
}

func TestChannel_Limits(t *testing.T) {
	tests := []struct {
		name   string
		limits ChannelLimits
		sizes  []int // pushed in order; only the last one fails
		want   error
	}{
		{"a 2-byte frame cap rejects 3 bytes", ChannelLimits{MaxFrameBytes: 2}, []int{2, 3}, ErrFrameTooLarge},
		{"a 3-byte queue cap rejects the 4th byte", ChannelLimits{MaxQueuedBytes: 3}, []int{1, 2, 1}, ErrQueueFull},
		{"a 2-message cap rejects the third", ChannelLimits{MaxQueuedMessages: 2}, []int{1, 1, 1}, ErrQueueFull},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := NewChannel(tt.limits, nil)
			defer c.Destroy()
			last := len(tt.sizes) - 1
			for _, n := range tt.sizes[:last] {
				if err := c.Push(frame(n)); err != nil {
					t.Fatalf("push %d bytes: %v", n, err)
				}
			}
			ref := &countRef{}
			f := frame(tt.sizes[last], ref)
			if err := c.Push(f); !errors.Is(err, tt.want) {
				t.Fatalf("push = %v, want %v", err, tt.want)
			}
			if !f.Released() || ref.n.Load() != 1 {
				t.Fatalf("rejected frame released=%v, ref released %d times; want true, 1", f.Released(), ref.n.Load())
			}
			// Accounting goes down on pop: room for the frame again.
			c.Pop(0)
			if tt.want == ErrQueueFull {
				if err := c.Push(frame(tt.sizes[last])); err != nil {
					t.Fatalf("push after a pop: %v", err)
				}
			}
		})
	}
}

func TestChannel_OutOfMemoryLeavesQueueUnchanged(t *testing.T) {
	c := NewChannel(ChannelLimits{}, nil)
	defer c.Destroy()
	var sent []*clone.Frame
	for range slotChunk {
		f := frame(2)
		sent = append(sent, f)
		c.Push(f)
	}
	c.alloc = func(int) ([]*clone.Frame, error) { return nil, ErrOutOfMemory }
	ref := &countRef{}
	f := frame(2, ref)
	if err := c.Push(f); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("push = %v, want ErrOutOfMemory", err)
	}
	if ref.n.Load() != 1 {
		t.Fatalf("ref released %d times, want 1", ref.n.Load())
	}
	if n, b := c.Len(); n != slotChunk || b != 2*slotChunk {
		t.Fatalf("Len = %d, %d; want %d, %d", n, b, slotChunk, 2*slotChunk)
	}
	for i := range slotChunk {
		if g, _ := c.Pop(0); g != sent[i] {
			t.Fatalf("frame %d changed", i)
		}
	}
	// The real allocator refuses impossible sizes instead of panicking.
	if _, err := allocSlots(-1); !errors.Is(err, ErrOutOfMemory) {
		t.Fatalf("allocSlots(-1) = %v", err)
	}
}

func TestChannel_ZeroTimeoutPollReturnsAtOnce(t *testing.T) {
	c := NewChannel(ChannelLimits{}, nil)
	defer c.Destroy()
	start := time.Now()
	if f, ok := c.Pop(0); ok || f != nil {
		t.Fatal("poll of an empty channel returned a frame")
	}
	if c.signal != nil {
		t.Fatal("a zero-timeout poll registered as a waiter")
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("poll took %v", d)
	}
	if _, ok := c.Pop(time.Millisecond); ok {
		t.Fatal("timed pop of an empty channel returned a frame")
	}
}

func TestChannel_CloseDrainsThenStops(t *testing.T) {
	var notes atomic.Int32
	c := NewChannel(ChannelLimits{}, func() { notes.Add(1) })
	a, b := frame(1), frame(2)
	c.Push(a)
	c.Push(b)
	if !c.Close() || c.Close() {
		t.Fatal("Close should report true once, then false")
	}
	ref := &countRef{}
	if err := c.Push(frame(1, ref)); !errors.Is(err, ErrClosed) || ref.n.Load() != 1 {
		t.Fatalf("push after close = %v (ref released %d); want ErrClosed, 1", err, ref.n.Load())
	}
	if f, _ := c.Pop(WaitForever); f != a {
		t.Fatal("first queued frame not poppable after close")
	}
	if f, _ := c.Pop(WaitForever); f != b {
		t.Fatal("second queued frame not poppable after close")
	}
	if f, ok := c.Pop(WaitForever); ok || f != nil {
		t.Fatal("closed, drained channel returned a frame")
	}
	if n := notes.Load(); n != 3 {
		t.Fatalf("notify called %d times, want 3 (2 pushes + 1 close)", n)
	}
}

func TestChannel_CloseWakesEveryWaiter(t *testing.T) {
	c := NewChannel(ChannelLimits{}, nil)
	var wg sync.WaitGroup
	results := make(chan bool, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, ok := c.Pop(WaitForever)
			results <- ok
		}()
	}
	// Wait until all four are parked, without sleeping to order events.
	for deadline := time.Now().Add(10 * time.Second); ; {
		c.mu.Lock()
		parked := c.signal != nil
		c.mu.Unlock()
		if parked || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	c.Close()
	wg.Wait()
	close(results)
	for ok := range results {
		if ok {
			t.Fatal("a waiter got a frame from an empty closed channel")
		}
	}
}

func TestChannel_PushWakesWaiter(t *testing.T) {
	c := NewChannel(ChannelLimits{}, nil)
	defer c.Destroy()
	got := make(chan *clone.Frame)
	go func() {
		f, _ := c.Pop(WaitForever)
		got <- f
	}()
	f := frame(3)
	c.Push(f)
	select {
	case g := <-got:
		if g != f {
			t.Fatal("waiter got the wrong frame")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("waiter not woken by push")
	}
}

func TestChannel_DestroyReleasesUnconsumedFrames(t *testing.T) {
	c := NewChannel(ChannelLimits{}, nil)
	refs := []*countRef{{}, {}, {}}
	for _, r := range refs {
		c.Push(frame(1, r))
	}
	f, _ := c.Pop(0) // consumed: the reader owns it now
	c.Destroy()
	c.Destroy()
	if refs[0].n.Load() != 0 {
		t.Fatal("Destroy released a frame it no longer owned")
	}
	for i, r := range refs[1:] {
		if r.n.Load() != 1 {
			t.Fatalf("unconsumed frame %d released %d times, want 1", i+1, r.n.Load())
		}
	}
	f.Release()
	f.Release()
	if refs[0].n.Load() != 1 {
		t.Fatal("Frame.Release is not exactly-once")
	}
	if err := c.Push(frame(1)); !errors.Is(err, ErrClosed) {
		t.Fatalf("push after Destroy = %v", err)
	}
}

// TestChannel_Hammer pushes from P producers while one consumer pops; every
// frame arrives exactly once and per-producer order holds.
func TestChannel_Hammer(t *testing.T) {
	producers, perProducer := 4, 20000
	if testing.Short() {
		perProducer = 2000
	}
	c := NewChannel(ChannelLimits{MaxQueuedMessages: 64}, nil)
	var wg sync.WaitGroup
	for p := range producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < perProducer; {
				b := []byte{byte(p), byte(i), byte(i >> 8), byte(i >> 16)}
				if err := c.Push(clone.NewFrame(b)); err == nil {
					i++
				} else if errors.Is(err, ErrQueueFull) {
					runtime.Gosched() // let the consumer make room
				} else {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); c.Close() }()
	next := make([]int, producers)
	for {
		f, ok := c.Pop(WaitForever)
		if !ok {
			break
		}
		b := f.Bytes()
		p, i := int(b[0]), int(b[1])|int(b[2])<<8|int(b[3])<<16
		if i != next[p] {
			t.Fatalf("producer %d: got %d, want %d", p, i, next[p])
		}
		next[p]++
		f.Release()
	}
	for p, n := range next {
		if n != perProducer {
			t.Fatalf("producer %d: %d frames arrived, want %d", p, n, perProducer)
		}
	}
}
