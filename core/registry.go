package core

import (
	"cmp"
	"slices"
	"sync"
)

// The process-wide registry of live workers: what a DevTools endpoint lists
// as targets (package inspector/devtools, cmd/jsworker, the C ABI's
// ZJSInspectorEndpointStart). A worker is listed from the moment its thread
// starts until its loop has ended and its inspector sessions were told.

// WorkerInfo describes a live worker for a target listing.
type WorkerInfo struct {
	ID          uint64 // Worker.ID
	Name        string // Options.Name
	Filename    string // the script's name in stack traces (Options.Filename or "worker-<id>.js")
	Kind        Kind
	Inspectable bool   // compiled for the Debugger domain (Options.Inspectable or JSWORKER_INSPECT=1)
	Parent      uint64 // the target ID of the worker or host realm that created it from JavaScript; 0 for others
	Waiting     bool   // it started held for a debugger (Options.WaitForDebugger or HoldNewChildren)
	Worker      *Worker
}

var registry struct {
	mu   sync.Mutex
	live map[uint64]*Worker
}

// registerWorker lists w. It runs on w's thread as the thread starts.
func registerWorker(w *Worker) {
	registry.mu.Lock()
	if registry.live == nil {
		registry.live = make(map[uint64]*Worker)
	}
	registry.live[w.id] = w
	registry.mu.Unlock()
	notifyWatchers(w, true)
}

// unregisterWorker removes w from the listing. It runs on w's thread as the
// loop ends.
func unregisterWorker(w *Worker) {
	registry.mu.Lock()
	delete(registry.live, w.id)
	registry.mu.Unlock()
	notifyWatchers(w, false)
}

// LiveWorkers returns every worker of the process whose thread has started
// and whose loop has not ended, in ID order (the order they were spawned).
// It may be called from any goroutine. The list is a snapshot: a worker in it
// may end at any time after (its InspectorSession then returns ErrClosed).
func LiveWorkers() []WorkerInfo {
	registry.mu.Lock()
	out := make([]WorkerInfo, 0, len(registry.live))
	for _, w := range registry.live {
		out = append(out, w.info())
	}
	registry.mu.Unlock()
	slices.SortFunc(out, func(a, b WorkerInfo) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	return out
}

// LookupWorker returns the live worker with the given ID.
func LookupWorker(id uint64) (WorkerInfo, bool) {
	registry.mu.Lock()
	w, ok := registry.live[id]
	registry.mu.Unlock()
	if !ok {
		return WorkerInfo{}, false
	}
	return w.info(), true
}

func (w *Worker) info() WorkerInfo {
	return WorkerInfo{
		ID:          w.id,
		Name:        w.name,
		Filename:    w.filename,
		Kind:        w.kind,
		Inspectable: w.dbg != nil,
		Parent:      w.opts.parent,
		Waiting:     w.opts.WaitForDebugger,
		Worker:      w,
	}
}

// Host realms (HostRealm.SetInspectable) are listed too, from SetInspectable(true) until SetInspectable(false) or
// Close, for the endpoint's main-context targets (package internal/workertargets).
var hostRegistry struct {
	mu   sync.Mutex
	live map[uint64]*HostRealm
}

// registerHostRealm lists h. On h's owner goroutine.
func registerHostRealm(h *HostRealm) {
	id := h.TargetID()
	hostRegistry.mu.Lock()
	defer hostRegistry.mu.Unlock()
	if hostRegistry.live == nil {
		hostRegistry.live = make(map[uint64]*HostRealm)
	}
	hostRegistry.live[id] = h
}

// unregisterHostRealm stops listing h: no new endpoint session attaches to it through the listing.
func unregisterHostRealm(h *HostRealm) {
	h.inspMu.Lock()
	id := h.targetID
	h.inspMu.Unlock()
	hostRegistry.mu.Lock()
	defer hostRegistry.mu.Unlock()
	if id != 0 && hostRegistry.live[id] == h {
		delete(hostRegistry.live, id)
	}
}

// HostRealmInfo describes an inspectable host realm for a target listing.
type HostRealmInfo struct {
	ID    uint64 // HostRealm.TargetID
	Realm *HostRealm
}

// LiveHostRealms returns every inspectable host realm of the process, in ID order. It may be called from any
// goroutine. The list is a snapshot: a realm in it may be closed at any time after (its InspectorSession then
// returns ErrClosed).
func LiveHostRealms() []HostRealmInfo {
	hostRegistry.mu.Lock()
	out := make([]HostRealmInfo, 0, len(hostRegistry.live))
	for id, h := range hostRegistry.live {
		out = append(out, HostRealmInfo{ID: id, Realm: h})
	}
	hostRegistry.mu.Unlock()
	slices.SortFunc(out, func(a, b HostRealmInfo) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// LookupHostRealm returns the inspectable host realm with the given ID.
func LookupHostRealm(id uint64) (*HostRealm, bool) {
	hostRegistry.mu.Lock()
	defer hostRegistry.mu.Unlock()
	h, ok := hostRegistry.live[id]
	return h, ok
}
