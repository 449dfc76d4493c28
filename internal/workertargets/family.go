package workertargets

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/inspector/devtools"
)

// A family is the endpoint session of a worker or host realm together with the sessions of the workers its
// JavaScript created (its children), so that one connection debugs a program and its workers. It answers two
// protocols for that itself (childproto.go), and passes every other command to the target's own session:
//
//   - Chrome's Target domain, which the DevTools front end (inspector.html?v8only=true, the endpoint's
//     devtoolsFrontendUrlCompat) uses: Target.setAutoAttach attaches a session to every child, announced by
//     Target.attachedToTarget; a command carrying a top-level "sessionId" goes to that child, and the child's
//     messages come back with its "sessionId" (flat sessions, as Node's Target domain: "flatten" is not needed).
//   - Node's NodeWorker domain: NodeWorker.enable attaches a session to every child, announced by
//     NodeWorker.attachedToWorker; NodeWorker.sendMessageToWorker carries commands in, and
//     NodeWorker.receivedMessageFromWorker the child's messages out.
//
// Children are families too, so that a worker's own workers are followed the same way. Messages of the target
// and its children are merged into one queue in the order the pumps (one goroutine per session) take them.
type family struct {
	self  uint64       // the target ID whose children are followed
	owner *core.Worker // nil for a host realm: it cannot hold its new workers (HoldNewChildren)
	inner devtools.Session
	limit inspector.QueueLimits

	wake  chan struct{} // one pending wake-up for Next
	space *sync.Cond    // on mu: pumps wait for room in queue
	bg    sync.WaitGroup

	mu        sync.Mutex
	queue     [][]byte
	pumps     int  // pumps running (the target's and each child's)
	closed    bool // Close was called
	innerDone bool // the target's session ended
	limited   bool // SetLimits was called

	auto     autoAttach // Target.setAutoAttach
	nw       autoAttach // NodeWorker.enable
	discover bool       // Target.setDiscoverTargets
	holds    int        // HoldNewChildren(true) calls made for auto and nw
	watching bool       // follow started the watch (stop is set once it has)
	stop     func()     // ends the WatchWorkers watch; nil while neither protocol is on
	children map[string]*child
}

// autoAttach is the state of one of the two protocols.
type autoAttach struct{ on, wait bool }

// maxMerged bounds the merged queue; a pump that finds it full waits, so that a client that does not read fills
// the target's own bounded queue (the endpoint then closes the connection, as for a session without children).
const maxMerged = 1024

// newFamily wraps inner, the session of the target self (owner: its worker, or nil for a host realm).
func newFamily(self uint64, owner *core.Worker, inner devtools.Session) *family {
	f := &family{self: self, owner: owner, inner: inner, wake: make(chan struct{}, 1), children: map[string]*child{}}
	f.space = sync.NewCond(&f.mu)
	f.pumps = 1
	f.bg.Add(1)
	go func() {
		defer f.bg.Done()
		f.pump(inner, nil)
	}()
	return f
}

// Dispatch accepts one command from the client: a child's (top-level sessionId), one of the two child protocols',
// or the target's own.
func (f *family) Dispatch(msg []byte) error {
	var env envelope
	if json.Unmarshal(msg, &env) != nil { // not an object: the target's session answers the error
		return f.inner.Dispatch(msg)
	}
	if env.SessionID == nil {
		return f.dispatchOwn(msg, &env)
	}
	if !f.open() {
		return inspector.ErrClosed
	}
	if s := f.route(*env.SessionID); s != nil {
		if s.dispatchOwn(msg, &env) != nil {
			f.push(errorFor(env.ID, codeServerError, "the session's target has ended", *env.SessionID))
		}
		return nil
	}
	f.push(errorFor(env.ID, codeSessionNotFound, "Session with given id not found.", *env.SessionID))
	return nil
}

// envelope is what Dispatch reads of a message.
type envelope struct {
	ID        json.RawMessage `json:"id"`
	Method    string          `json:"method"`
	SessionID *string         `json:"sessionId"`
	Params    json.RawMessage `json:"params"`
}

// dispatchOwn runs a command addressed to this family's target (its sessionId, if any, named this family): one of
// the child protocols', or the target's own.
func (f *family) dispatchOwn(msg []byte, env *envelope) error {
	h := childMethods[env.Method]
	if h == nil {
		return f.inner.Dispatch(msg)
	}
	if !f.open() {
		return inspector.ErrClosed
	}
	h(f, env.ID, env.Params)
	return nil
}

func (f *family) open() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.closed && !f.innerDone
}

// route finds the session with the given id among the children and their descendants (flat sessions all arrive on
// the root's connection).
func (f *family) route(sid string) *family {
	f.mu.Lock()
	c := f.children[sid]
	kids := make([]*child, 0, len(f.children))
	for _, k := range f.children {
		if k.mode == viaTarget { // a NodeWorker child's own children are reached through its messages
			kids = append(kids, k)
		}
	}
	f.mu.Unlock()
	if c != nil && c.mode == viaTarget {
		return c.s
	}
	for _, k := range kids {
		if s := k.s.route(sid); s != nil {
			return s
		}
	}
	return nil
}

// Next returns the next message of the target or of a child, as inspector.Session.Next does.
func (f *family) Next(timeout time.Duration) ([]byte, inspector.PumpResult) {
	var expired <-chan time.Time
	if timeout >= 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	for {
		f.mu.Lock()
		if len(f.queue) > 0 {
			m := f.queue[0]
			f.queue[0] = nil
			f.queue = f.queue[1:]
			f.space.Broadcast()
			f.mu.Unlock()
			return m, inspector.PumpMessage
		}
		if f.pumps == 0 {
			f.mu.Unlock()
			return nil, inspector.PumpClosed
		}
		f.mu.Unlock()
		select {
		case <-f.wake:
		case <-expired:
			return nil, inspector.PumpTimeout
		}
	}
}

// Close detaches the target's session and every child's (releasing children held for this session), and waits
// for the family's goroutines. The queue drains: Next reports PumpClosed once it is empty.
func (f *family) Close() {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.closed = true
	f.space.Broadcast()
	f.mu.Unlock()
	f.unfollow()
	f.inner.Close()
	f.closeChildren()
	f.bg.Wait()
}

// SetLimits bounds the target's queue and those of children attached from now on (devtools.LimitedSession).
func (f *family) SetLimits(l inspector.QueueLimits) {
	f.mu.Lock()
	f.limit, f.limited = l, true
	f.mu.Unlock()
	if ls, ok := f.inner.(devtools.LimitedSession); ok {
		ls.SetLimits(l)
	}
}

// Overflowed reports whether the target's queue overflowed.
func (f *family) Overflowed() bool {
	ls, ok := f.inner.(devtools.LimitedSession)
	return ok && ls.Overflowed()
}

// push appends a message to the merged queue (a reply or event of the family itself: never waits).
func (f *family) push(m []byte) {
	f.mu.Lock()
	f.queue = append(f.queue, m)
	f.mu.Unlock()
	f.signal()
}

func (f *family) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// pump moves the messages of s (the target's session when c is nil, else child c's) to the merged queue until s
// ends.
func (f *family) pump(s devtools.Session, c *child) {
	for {
		m, r := s.Next(-1)
		if r != inspector.PumpMessage {
			break
		}
		if c != nil {
			m = c.wrap(m)
		}
		f.mu.Lock()
		for len(f.queue) >= maxMerged && !f.closed {
			f.space.Wait()
		}
		if !f.closed || c == nil { // a closed family drops children's messages, keeps the target's last ones
			f.queue = append(f.queue, m)
		}
		f.mu.Unlock()
		f.signal()
	}
	if c != nil {
		f.childEnded(c)
	}
	f.mu.Lock()
	f.pumps--
	if c == nil {
		f.innerDone = true
		if !f.closed { // the target ended: its children's sessions end with it (Close does it otherwise)
			f.bg.Add(1)
			go func() {
				defer f.bg.Done()
				f.unfollow()
				f.closeChildren()
			}()
		}
	}
	f.mu.Unlock()
	f.signal()
}

// newSessionID returns a new Target-domain session id: 32 hexadecimal digits, as Chrome's.
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return strings.ToUpper(hex.EncodeToString(b[:]))
}

// errorFor encodes an error response to the command with the given raw id (nil: no id).
func errorFor(id json.RawMessage, code int, message, sessionID string) []byte {
	var b bytes.Buffer
	b.WriteString(`{`)
	if len(id) > 0 {
		b.WriteString(`"id":`)
		b.Write(id)
		b.WriteString(`,`)
	}
	e, _ := json.Marshal(struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, message})
	b.WriteString(`"error":`)
	b.Write(e)
	if sessionID != "" {
		s, _ := json.Marshal(sessionID)
		b.WriteString(`,"sessionId":`)
		b.Write(s)
	}
	b.WriteString(`}`)
	return b.Bytes()
}

// resultFor encodes a result response.
func resultFor(id json.RawMessage, result any) []byte {
	r, _ := json.Marshal(result)
	var b bytes.Buffer
	b.WriteString(`{"id":`)
	if len(id) == 0 {
		b.WriteString(`0`)
	} else {
		b.Write(id)
	}
	b.WriteString(`,"result":`)
	b.Write(r)
	b.WriteString(`}`)
	return b.Bytes()
}

// eventFor encodes an event.
func eventFor(method string, params any) []byte {
	b, _ := json.Marshal(struct {
		Method string `json:"method"`
		Params any    `json:"params"`
	}{method, params})
	return b
}

// CDP error codes the family answers with.
const (
	codeInvalidParams   = -32602
	codeServerError     = -32000
	codeSessionNotFound = -32001
)
