package devtools

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultPort is the port --inspect listens on when none is given, as Node's.
const DefaultPort = 9229

// Config configures a Server.
type Config struct {
	// Addr is "host:port" to listen on; host must be a loopback address,
	// "localhost" or empty (127.0.0.1). Port 0 picks a free port.
	Addr string
	// Provider lists the targets and opens sessions on them.
	Provider Provider
	// Browser is /json/version's "Browser", e.g. "jsworker/0.2.0".
	Browser string
	// Methods and Events are the commands and events the Provider's sessions
	// answer and send besides the inspector package's (for example the Target
	// and NodeWorker domains of internal/workertargets), for /json/protocol.
	Methods, Events []string
}

// A Server is a running DevTools endpoint. Its methods may be called from any
// goroutine. A closed Server may not be reused.
type Server struct {
	cfg  Config
	ln   net.Listener
	http *http.Server
	ctx  context.Context // cancelled by Close: ends every WebSocket
	stop context.CancelFunc

	mu       sync.Mutex
	closed   bool
	draining bool              // Shutdown: no new sessions
	ids      map[string]string // target key -> id
	keys     map[string]string // id -> target key
	sessions map[Session]struct{}
	conns    sync.WaitGroup // running WebSocket handlers
	served   chan struct{}  // closed when http.Serve has returned

	protoOnce sync.Once
	proto     []byte // /json/protocol
}

// ErrServerClosed is returned by the Server's methods after Close.
var ErrServerClosed = errors.New("devtools: server closed")

// Listen starts an endpoint on cfg.Addr and serves it on its own goroutine
// until Close. It refuses a non-loopback address with an error that says so.
func Listen(cfg Config) (*Server, error) {
	if cfg.Provider == nil {
		return nil, errors.New("devtools: Config.Provider is nil")
	}
	addr, err := checkLoopback(cfg.Addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("devtools: %w", err)
	}
	if cfg.Browser == "" {
		cfg.Browser = "jsworker"
	}
	ln = &limitListener{Listener: ln, max: maxConns}
	s := &Server{
		cfg:      cfg,
		ln:       ln,
		ids:      make(map[string]string),
		keys:     make(map[string]string),
		sessions: make(map[Session]struct{}),
		served:   make(chan struct{}),
	}
	s.ctx, s.stop = context.WithCancel(context.Background())
	s.http = &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          log.New(io.Discard, "", 0), // a peer's malformed request is its problem, not the host's stderr
	}
	go func() {
		defer close(s.served)
		_ = s.http.Serve(ln) // http.ErrServerClosed after Close
	}()
	return s, nil
}

// Addr returns the address the server listens on, e.g. "127.0.0.1:9229".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Port returns the port the server listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// WebSocketURL returns ws://ADDR/<id> for the target named by key, the URL
// Node prints as "Debugger listening on …". The target need not be listed
// yet: its id is fixed from the first time it is asked for.
func (s *Server) WebSocketURL(key string) string {
	return "ws://" + s.Addr() + "/" + s.idOf(key)
}

// Close stops the server at once: the listener closes, every WebSocket
// session is detached from its target and its connection closed, and Close
// returns once every handler has ended. It is idempotent.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	sessions := s.sessions
	s.sessions = nil
	s.mu.Unlock()
	s.stop()
	for sess := range sessions {
		sess.Close()
	}
	err := s.http.Close()
	<-s.served
	s.conns.Wait()
	return err
}

// Shutdown stops the server gracefully: the listener closes at once, and
// Shutdown waits until every WebSocket session has ended by itself — its
// client went away or its target ended, and the last messages (such as
// Inspector.detached) were sent — or ctx is done, and then closes what is
// left as Close does. Use it when the targets are ending, so that clients
// see them end. It returns ctx.Err() if ctx ended the wait.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.draining = true
	s.mu.Unlock()
	_ = s.ln.Close() // no new connections; http.Serve returns
	idle := make(chan struct{})
	go func() {
		s.conns.Wait()
		close(idle)
	}()
	var err error
	select {
	case <-idle:
	case <-ctx.Done():
		err = ctx.Err()
	}
	_ = s.Close()
	<-idle
	return err
}

// idOf returns the id of the target named by key, creating it: a random
// UUID (version 4), as Node's.
func (s *Server) idOf(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.ids[key]; ok {
		return id
	}
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	id := fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
	s.ids[key] = id
	s.keys[id] = key
	return id
}

// keyOf returns the target key of id.
func (s *Server) keyOf(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, ok := s.keys[id]
	return k, ok
}

// forget drops the ids of targets no longer listed, so that the maps do not
// grow with every worker the process ever ran.
func (s *Server) forget(live []Target) {
	keep := make(map[string]bool, len(live))
	for _, t := range live {
		keep[t.Key] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, id := range s.ids {
		if !keep[k] {
			delete(s.ids, k)
			delete(s.keys, id)
		}
	}
}

// ServeHTTP answers the endpoint's requests.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !allowedHost(r.Host) {
		// Node's rule: a Host that is neither an IP address nor localhost is
		// a page that rebound its own name to this machine.
		http.Error(w, "Host header is not allowed: use an IP address or localhost (DNS rebinding protection)",
			http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "only GET is supported", http.StatusMethodNotAllowed)
		return
	}
	path := strings.TrimSuffix(r.URL.Path, "/")
	switch path {
	case "/json", "/json/list":
		s.serveList(w, r)
	case "/json/version":
		writeJSON(w, map[string]string{"Browser": s.cfg.Browser, "Protocol-Version": "1.1"})
	case "/json/protocol":
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		_, _ = w.Write(s.protocolJSON())
	default:
		id := strings.TrimPrefix(path, "/")
		key, ok := s.keyOf(id)
		if !ok || strings.Contains(id, "/") {
			http.NotFound(w, r)
			return
		}
		s.serveSession(w, r, key)
	}
}

// listEntry is one entry of /json/list, with Node's field names.
type listEntry struct {
	Description            string `json:"description"`
	DevtoolsFrontendURL    string `json:"devtoolsFrontendUrl"`
	DevtoolsFrontendCompat string `json:"devtoolsFrontendUrlCompat"`
	ID                     string `json:"id"`
	Title                  string `json:"title"`
	Type                   string `json:"type"`
	URL                    string `json:"url"`
	WebSocketDebuggerURL   string `json:"webSocketDebuggerUrl"`
}

func (s *Server) serveList(w http.ResponseWriter, r *http.Request) {
	targets := s.cfg.Provider.Targets()
	s.forget(targets)
	// The URLs use the host the client reached us by, as Node's do (a client
	// behind port forwarding gets addresses it can use).
	host := r.Host
	if host == "" {
		host = s.Addr()
	}
	list := make([]listEntry, 0, len(targets))
	for _, t := range targets {
		id := s.idOf(t.Key)
		typ := t.Type
		if typ == "" {
			typ = "node"
		}
		ws := host + "/" + id
		list = append(list, listEntry{
			Description:            t.Description,
			DevtoolsFrontendURL:    "devtools://devtools/bundled/js_app.html?experiments=true&v8only=true&ws=" + ws,
			DevtoolsFrontendCompat: "devtools://devtools/bundled/inspector.html?experiments=true&v8only=true&ws=" + ws,
			ID:                     id,
			Title:                  t.Title,
			Type:                   typ,
			URL:                    t.URL,
			WebSocketDebuggerURL:   "ws://" + ws,
		})
	}
	writeJSON(w, list)
}

func writeJSON(w http.ResponseWriter, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // the URLs' "&" stay readable, as in Node's output
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	_, _ = w.Write(b.Bytes())
}
