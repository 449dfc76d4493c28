package devtools

import (
	"errors"
	"net/http"
	"strings"

	"github.com/coder/websocket"
	"github.com/jsworker/jsworker/inspector"
)

// maxMessage bounds one command a client sends, as the inspector's own
// frames are bounded: CDP commands are small, a large Runtime.evaluate
// expression is the exception.
const maxMessage = 64 << 20

// track registers a running session handler; false once the server closed.
func (s *Server) track(sess Session) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.draining {
		return false
	}
	s.sessions[sess] = struct{}{}
	s.conns.Add(1)
	return true
}

func (s *Server) untrack(sess Session) {
	s.mu.Lock()
	delete(s.sessions, sess)
	s.mu.Unlock()
	s.conns.Done()
}

// serveSession carries one inspector session over one WebSocket: each text
// message the client sends is dispatched as a command, each message the
// session queues is sent as a text message. Either side ending ends both:
// the client closing (or the connection failing) detaches the session; the
// target ending (Inspector.detached, then PumpClosed) closes the WebSocket
// with status 1000.
func (s *Server) serveSession(w http.ResponseWriter, r *http.Request, key string) {
	if !isUpgrade(r) {
		http.Error(w, "WebSocket request was expected", http.StatusBadRequest)
		return
	}
	sess, err := s.cfg.Provider.Attach(key)
	if err != nil {
		if errors.Is(err, ErrNoTarget) {
			http.Error(w, "the target has ended", http.StatusNotFound)
		} else {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
		return
	}
	if !s.track(sess) {
		sess.Close()
		http.Error(w, "the server is closing", http.StatusServiceUnavailable)
		return
	}
	defer s.untrack(sess)
	defer sess.Close()
	// The Host header was checked; the id in the path is the secret a page
	// cannot learn (see the package doc), so any Origin may connect — the
	// DevTools front ends send devtools:// or their hosting page's origin.
	c, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return // Accept answered the client
	}
	defer c.CloseNow()
	c.SetReadLimit(maxMessage)

	// The writer: every queued message, in order, until the session ends.
	written := make(chan struct{})
	go func() {
		defer close(written)
		for {
			msg, res := sess.Next(-1)
			if res != inspector.PumpMessage {
				// The target ended (or the session was closed): say goodbye.
				_ = c.Close(websocket.StatusNormalClosure, "target closed")
				return
			}
			if err := c.Write(s.ctx, websocket.MessageText, msg); err != nil {
				sess.Close() // the client is gone: stop queueing for it
				_ = c.CloseNow()
				return
			}
		}
	}()

	// The reader, on the handler's goroutine.
	for {
		_, msg, err := c.Read(s.ctx)
		if err != nil {
			break
		}
		if sess.Dispatch(msg) != nil {
			break // the target ended: the writer sends the last messages and closes
		}
	}
	sess.Close()
	<-written
}

// isUpgrade reports whether r asks for a WebSocket.
func isUpgrade(r *http.Request) bool {
	for _, v := range r.Header.Values("Upgrade") {
		if strings.EqualFold(v, "websocket") {
			return true
		}
	}
	return false
}
