package devtools

import "time"

// SetWriteTimeout shortens the write timeout for a test; the returned func
// restores it. Not for parallel tests.
func SetWriteTimeout(d time.Duration) (restore func()) {
	old := writeTimeout
	writeTimeout = d
	return func() { writeTimeout = old }
}

// Limits exposes the endpoint's limits to the tests.
const (
	MaxMessage  = maxMessage
	MaxConns    = maxConns
	MaxSessions = maxSessions
)

// OpenConns returns how many connections s counts as open.
func OpenConns(s *Server) int {
	l := s.ln.(*limitListener)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}
