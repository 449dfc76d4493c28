package devtools

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/coder/websocket"
	"github.com/jsworker/jsworker/inspector"
)

// track registers a running session handler; false once the server closed.
func (s *Server) track(sess Session) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.draining || len(s.sessions) >= maxSessions {
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
		http.Error(w, "the server is closing or has too many sessions", http.StatusServiceUnavailable)
		return
	}
	limited, _ := sess.(LimitedSession)
	if limited != nil {
		limited.SetLimits(sessionLimits)
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
				if limited != nil && limited.Overflowed() {
					_ = c.Close(websocket.StatusPolicyViolation, "queue full: the client does not read")
					return
				}
				// The target ended (or the session was closed): say goodbye.
				_ = c.Close(websocket.StatusNormalClosure, "target closed")
				return
			}
			ctx, cancel := context.WithTimeout(s.ctx, writeTimeout)
			err := c.Write(ctx, websocket.MessageText, msg)
			cancel()
			if err != nil { // the client is gone, or has not read for writeTimeout
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
			if websocket.CloseStatus(err) == -1 {
				// Not the client's close frame: a broken connection, or input that breaks the protocol or the
				// message limit (the library has sent its close frame). Waiting for a close handshake with such
				// a peer only holds the slot (up to 20 s): drop the connection now.
				_ = c.CloseNow()
			}
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
