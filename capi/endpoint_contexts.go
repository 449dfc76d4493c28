package capi

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/inspector/devtools"
)

// Main contexts on the DevTools endpoint (ZJSInspectorEndpointStart). A context made inspectable
// (JSGlobalContextSetInspectable) is listed until it is made uninspectable or destroyed. An endpoint session is an
// ordinary inspector session of the context whose commands arrive on the endpoint's goroutines: they wait in the
// context's queue (pauseQueue) and run on the owner thread — at once while the context is paused in the debugger,
// otherwise in the host's next ZJSContextRunPendingEvents, or after its next call that runs JavaScript. Their
// responses and events go straight back to the endpoint, which reads the session's queue from its own goroutine.

var contextRegistry struct {
	mu   sync.Mutex
	byID map[uint64]*context
}

// registerContext lists c on the endpoint. On the owner thread.
func registerContext(c *context) {
	if c.targetID == 0 {
		c.targetID = core.NextTargetID()
	}
	contextRegistry.mu.Lock()
	defer contextRegistry.mu.Unlock()
	if contextRegistry.byID == nil {
		contextRegistry.byID = make(map[uint64]*context)
	}
	contextRegistry.byID[c.targetID] = c
}

// unregisterContext stops listing c: no new endpoint session attaches to it.
func unregisterContext(c *context) {
	contextRegistry.mu.Lock()
	defer contextRegistry.mu.Unlock()
	if c.targetID != 0 && contextRegistry.byID[c.targetID] == c {
		delete(contextRegistry.byID, c.targetID)
	}
}

// contextKey is a context's key on the endpoint.
func contextKey(id uint64) string { return "context-" + strconv.FormatUint(id, 10) }

// contextTargets is the endpoint's Provider of main contexts.
type contextTargets struct{}

func (contextTargets) Targets() []devtools.Target {
	contextRegistry.mu.Lock()
	ids := make([]uint64, 0, len(contextRegistry.byID))
	for id := range contextRegistry.byID {
		ids = append(ids, id)
	}
	contextRegistry.mu.Unlock()
	slices.SortFunc(ids, cmp.Compare[uint64])
	out := make([]devtools.Target, 0, len(ids))
	for _, id := range ids {
		name := "main context " + strconv.FormatUint(id, 10)
		out = append(out, devtools.Target{
			Key:         contextKey(id),
			Title:       name,
			URL:         "jsworker://" + contextKey(id),
			Description: "jsworker main context",
		})
	}
	return out
}

func (contextTargets) Attach(key string) (devtools.Session, error) {
	n, ok := strings.CutPrefix(key, "context-")
	if !ok {
		return nil, devtools.ErrNoTarget
	}
	id, err := strconv.ParseUint(n, 10, 64)
	if err != nil {
		return nil, devtools.ErrNoTarget
	}
	contextRegistry.mu.Lock()
	c := contextRegistry.byID[id]
	if c == nil {
		contextRegistry.mu.Unlock()
		return nil, devtools.ErrNoTarget
	}
	// Registered under the registry's lock, so that a context being destroyed (which unregisters first, then ends
	// its remote sessions) cannot miss this one.
	s := inspector.NewSession(contextTarget{c})
	c.remoteMu.Lock()
	c.remote = append(c.remote, s)
	c.remoteMu.Unlock()
	contextRegistry.mu.Unlock()
	return remoteSession{c: c, Session: s}, nil
}

// A remoteSession is an endpoint session of a context; Close also forgets it.
type remoteSession struct {
	c *context
	*inspector.Session
}

func (r remoteSession) Close() {
	r.c.remoteMu.Lock()
	r.c.remote = slices.DeleteFunc(r.c.remote, func(s *inspector.Session) bool { return s == r.Session })
	r.c.remoteMu.Unlock()
	r.Session.Close() // its detach runs on the owner thread, or not at all once the context is gone
}

// remoteSessions returns the context's endpoint sessions now.
func (c *context) remoteSessions() []*inspector.Session {
	c.remoteMu.Lock()
	defer c.remoteMu.Unlock()
	return slices.Clone(c.remote)
}

// endRemoteSessions unlists the context and tells its endpoint sessions that it ends (their clients get
// Inspector.detached and the WebSocket closes); commands still queued are answered with an error by the sessions.
// On the owner thread, as the context is destroyed.
func (c *context) endRemoteSessions() {
	unregisterContext(c)
	contextRegistry.mu.Lock() // no Attach in flight
	c.remoteMu.Lock()
	list := c.remote
	c.remote = nil
	c.remoteMu.Unlock()
	contextRegistry.mu.Unlock()
	c.pauseQ.close()
	for _, s := range list {
		s.TargetClosed()
	}
}
