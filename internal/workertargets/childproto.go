package workertargets

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strconv"

	"github.com/jsworker/jsworker/core"
)

// The Target and NodeWorker commands a family answers itself (see family).

// ChildMethods lists the commands a program's endpoint session answers besides inspector.Methods: the Target and
// NodeWorker domains that follow the program into its workers. ChildEvents lists their events.
var (
	ChildMethods = []string{
		"NodeWorker.detach",
		"NodeWorker.disable",
		"NodeWorker.enable",
		"NodeWorker.sendMessageToWorker",
		"Target.attachToTarget",
		"Target.detachFromTarget",
		"Target.getTargets",
		"Target.sendMessageToTarget",
		"Target.setAutoAttach",
		"Target.setDiscoverTargets",
		"Target.setRemoteLocations",
	}
	ChildEvents = []string{
		"NodeWorker.attachedToWorker",
		"NodeWorker.detachedFromWorker",
		"NodeWorker.receivedMessageFromWorker",
		"Target.attachedToTarget",
		"Target.detachedFromTarget",
		"Target.targetCreated",
		"Target.targetDestroyed",
	}
)

type childHandler func(f *family, id, params json.RawMessage)

// childMethods is the family's dispatcher (set by init: its handlers call Dispatch, which reads it).
var childMethods map[string]childHandler

func init() {
	childMethods = map[string]childHandler{
		"NodeWorker.detach":              nodeWorkerDetach,
		"NodeWorker.disable":             nodeWorkerDisable,
		"NodeWorker.enable":              nodeWorkerEnable,
		"NodeWorker.sendMessageToWorker": nodeWorkerSend,
		"Target.attachToTarget":          targetAttach,
		"Target.detachFromTarget":        targetDetach,
		"Target.getTargets":              targetGetTargets,
		"Target.sendMessageToTarget":     targetSend,
		"Target.setAutoAttach":           targetSetAutoAttach,
		"Target.setDiscoverTargets":      targetSetDiscover,
		"Target.setRemoteLocations":      targetSetRemoteLocations,
	}
}

// How a child was attached, which decides how its messages travel.
type attachMode uint8

const (
	viaTarget     attachMode = iota // flat: its messages carry its sessionId
	viaNodeWorker                   // wrapped in NodeWorker.receivedMessageFromWorker
)

// A child is a session attached to a worker the family's target created.
type child struct {
	sid  string
	mode attachMode
	info core.WorkerInfo
	s    *family

	dropped bool // detached by the family (a command, a disable, Close); family.mu
}

// wrap makes a message of the child's session one of the family's.
func (c *child) wrap(m []byte) []byte {
	if c.mode == viaNodeWorker {
		return eventFor("NodeWorker.receivedMessageFromWorker", struct {
			SessionID string `json:"sessionId"`
			Message   string `json:"message"`
		}{c.sid, string(m)})
	}
	if bytes.HasPrefix(m, []byte(`{"sessionId":"`)) || len(m) < 2 || m[0] != '{' {
		return m // a grandchild's, already flat
	}
	sid, _ := json.Marshal(c.sid)
	out := make([]byte, 0, len(m)+len(sid)+14)
	out = append(out, `{"sessionId":`...)
	out = append(out, sid...)
	if m[1] != '}' {
		out = append(out, ',')
	}
	return append(out, m[1:]...)
}

// targetInfo is Target.TargetInfo for a child worker; type "node_worker" is what the front end shows as a Node
// worker thread (a target of its own with the JS, Network and Target capabilities).
type targetInfo struct {
	TargetID         string `json:"targetId"`
	Type             string `json:"type"`
	Title            string `json:"title"`
	URL              string `json:"url"`
	Attached         bool   `json:"attached"`
	CanAccessOpener  bool   `json:"canAccessOpener"`
	OpenerID         string `json:"openerId,omitempty"`
	BrowserContextID string `json:"browserContextId,omitempty"`
}

func workerTitle(w core.WorkerInfo) string {
	if w.Name != "" {
		return w.Name
	}
	return filepath.Base(w.Filename)
}

func (f *family) infoOf(w core.WorkerInfo, attached bool) targetInfo {
	return targetInfo{TargetID: Key(w.ID), Type: "node_worker", Title: workerTitle(w), URL: FileURL(w.Filename),
		Attached: attached, OpenerID: f.selfKey()}
}

func (f *family) selfKey() string {
	if f.owner == nil {
		return HostKey(f.self)
	}
	return Key(f.self)
}

// liveChildren returns the live workers the family's target created.
func (f *family) liveChildren() []core.WorkerInfo {
	var out []core.WorkerInfo
	for _, w := range core.LiveWorkers() {
		if w.Parent == f.self {
			out = append(out, w)
		}
	}
	return out
}

func decode(f *family, id, params json.RawMessage, v any) bool {
	if len(params) == 0 || string(params) == "null" {
		params = []byte("{}")
	}
	if err := json.Unmarshal(params, v); err != nil {
		f.push(errorFor(id, codeInvalidParams, "Invalid parameters: "+err.Error(), ""))
		return false
	}
	return true
}

func targetSetAutoAttach(f *family, id, params json.RawMessage) {
	var p struct {
		AutoAttach             *bool `json:"autoAttach"`
		WaitForDebuggerOnStart bool  `json:"waitForDebuggerOnStart"`
		Flatten                bool  `json:"flatten"` // sessions are flat either way, as Node's
	}
	if !decode(f, id, params, &p) {
		return
	}
	if p.AutoAttach == nil {
		f.push(errorFor(id, codeInvalidParams, "Invalid parameters: autoAttach: boolean value expected", ""))
		return
	}
	f.setProtocol(viaTarget, autoAttach{on: *p.AutoAttach, wait: *p.AutoAttach && p.WaitForDebuggerOnStart})
	f.push(resultFor(id, struct{}{}))
}

func nodeWorkerEnable(f *family, id, params json.RawMessage) {
	var p struct {
		WaitForDebuggerOnStart bool `json:"waitForDebuggerOnStart"`
	}
	if !decode(f, id, params, &p) {
		return
	}
	f.setProtocol(viaNodeWorker, autoAttach{on: true, wait: p.WaitForDebuggerOnStart})
	f.push(resultFor(id, struct{}{}))
}

func nodeWorkerDisable(f *family, id, _ json.RawMessage) {
	f.setProtocol(viaNodeWorker, autoAttach{})
	f.push(resultFor(id, struct{}{}))
}

func targetSetDiscover(f *family, id, params json.RawMessage) {
	var p struct {
		Discover *bool `json:"discover"`
	}
	if !decode(f, id, params, &p) {
		return
	}
	if p.Discover == nil {
		f.push(errorFor(id, codeInvalidParams, "Invalid parameters: discover: boolean value expected", ""))
		return
	}
	f.mu.Lock()
	was := f.discover
	f.discover = *p.Discover
	f.mu.Unlock()
	f.push(resultFor(id, struct{}{}))
	if *p.Discover && !was {
		for _, w := range f.liveChildren() {
			f.push(eventFor("Target.targetCreated", struct {
				TargetInfo targetInfo `json:"targetInfo"`
			}{f.infoOf(w, f.attachedTo(w.ID, viaTarget) != nil)}))
		}
	}
}

// targetSetRemoteLocations accepts the locations a browser would search for other hosts' targets: a program's
// endpoint discovers no other hosts, so there is nothing to do with them.
func targetSetRemoteLocations(f *family, id, params json.RawMessage) {
	var p struct {
		Locations []struct {
			Host string `json:"host"`
			Port int    `json:"port"`
		} `json:"locations"`
	}
	if !decode(f, id, params, &p) {
		return
	}
	f.push(resultFor(id, struct{}{}))
}

func targetGetTargets(f *family, id, _ json.RawMessage) {
	infos := []targetInfo{}
	for _, w := range f.liveChildren() {
		infos = append(infos, f.infoOf(w, f.attachedTo(w.ID, viaTarget) != nil))
	}
	f.push(resultFor(id, struct {
		TargetInfos []targetInfo `json:"targetInfos"`
	}{infos}))
}

func targetAttach(f *family, id, params json.RawMessage) {
	var p struct {
		TargetID string `json:"targetId"`
	}
	if !decode(f, id, params, &p) {
		return
	}
	for _, w := range f.liveChildren() {
		if Key(w.ID) != p.TargetID {
			continue
		}
		if c := f.attach(w, viaTarget, false); c != nil {
			f.push(resultFor(id, struct {
				SessionID string `json:"sessionId"`
			}{c.sid}))
			return
		}
	}
	f.push(errorFor(id, codeInvalidParams, "No target with given id found", ""))
}

func targetDetach(f *family, id, params json.RawMessage) {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if !decode(f, id, params, &p) {
		return
	}
	if !f.detach(p.SessionID, viaTarget) {
		f.push(errorFor(id, codeInvalidParams, "No session with given id", ""))
		return
	}
	f.push(resultFor(id, struct{}{}))
}

// nodeWorkerDetach detaches a NodeWorker session; like Node, an unknown session id is not an error.
func nodeWorkerDetach(f *family, id, params json.RawMessage) {
	var p struct {
		SessionID string `json:"sessionId"`
	}
	if !decode(f, id, params, &p) {
		return
	}
	f.detach(p.SessionID, viaNodeWorker)
	f.push(resultFor(id, struct{}{}))
}

func targetSend(f *family, id, params json.RawMessage) {
	var p struct {
		Message   string `json:"message"`
		SessionID string `json:"sessionId"`
	}
	if !decode(f, id, params, &p) {
		return
	}
	s := f.route(p.SessionID)
	if s == nil {
		f.push(errorFor(id, codeInvalidParams, "No session with given id", ""))
		return
	}
	// The result goes first: the child may answer the message before Dispatch returns, and the client (Chrome,
	// Node's own order) sees the command's result before anything the command caused in the child.
	f.push(resultFor(id, struct{}{}))
	_ = s.Dispatch([]byte(p.Message)) // a child that ended meanwhile is announced by its detach
}

// nodeWorkerSend passes a message to a NodeWorker session; like Node, an unknown session id is not an error.
func nodeWorkerSend(f *family, id, params json.RawMessage) {
	var p struct {
		Message   string `json:"message"`
		SessionID string `json:"sessionId"`
	}
	if !decode(f, id, params, &p) {
		return
	}
	f.mu.Lock()
	c := f.children[p.SessionID]
	f.mu.Unlock()
	f.push(resultFor(id, struct{}{})) // first, as targetSend's
	if c != nil && c.mode == viaNodeWorker {
		_ = c.s.Dispatch([]byte(p.Message))
	}
}

// attachedTo returns the family's child of the given mode on worker id, or nil.
func (f *family) attachedTo(worker uint64, mode attachMode) *child {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.children {
		if c.info.ID == worker && c.mode == mode {
			return c
		}
	}
	return nil
}

// sessionIDFor returns the id of a new session of the given mode: Node numbers NodeWorker sessions by worker.
func sessionIDFor(w core.WorkerInfo, mode attachMode) string {
	if mode == viaNodeWorker {
		return strconv.FormatUint(w.ID, 10)
	}
	return newSessionID()
}
