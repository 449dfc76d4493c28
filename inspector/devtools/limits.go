package devtools

import (
	"net"
	"sync"
	"time"

	"github.com/jsworker/jsworker/inspector"
)

// The endpoint's limits. Every local process can reach it, so each resource
// a peer can make it hold is bounded: connections, sessions, the size of a
// message, what is queued for a client that does not read, and how long a
// write to such a client may take. docs/limits.md lists them.
const (
	// maxMessage bounds one command a client sends (a WebSocket message,
	// however many frames carry it): CDP commands are small, a large
	// Runtime.evaluate expression is the exception. A larger message closes
	// the connection with status 1009 (message too big).
	maxMessage = 16 << 20
	// maxConns bounds the connections open at once (HTTP and WebSocket); a
	// connection past it is closed as soon as it is accepted.
	maxConns = 128
	// maxSessions bounds the WebSocket sessions open at once; an upgrade
	// past it is answered 503.
	maxSessions = 32
	// maxHeaderBytes bounds an HTTP request's header.
	maxHeaderBytes = 16 << 10
	// idleTimeout closes keep-alive HTTP connections nobody uses.
	idleTimeout = 30 * time.Second
)

// writeTimeout bounds one message's write to a client: a client that does
// not read for that long is disconnected. A variable for the tests only.
var writeTimeout = 10 * time.Second

// sessionLimits are the queue limits of an endpoint session: tighter than
// the library's defaults, since the client is a peer on a socket.
var sessionLimits = inspector.QueueLimits{
	MaxQueued:       10_000,
	MaxQueuedBytes:  32 << 20,
	MaxMessageBytes: maxMessage,
	MaxPending:      256,
}

// A LimitedSession is a Session whose queue the server can bound. Sessions
// that implement it (inspector.Session and the providers' wrappers do) get
// sessionLimits, and are closed with status 1008 (policy violation) when
// their queue overflows.
type LimitedSession interface {
	SetLimits(inspector.QueueLimits)
	Overflowed() bool
}

// limitListener closes every connection accepted while max are open.
type limitListener struct {
	net.Listener
	mu   sync.Mutex
	open int
	max  int
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		if l.open >= l.max {
			l.mu.Unlock()
			_ = c.Close()
			continue
		}
		l.open++
		l.mu.Unlock()
		return &limitConn{Conn: c, l: l}, nil
	}
}

// limitConn gives its slot back once, on Close.
type limitConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		c.l.mu.Unlock()
	})
	return err
}
