package inspector

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// Async stack traces across promise reactions (await, then): goja calls a
// runtime's one AsyncContextTracker when a reaction is registered (Grab) and
// around its job (Resumed, Exited). The inspector's tracker records an
// AsyncTask at Grab while a session asked for async stack traces and makes it
// the current async parent while the job runs. A realm's own tracker (the
// Node layer's, for AsyncLocalStorage) is composed with it: install it with
// SetAsyncContextTracker, not goja's.

var trackerOf = realmdata.NewKey[*asyncTracker]("inspector.asyncTracker")

// asyncTracker is the composed goja.AsyncContextTracker of one realm.
type asyncTracker struct {
	rt   *goja.Runtime
	d    *Debugger                // nil for a realm without one (then only user runs)
	user goja.AsyncContextTracker // the realm's own, or nil
	prev []*AsyncTask             // asyncCur before each running job, innermost last
}

// asyncCtx is what Grab returns while it records: the user tracker's value
// and the task.
type asyncCtx struct {
	user any
	task *AsyncTask
}

// SetAsyncContextTracker installs t as rt's goja.AsyncContextTracker,
// composed with the inspector's own (async stack traces across await and
// Promise.then). Use it instead of rt.SetAsyncContextTracker in a realm a
// Debugger may inspect. rt's thread only.
func SetAsyncContextTracker(rt *goja.Runtime, t goja.AsyncContextTracker) {
	tracker(rt).user = t
}

// tracker returns rt's composed tracker, installing it.
func tracker(rt *goja.Runtime) *asyncTracker {
	if a, ok := trackerOf.Get(rt); ok {
		return a
	}
	a := &asyncTracker{rt: rt}
	a.d, _ = debuggerOf.Get(rt)
	trackerOf.Set(rt, a)
	rt.SetAsyncContextTracker(a)
	return a
}

// Grab runs as a promise reaction is registered.
func (a *asyncTracker) Grab() any {
	var user any
	if a.user != nil {
		user = a.user.Grab()
	}
	d := a.d
	if d == nil || len(d.asyncDepth) == 0 {
		return user
	}
	depth := d.asyncDepthMax()
	frames := a.rt.CaptureCallStack(depth+2, nil)
	description := "await"
	if len(frames) > 0 && frames[0].SrcName() == "<native>" {
		switch frames[0].FuncName() {
		case "then", "catch", "finally":
			description = "Promise." + frames[0].FuncName()
		}
	}
	return &asyncCtx{user: user, task: &AsyncTask{description: description, frames: frames,
		parent: truncated(d.asyncCur, maxAsyncParents-1), skipFirst: description == "await"}}
}

// Resumed runs before the reaction's job.
func (a *asyncTracker) Resumed(v any) {
	c, recorded := v.(*asyncCtx)
	if a.user != nil {
		if recorded {
			a.user.Resumed(c.user)
		} else {
			a.user.Resumed(v)
		}
	}
	if a.d != nil {
		a.prev = append(a.prev, a.d.asyncCur)
		if recorded {
			a.d.asyncCur = c.task
		}
	}
}

// Exited runs after the reaction's job.
func (a *asyncTracker) Exited() {
	if a.user != nil {
		a.user.Exited()
	}
	if a.d != nil && len(a.prev) > 0 {
		a.d.asyncCur = a.prev[len(a.prev)-1]
		a.prev = a.prev[:len(a.prev)-1]
	}
}
