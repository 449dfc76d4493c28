// Async stack traces (Debugger.setAsyncCallStackDepth): while a session
// attached to the realm's Debugger asked for a depth above 0, the realm's
// schedulers record where each callback was scheduled (AsyncScheduled: the
// JavaScript stack then, and the async parent of that code) and run it with
// that record as the current async parent (AsyncRun); Debugger.paused then
// carries it as asyncStackTrace, a chain of StackTraces whose description
// names the scheduler ("setTimeout", …), as V8's. With no such session
// AsyncScheduled is one side-table lookup and records nothing.
//
// The web timers (setTimeout, setInterval, setImmediate) use it; promise
// reactions (await, then) are recorded by the realm's AsyncContextTracker
// (asynctracker.go). Message events are not recorded: the Debugger does not
// see the ports' dispatch.

package inspector

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// debuggerOf finds a realm's Debugger (set by Install).
var debuggerOf = realmdata.NewKey[*Debugger]("inspector.Debugger")

// maxAsyncParents bounds an async chain: a timer that schedules itself again
// would otherwise grow it forever.
const maxAsyncParents = 8

// An AsyncTask is where a callback was scheduled: the scheduler's name, the
// JavaScript stack when it was called, and that code's own async parent.
type AsyncTask struct {
	description string
	frames      []goja.StackFrame
	parent      *AsyncTask
	skipFirst   bool          // "await": the awaiting function itself is not shown, as in V8 (the pause's own frames have it)
	rt          *goja.Runtime // the realm whose code scheduled it
}

// Realm is the runtime whose code scheduled t: its frames mean something to that realm's debugger only.
func (t *AsyncTask) Realm() *goja.Runtime { return t.rt }

// asyncDepthMax is the largest depth the attached sessions asked for.
func (d *Debugger) asyncDepthMax() int {
	n := 0
	for _, v := range d.asyncDepth {
		n = max(n, v)
	}
	return n
}

// AsyncScheduled records that the code running now on rt's thread schedules
// a callback (description names the scheduler, e.g. "setTimeout"). It
// returns nil — and costs one lookup — unless the realm has a Debugger with
// a session that asked for async stack traces. rt's thread only.
func AsyncScheduled(rt *goja.Runtime, description string) *AsyncTask {
	d, ok := debuggerOf.Get(rt)
	if !ok || len(d.asyncDepth) == 0 {
		return nil
	}
	depth := d.asyncDepthMax()
	if depth <= 0 {
		return nil
	}
	return &AsyncTask{description: description, frames: rt.CaptureCallStack(depth+2, nil), parent: truncated(d.asyncCur, maxAsyncParents-1), rt: rt}
}

// truncated returns the first n links of chain (a copy when it is longer).
func truncated(chain *AsyncTask, n int) *AsyncTask {
	if chain == nil || n <= 0 {
		return nil
	}
	length := 0
	for t := chain; t != nil; t = t.parent {
		length++
	}
	if length <= n {
		return chain
	}
	head := &AsyncTask{description: chain.description, frames: chain.frames, skipFirst: chain.skipFirst, rt: chain.rt}
	head.parent = truncated(chain.parent, n-1)
	return head
}

// AsyncRun runs fn with t as the async parent of the code it runs: a pause
// inside reports t's chain as its asyncStackTrace. A nil t just runs fn.
// rt's thread only.
func AsyncRun(rt *goja.Runtime, t *AsyncTask, fn func() error) error {
	if t == nil {
		return fn()
	}
	d, ok := debuggerOf.Get(rt)
	if !ok {
		return fn()
	}
	prev := d.asyncCur
	d.asyncCur = t
	defer func() { d.asyncCur = prev }()
	return fn()
}

// stackTrace is CDP's Runtime.StackTrace.
type stackTrace struct {
	Description string         `json:"description,omitempty"`
	CallFrames  []runtimeFrame `json:"callFrames"`
	Parent      *stackTrace    `json:"parent,omitempty"`
}

// runtimeFrame is CDP's Runtime.CallFrame.
type runtimeFrame struct {
	FunctionName string `json:"functionName"`
	ScriptID     string `json:"scriptId"`
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

// asyncTrace is the asyncStackTrace of a pause now: the current async
// parent's chain, up to the depth the sessions asked for; nil without one.
func (d *Debugger) asyncTrace() *stackTrace {
	if d.asyncCur == nil {
		return nil
	}
	depth := d.asyncDepthMax()
	if depth <= 0 {
		return nil
	}
	var head, tail *stackTrace
	for t := d.asyncCur; t != nil && depth > 0; t = t.parent {
		st := &stackTrace{Description: t.description, CallFrames: []runtimeFrame{}}
		skip := t.skipFirst
		for _, f := range t.frames {
			sc := d.scriptByFile(f.SrcName())
			if sc == nil { // the scheduler itself and native frames
				continue
			}
			if skip {
				skip = false
				continue
			}
			if depth == 0 {
				break
			}
			depth--
			pos := f.Position()
			name := f.FuncName()
			if name == "<anonymous>" {
				name = ""
			}
			st.CallFrames = append(st.CallFrames, runtimeFrame{FunctionName: name, ScriptID: sc.id, URL: sc.url,
				LineNumber: max(pos.Line-1, 0), ColumnNumber: max(pos.Column-1, 0)})
		}
		if len(st.CallFrames) == 0 {
			continue
		}
		if head == nil {
			head = st
		} else {
			tail.Parent = st
		}
		tail = st
	}
	return head
}
