package inspector

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
)

type sessionState uint8

const (
	stateOpen   sessionState = iota
	stateClosed              // Close was called: nothing more is queued, the queue drains
	stateEnded               // the target ended: final messages were queued, the queue drains
)

var lastSessionID atomic.Uint64

// A Session is one CDP client attached to one Target: it accepts commands,
// runs them on the target's thread and queues their responses and the events
// of the target for the client to take with Next.
//
// A Session is created by NewSession and ends with Close or with the end of
// its target (TargetClosed); it may not be reused after that. Dispatch, Next,
// Close, HeldObjects, ID and Dropped may be called from any goroutine.
// ConsoleAPICalled, ExceptionThrown and TargetClosed are called by the
// target's owner on the target's thread. A Session must not be copied.
//
// Objects the session hands out as objectIds stay alive until the client
// releases them, Runtime.disable runs, the session is closed or the target
// ends; the session then drops each exactly once.
type Session struct {
	target Target
	ctx    ContextInfo
	id     uint64

	mu           sync.Mutex
	state        sessionState
	closeCalled  bool
	queue        [][]byte
	head         int
	queuedBytes  int              // the size of queue[head:]
	limits       QueueLimits      // session_limits.go
	overflowed   bool             // the session ended because its queue passed limits
	pending      map[uint64]int64 // accepted commands not yet answered: token -> message id
	nextToken    uint64
	enabled      bool // Runtime.enable is in force
	store        objectStore
	exceptionSeq int
	tools        *realmTools   // the realm's builtins, once this session needed them
	toolsRT      *goja.Runtime // the realm they came from, to release them
	sessionExt                 // Profiler state and compiled scripts (session_ext.go); the target's thread only

	wake    chan struct{} // one pending wake-up for Next waiters
	ended   chan struct{} // closed when the state leaves stateOpen
	dropped chan struct{} // closed once every held object has been dropped
}

// NewSession attaches a new session to t.
//
// The session starts with one event queued, Runtime.executionContextsCleared
// (no parameters), so that the first Next returns PumpMessage: a real CDP
// event whose meaning ("forget the contexts you know") is true and harmless
// for a client that has just attached. Runtime.enable then reports the
// target's context with Runtime.executionContextCreated.
func NewSession(t Target) *Session {
	s := &Session{
		target:  t,
		ctx:     t.Context(),
		id:      lastSessionID.Add(1),
		pending: make(map[uint64]int64),
		limits:  DefaultQueueLimits,
		wake:    make(chan struct{}, 1),
		ended:   make(chan struct{}),
		dropped: make(chan struct{}),
	}
	s.store.prefix = strconv.FormatUint(s.id, 10) + "." + strconv.Itoa(s.ctx.ID) + "."
	s.appendLocked(encodeEvent(evContextsCleared, empty{})) // no other goroutine knows s yet
	return s
}

// ID returns the session's process-wide number: never 0, never reused.
func (s *Session) ID() uint64 { return s.id }

// Dispatch accepts one CDP command. It copies msg and returns at once.
//
// A message that is not a command (malformed JSON, no integer id, no string
// method, params not an object) or names a method this package does not
// implement gets its error response queued at once. Every other command runs
// on the target's thread through Target.Run and its response is queued from
// there; if the target has ended, the command is answered with an error.
//
// # Errors
//
// Dispatch returns ErrClosed, and queues nothing, once the session was closed
// or its target ended.
func (s *Session) Dispatch(msg []byte) error {
	cmd, errMsg := parseCommand(msg)
	var h handler
	if errMsg == nil {
		if h = handlers[cmd.method]; h == nil {
			if why := absentDomain(cmd.method); why != "" {
				errMsg = encodeError(&cmd.id, codeServerError, why, "")
			} else {
				errMsg = encodeError(&cmd.id, codeMethodNotFound, "'"+cmd.method+"' wasn't found", "")
			}
		}
	}
	s.mu.Lock()
	if s.state != stateOpen {
		s.mu.Unlock()
		return ErrClosed
	}
	if errMsg == nil && s.tooManyPendingLocked() {
		errMsg = encodeError(&cmd.id, codeServerError, msgTooManyPending, "")
	}
	if errMsg != nil {
		s.pushLocked(errMsg)
		s.mu.Unlock()
		return nil
	}
	s.nextToken++
	tok := s.nextToken
	s.pending[tok] = cmd.id
	s.mu.Unlock()
	if !s.target.Run(func(rt *goja.Runtime) { s.run(rt, tok, cmd, h) }) {
		s.targetGone()
	}
	return nil
}

// run executes one command on the target's thread.
func (s *Session) run(rt *goja.Runtime, tok uint64, cmd command, h handler) {
	if !s.isOpen() {
		return
	}
	c := &call{s: s, rt: rt, tok: tok, id: cmd.id, params: cmd.params}
	defer c.fence()
	h(c)
}

// Next takes the oldest queued message. A timeout of 0 polls; a negative
// timeout waits until a message comes or the session closes.
//
// It returns (message, PumpMessage); (nil, PumpTimeout) when nothing came in
// time; (nil, PumpClosed) once the session was closed or its target ended and
// every message queued before that was taken. The message belongs to the
// caller.
func (s *Session) Next(timeout time.Duration) ([]byte, PumpResult) {
	var deadline <-chan time.Time
	for {
		s.mu.Lock()
		if s.head < len(s.queue) {
			msg := s.queue[s.head]
			s.queue[s.head] = nil
			s.head++
			s.queuedBytes -= len(msg)
			more := s.head < len(s.queue)
			if !more {
				s.queue, s.head = s.queue[:0], 0
			}
			s.mu.Unlock()
			if more {
				s.signal() // another waiter may take the next one
			}
			return msg, PumpMessage
		}
		open := s.state == stateOpen
		s.mu.Unlock()
		if !open {
			return nil, PumpClosed
		}
		if timeout == 0 {
			return nil, PumpTimeout
		}
		if deadline == nil && timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			deadline = t.C
		}
		select {
		case <-s.wake:
		case <-s.ended:
		case <-deadline:
			return nil, PumpTimeout
		}
	}
}

// Close detaches the session: no command of it runs any more, nothing more is
// queued, and every object it holds is dropped exactly once — on the target's
// thread through Target.Run when the target still runs tasks, otherwise at
// once. Next then returns what was already queued, then PumpClosed.
//
// Close returns without waiting for the drop; Dropped reports it. Close is
// idempotent and may be called from any goroutine, including from code
// handling a message of this session and from the target's thread.
func (s *Session) Close() {
	s.mu.Lock()
	if s.closeCalled {
		s.mu.Unlock()
		return
	}
	s.closeCalled = true
	if s.state == stateOpen {
		s.state = stateClosed
		s.pending = nil
		close(s.ended)
	}
	s.mu.Unlock()
	if !s.target.Run(func(*goja.Runtime) { s.detachDebugger(); s.dropObjects() }) {
		s.dropObjects()
	}
}

// Dropped returns a channel closed once the session has dropped every object
// it held, after Close or the end of its target. A host that must not return
// before the target let go of the session's objects waits on it (from a
// goroutine other than the target's).
func (s *Session) Dropped() <-chan struct{} { return s.dropped }

// TargetClosed tells the session that its target ended. Called by the
// target's owner on the target's thread (or after the thread ended), once the
// target runs no more tasks; later calls do nothing.
//
// The session queues Runtime.executionContextDestroyed (when Runtime is
// enabled), an error response for every accepted command not yet answered
// ("Inspected target navigated or closed"), and Inspector.detached with reason
// "target_closed"; it drops every held object. Next returns those messages,
// then PumpClosed.
func (s *Session) TargetClosed() {
	s.end()
	s.dropObjects()
}

// targetGone is TargetClosed for a Run that returned false, off the target's
// thread: the target runs nothing any more, so dropping here is safe.
func (s *Session) targetGone() {
	s.end()
	s.dropObjects()
}

// HeldObjects returns how many objects the session keeps alive for its
// objectIds. It is 0 once Dropped is closed.
func (s *Session) HeldObjects() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.store.objects)
}

// end queues the final messages of a target that ended.
func (s *Session) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateOpen {
		return
	}
	if s.enabled {
		s.appendLocked(encodeEvent(evContextDestroyed, contextDestroyedParams{
			ExecutionContextID:       s.ctx.ID,
			ExecutionContextUniqueID: s.ctx.UniqueID,
		}))
	}
	toks := make([]uint64, 0, len(s.pending))
	for tok := range s.pending {
		toks = append(toks, tok)
	}
	slices.Sort(toks) // answer in dispatch order
	for _, tok := range toks {
		id := s.pending[tok]
		s.appendLocked(encodeError(&id, codeServerError, msgTargetGone, ""))
	}
	s.appendLocked(encodeEvent(evDetached, detachedParams{Reason: "target_closed"}))
	s.pending = nil
	s.state = stateEnded
	close(s.ended)
}

// dropObjects drops every held object and the realm tools, once.
func (s *Session) dropObjects() {
	s.mu.Lock()
	if s.store.dropped {
		s.mu.Unlock()
		return
	}
	s.store.dropAll()
	rt := s.toolsRT
	s.tools, s.toolsRT = nil, nil
	s.mu.Unlock()
	if rt != nil {
		releaseTools(rt)
	}
	close(s.dropped)
}

func (s *Session) isOpen() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state == stateOpen
}

func (s *Session) isEnabled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state == stateOpen && s.enabled
}

func (s *Session) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// emit queues an event while the session is open.
func (s *Session) emit(msg []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == stateOpen && len(msg) <= s.limits.MaxMessageBytes {
		s.pushLocked(msg)
	}
}

// answer queues the response of the command with token tok, once: a second
// answer, or one after the session closed, is dropped.
func (s *Session) answer(tok uint64, msg []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateOpen {
		return
	}
	id, ok := s.pending[tok]
	if !ok {
		return
	}
	delete(s.pending, tok)
	if len(msg) > s.limits.MaxMessageBytes {
		msg = encodeError(&id, codeServerError, msgResponseTooBig, "")
	}
	s.pushLocked(msg)
}

// realmTools returns the realm's captured builtins, capturing them on first
// use. On the target's thread. Never nil: a failed capture yields empty tools.
func (s *Session) realmTools(rt *goja.Runtime) *realmTools {
	s.mu.Lock()
	t, gone := s.tools, s.store.dropped
	s.mu.Unlock()
	if t != nil {
		return t
	}
	if gone {
		return &realmTools{}
	}
	t, err := acquireTools(rt)
	if err != nil {
		return &realmTools{}
	}
	s.mu.Lock()
	if s.tools != nil || s.store.dropped {
		keep := s.tools
		s.mu.Unlock()
		releaseTools(rt)
		if keep != nil {
			return keep
		}
		return t
	}
	s.tools, s.toolsRT = t, rt
	s.mu.Unlock()
	return t
}

// hold keeps v alive under a new objectId of this session.
func (s *Session) hold(v goja.Value, group string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateOpen {
		return ""
	}
	return s.store.add(v, group)
}

func (s *Session) lookup(id string) (heldObject, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store.get(id)
}

func (s *Session) nextExceptionID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exceptionSeq++
	return s.exceptionSeq
}

// counts returns the ids ever created and dropped (for exactly-once checks).
func (s *Session) counts() (created, released int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store.created, s.store.released
}

// String describes the session for logs.
func (s *Session) String() string {
	return fmt.Sprintf("inspector.Session(%d, context %d)", s.id, s.ctx.ID)
}
