// Package workertargets lists core's workers (Provider) and inspectable host
// realms (HostRealms) as DevTools endpoint targets (package
// inspector/devtools). It is the adapter between the two, which know nothing
// of each other: cmd/jsworker and the C ABI use it.
package workertargets

import (
	"errors"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jsworker/jsworker/core"
	"github.com/jsworker/jsworker/inspector"
	"github.com/jsworker/jsworker/inspector/devtools"
)

// keyPrefix starts every target key of this provider; the rest is the
// worker's ID.
const keyPrefix = "worker-"

// Provider lists the process's live inspectable workers (core.LiveWorkers)
// and attaches sessions to them. The zero value lists every inspectable
// worker.
type Provider struct {
	// Main is the ID of the main program's worker (jsworker run): listed
	// first, titled by its file, even if it is not inspectable.
	Main uint64
}

// Key returns the target key of the worker with the given ID, for
// devtools.Server.WebSocketURL.
func Key(id uint64) string { return keyPrefix + strconv.FormatUint(id, 10) }

// Targets lists the main program first, then every other live inspectable
// worker in the order they were spawned.
func (p Provider) Targets() []devtools.Target {
	var out []devtools.Target
	for _, w := range core.LiveWorkers() {
		switch {
		case w.ID == p.Main:
			t := devtools.Target{
				Key:         Key(w.ID),
				Type:        "node",
				Title:       filepath.Base(w.Filename),
				URL:         FileURL(w.Filename),
				Description: "jsworker main program",
			}
			out = append([]devtools.Target{t}, out...)
		case w.Inspectable:
			title := w.Name
			if title == "" {
				title = filepath.Base(w.Filename)
			}
			out = append(out, devtools.Target{
				Key:         Key(w.ID),
				Type:        "node",
				Title:       "worker " + strconv.FormatUint(w.ID, 10) + ": " + title,
				URL:         FileURL(w.Filename),
				Description: "jsworker worker",
			})
		}
	}
	return out
}

// Attach opens an inspector session on the worker named by key.
func (p Provider) Attach(key string) (devtools.Session, error) {
	rest, ok := strings.CutPrefix(key, keyPrefix)
	if !ok {
		return nil, devtools.ErrNoTarget
	}
	id, err := strconv.ParseUint(rest, 10, 64)
	if err != nil {
		return nil, devtools.ErrNoTarget
	}
	info, ok := core.LookupWorker(id)
	if !ok || !(info.Inspectable || id == p.Main) {
		return nil, devtools.ErrNoTarget
	}
	s, err := info.Worker.InspectorSession()
	if errors.Is(err, core.ErrClosed) {
		return nil, devtools.ErrNoTarget
	} else if err != nil {
		return nil, err
	}
	return newFamily(id, info.Worker, &session{w: info.Worker, s: s}), nil
}

// session detaches from its worker on Close, so the worker stops reporting
// console calls and errors to it.
type session struct {
	w *core.Worker
	s *inspector.Session
}

func (s *session) Dispatch(msg []byte) error { return s.s.Dispatch(msg) }
func (s *session) Next(timeout time.Duration) ([]byte, inspector.PumpResult) {
	return s.s.Next(timeout)
}
func (s *session) Close() { s.w.DetachInspectorSession(s.s) }

// SetLimits and Overflowed let the endpoint bound the session's queue (devtools.LimitedSession).
func (s *session) SetLimits(l inspector.QueueLimits) { s.s.SetLimits(l) }
func (s *session) Overflowed() bool                  { return s.s.Overflowed() }

// FileURL returns the file:// URL of an absolute path, and name unchanged
// otherwise ("[eval]", "worker-3.js", a URL already).
func FileURL(name string) string {
	if !filepath.IsAbs(name) {
		return name
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(name)}).String()
}
