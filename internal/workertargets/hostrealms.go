package workertargets

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/inspector/devtools"
)

// hostPrefix starts every target key of HostRealms; the rest is the realm's
// target ID.
const hostPrefix = "context-"

// HostRealms lists the process's inspectable host realms (core.LiveHostRealms:
// the C ABI's main contexts, Go hosts' core.HostRealm) as endpoint targets and
// attaches sessions to them. An endpoint session is an ordinary session of
// the realm whose commands arrive on the endpoint's goroutines: they run on
// the realm's owner when it is in the realm (core.HostRealm.InspectorSession).
type HostRealms struct{}

// HostKey returns the target key of the host realm with the given target ID.
func HostKey(id uint64) string { return hostPrefix + strconv.FormatUint(id, 10) }

// Targets lists every inspectable host realm in the order of its target ID.
func (HostRealms) Targets() []devtools.Target {
	live := core.LiveHostRealms()
	out := make([]devtools.Target, 0, len(live))
	for _, h := range live {
		out = append(out, devtools.Target{
			Key:         HostKey(h.ID),
			Title:       "main context " + strconv.FormatUint(h.ID, 10),
			URL:         "jsworker://" + HostKey(h.ID),
			Description: "jsworker main context",
		})
	}
	return out
}

// Attach opens an inspector session on the host realm named by key.
func (HostRealms) Attach(key string) (devtools.Session, error) {
	rest, ok := strings.CutPrefix(key, hostPrefix)
	if !ok {
		return nil, devtools.ErrNoTarget
	}
	id, err := strconv.ParseUint(rest, 10, 64)
	if err != nil {
		return nil, devtools.ErrNoTarget
	}
	h, ok := core.LookupHostRealm(id)
	if !ok {
		return nil, devtools.ErrNoTarget
	}
	s, err := h.InspectorSession()
	if errors.Is(err, core.ErrClosed) {
		return nil, devtools.ErrNoTarget
	} else if err != nil {
		return nil, err
	}
	return newFamily(id, nil, &hostSession{h: h, s: s}), nil
}

// hostSession detaches from its realm on Close, so the realm stops sending
// it console calls.
type hostSession struct {
	h *core.HostRealm
	s *inspector.Session
}

func (s *hostSession) Dispatch(msg []byte) error { return s.s.Dispatch(msg) }
func (s *hostSession) Next(timeout time.Duration) ([]byte, inspector.PumpResult) {
	return s.s.Next(timeout)
}
func (s *hostSession) Close() { s.h.DetachInspectorSession(s.s) }
