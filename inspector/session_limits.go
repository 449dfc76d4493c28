package inspector

// QueueLimits bound what a Session holds for a client that does not keep up:
// the messages queued for it and the commands it has in flight. A zero field
// takes the value of DefaultQueueLimits.
//
// When a message would take the queue past MaxQueued messages or
// MaxQueuedBytes bytes, the session ends at once as Close ends it, its queue
// is discarded (that memory is what the limit protects), and Overflowed
// reports it: Next returns PumpClosed. A response larger than MaxMessageBytes
// is replaced by an error response naming the limit; an event that large is
// dropped. A command dispatched while MaxPending commands await their
// responses is answered at once with an error ("too many pending
// commands"), and nothing is run.
type QueueLimits struct {
	MaxQueued       int // messages queued and not yet taken by Next
	MaxQueuedBytes  int // their total size
	MaxMessageBytes int // one response or event
	MaxPending      int // commands accepted and not yet answered
}

// DefaultQueueLimits are the limits of every Session until SetLimits: room
// for a host that pumps late, never for one that stopped pumping.
var DefaultQueueLimits = QueueLimits{
	MaxQueued:       100_000,
	MaxQueuedBytes:  256 << 20,
	MaxMessageBytes: 64 << 20,
	MaxPending:      4096,
}

// Error texts of the limits.
const (
	msgTooManyPending  = "Too many pending commands: wait for responses before sending more"
	msgResponseTooBig  = "Response too large"
	reasonOverflowText = "the client did not read its messages: the session's queue is full"
)

// OverflowReason is the text a transport closes a session with when
// Overflowed reports true (the DevTools endpoint sends it as the WebSocket
// close reason).
const OverflowReason = reasonOverflowText

// SetLimits sets the session's queue limits (zero fields: the defaults).
// Call it before the session is used, as NewSession's caller.
func (s *Session) SetLimits(l QueueLimits) {
	d := DefaultQueueLimits
	if l.MaxQueued <= 0 {
		l.MaxQueued = d.MaxQueued
	}
	if l.MaxQueuedBytes <= 0 {
		l.MaxQueuedBytes = d.MaxQueuedBytes
	}
	if l.MaxMessageBytes <= 0 {
		l.MaxMessageBytes = d.MaxMessageBytes
	}
	if l.MaxPending <= 0 {
		l.MaxPending = d.MaxPending
	}
	s.mu.Lock()
	s.limits = l
	s.mu.Unlock()
}

// Overflowed reports whether the session ended because its queue passed
// its limits (QueueLimits).
func (s *Session) Overflowed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.overflowed
}

// pushLocked queues msg within the limits; s.mu is held and the session is
// open. Past the limits the session ends (overflowLocked).
func (s *Session) pushLocked(msg []byte) {
	if len(s.queue)-s.head+1 > s.limits.MaxQueued || s.queuedBytes+len(msg) > s.limits.MaxQueuedBytes {
		s.overflowLocked()
		return
	}
	s.appendLocked(msg)
}

// appendLocked queues msg without a limit check: the session's own last
// messages (end) and the first one (NewSession).
func (s *Session) appendLocked(msg []byte) {
	s.queue = append(s.queue, msg)
	s.queuedBytes += len(msg)
	s.signal()
}

// overflowLocked ends an open session whose client does not keep up: like
// Close, but the queue is discarded. The objects the session holds are
// dropped by Close, run on another goroutine because s.mu is held here (Close
// takes it, and may run the drop on the calling thread).
func (s *Session) overflowLocked() {
	if s.state != stateOpen {
		return
	}
	s.state = stateClosed
	s.overflowed = true
	s.pending = nil
	clear(s.queue)
	s.queue, s.head, s.queuedBytes = nil, 0, 0
	close(s.ended)
	go s.Close()
}

// tooManyPendingLocked reports whether another command would pass
// MaxPending; s.mu is held.
func (s *Session) tooManyPendingLocked() bool {
	return len(s.pending) >= s.limits.MaxPending
}
