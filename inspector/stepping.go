// The hooks' Go side and stepping: deciding at each statement, throw and
// raise site whether to pause, the pause loop, resume and steps.

package inspector

import (
	"slices"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

type stepMode uint8

const (
	stepNone stepMode = iota
	stepInto
	stepOver
	stepOut
)

func (d *Debugger) callDepth() int {
	d.frames = d.rt.CaptureCallStack(0, d.frames[:0])
	return len(d.frames)
}

// hit is the hook before statement id: it decides whether to pause there.
func (d *Debugger) hit(call goja.FunctionCall) goja.Value {
	if d.profiling() {
		d.profileSample()
	}
	if d.paused != nil || len(d.sessions) == 0 || d.skipAll || d.quiet { // evaluation while paused never pauses again
		return goja.Undefined()
	}
	id := int(call.Argument(0).ToInteger())
	if id < 0 || id >= len(d.stmts) {
		return goja.Undefined()
	}
	depth := d.callDepth()
	d.record(depth, id, call.Argument(1), call.Argument(2))
	var hits []string
	var ps *pauseState
	if d.active {
		for _, bid := range d.bpAt[id] {
			bp := d.bps[bid]
			if bp == nil {
				continue
			}
			if bp.cond != "" {
				if ps == nil {
					ps = &pauseState{reason: "other", stmt: id}
					d.frameScope(&ps.frameVars, d.stmts[id].locals, d.stmts[id].this, call.Argument(1), call.Argument(2))
				}
				if !d.condition(ps, bp.cond) {
					continue
				}
			}
			hits = append(hits, bid)
		}
	}
	pause := len(hits) > 0 || d.next || d.stmts[id].debugger || (d.awaitFn != 0 && d.stmts[id].fn == d.awaitFn)
	if !pause && d.stepping != stepNone {
		switch d.stepping {
		case stepInto:
			pause = true
		case stepOver:
			pause = depth <= d.depth
		case stepOut:
			pause = depth < d.depth
		}
		pause = pause && !d.blackboxed(id) // steps pass over ignore-listed code
	}
	pause = pause || d.reached(id)
	if !pause {
		return goja.Undefined()
	}
	if ps == nil {
		ps = &pauseState{reason: "other", stmt: id}
		d.frameScope(&ps.frameVars, d.stmts[id].locals, d.stmts[id].this, call.Argument(1), call.Argument(2))
	}
	if d.next && len(hits) == 0 && d.nextWhy != "" {
		ps.reason = d.nextWhy
	}
	ps.hits = hits
	d.pause(ps)
	return d.rt.ToValue(d.collectWritten(ps))
}

// collectWritten records, for back, the locals of ps's frame that were
// changed while paused, and reports whether there are any.
func (d *Debugger) collectWritten(ps *pauseState) bool {
	d.written = d.written[:0]
	if ps.scope != nil {
		for i, l := range ps.locals {
			if v := ps.objs[l.scope].Get(l.name); !l.konst && (v == nil || !v.SameAs(ps.values[i])) {
				d.written = append(d.written, written{i, v})
			}
		}
	}
	return len(d.written) > 0
}

// A written local is one changed while paused, for back to store.
type written struct {
	i int
	v goja.Value
}

// back(i, cur) is the value local i of the statement that just paused gets:
// its value written while paused, or cur, its own.
func (d *Debugger) back(call goja.FunctionCall) goja.Value {
	i := int(call.Argument(0).ToInteger())
	for _, w := range d.written {
		if w.i == i {
			if w.v == nil {
				return goja.Undefined()
			}
			return w.v
		}
	}
	return call.Argument(1)
}

// thrown is the hook of throw statement id: it pauses with reason
// "exception" when setPauseOnExceptions asks for it. Whether the throw is
// caught is judged statically (throwInfo.caught). At the top level it
// returns the thrown value; in a function, whether locals were written while
// paused (the statement then stores them with back before it throws).
func (d *Debugger) thrown(call goja.FunctionCall) goja.Value {
	v := call.Argument(1)
	d.seenExc = v
	d.thrownStack = nil
	if o, ok := v.(*goja.Object); !ok || gojainternal.ObjectKind(o) != gojainternal.KindError {
		d.thrownStack = callerStack(d.rt)
	}
	id := int(call.Argument(0).ToInteger())
	if id < 0 || id >= len(d.throws) {
		return v
	}
	t := d.throws[id]
	ret := func(written bool) goja.Value {
		if t.inFn {
			return d.rt.ToValue(written)
		}
		return v
	}
	if d.paused != nil || len(d.sessions) == 0 || d.onThrow == "none" || d.skipAll || d.quiet {
		return ret(false)
	}
	if d.onThrow == "all" || (d.onThrow == "caught") == t.caught {
		ps := &pauseState{reason: exceptionReason(t), data: v, stmt: -1}
		d.frameScope(&ps.frameVars, t.locals, t.this, call.Argument(2), call.Argument(3))
		d.pause(ps)
		return ret(d.collectWritten(ps))
	}
	return ret(false)
}

// raised is the hook of raise site id: a function's guard, which sees every
// exception leaving the function, or the start of a catch clause. An
// exception a throw statement's hook or another raise site already saw is
// left alone; any other one — raised by a builtin or the engine (null.x, a
// call of a non-function, JSON.parse) — pauses with reason "exception" when
// setPauseOnExceptions asks for it: at a guard it counts as uncaught (nothing
// in its function caught it), at a catch clause as caught. The pause reports
// frame 0 at the place the error was raised, read from its stack. It reports
// whether locals were written while paused (the hook then stores them with
// back).
func (d *Debugger) raised(call goja.FunctionCall) goja.Value {
	v := call.Argument(1)
	id := int(call.Argument(0).ToInteger())
	if seen := d.seenExc; seen != nil && v.SameAs(seen) {
		if id >= 0 && id < len(d.raises) && d.raises[id].caught {
			d.thrownStack = nil // caught: a later throw of the value is a throw of its own
		}
		return goja.Undefined()
	}
	d.seenExc = v
	d.thrownStack = nil
	if d.paused != nil || len(d.sessions) == 0 || d.onThrow == "none" || d.skipAll || d.quiet {
		return goja.Undefined()
	}
	if id < 0 || id >= len(d.raises) {
		return goja.Undefined()
	}
	site := d.raises[id]
	if d.onThrow == "all" || (d.onThrow == "caught") == site.caught {
		ps := &pauseState{reason: exceptionReason(site), data: v, at: d.raisedAt(v), stmt: -1}
		d.frameScope(&ps.frameVars, site.locals, site.this, call.Argument(2), call.Argument(3))
		d.pause(ps)
		return d.rt.ToValue(d.collectWritten(ps))
	}
	return goja.Undefined()
}

// rethrow(e) is the guards' rethrow, `throw rethrow(e)`: a function's or a top-level statement's catch clause
// passes on the exception it caught. goja gives a thrown value that is not an Error object the stack of the
// instruction that throws it, so a plain `throw e` would report the value at the guard (the function's opening
// brace, the statement's start) where the uninstrumented program reports its throw statement (FuzzInstrument's
// `try { throw 1 } finally {}`). When e is the value a throw statement's hook last saw thrown, rethrow throws it
// itself, as an exception with the stack of that throw (gojainternal.NewException); otherwise — an Error
// object, whose stack goja keeps, a value raised some other way, or goja's exceptions unreadable — it returns e
// for the throw.
func (d *Debugger) rethrow(call goja.FunctionCall) goja.Value {
	v := call.Argument(0)
	if d.thrownStack != nil && d.seenExc != nil && v.SameAs(d.seenExc) {
		if ex := gojainternal.NewException(v, d.thrownStack); ex != nil {
			panic(ex)
		}
	}
	return v
}

// callerStack is the stack of the script that called the native function running now, without that function's
// own frame: what goja gives a value the calling statement throws.
func callerStack(rt *goja.Runtime) []goja.StackFrame {
	st := rt.CaptureCallStack(0, nil)
	if len(st) > 0 && st[0].SrcName() == "<native>" {
		st = st[1:]
	}
	return st
}

// Rejected tells the debugger that promise p was rejected with no handler
// (goja.PromiseRejectionReject of the realm's rejection tracker, which the
// target forwards here): synchronously, on the target's thread, inside the
// reject call. When setPauseOnExceptions asks for uncaught exceptions it
// pauses there with reason "promiseRejection" and the reason as data, as V8
// does for Promise.reject() and an executor's reject(): frame 0 is the
// function that called reject, its scopes the global one. A rejection with
// an exception a hook already saw (an async function's throw, a throwing
// then callback) pauses no second time.
func (d *Debugger) Rejected(p *goja.Promise) {
	if p == nil || d.rt == nil || d.paused != nil || len(d.sessions) == 0 || d.skipAll || d.quiet ||
		(d.onThrow != "all" && d.onThrow != "uncaught") {
		return
	}
	v := p.Result()
	if v == nil {
		v = goja.Undefined()
	}
	if seen := d.seenExc; seen != nil && v.SameAs(seen) {
		return
	}
	d.seenExc = v
	d.pause(&pauseState{reason: "promiseRejection", data: v, stmt: -1})
}

// raisedAt returns where error v was raised, from its stack: the first
// position in one of the target's scripts, or nil when v is no Error or its
// stack names none.
func (d *Debugger) raisedAt(v goja.Value) *location {
	o, ok := v.(*goja.Object)
	if !ok || o.ClassName() != "Error" {
		return nil
	}
	var stack string
	d.quiet = true
	func() {
		defer func() { _ = recover() }() // a throwing stack getter: no position
		if sv := o.Get("stack"); sv != nil {
			stack = sv.String()
		}
	}()
	d.quiet = false
	file, l, c, ok := gojainternal.FirstStackPosition(stack, func(f string) bool { return d.scriptByFile(f) != nil })
	if !ok {
		return nil
	}
	return &location{ScriptID: d.scriptByFile(file).id, LineNumber: max(l-1, 0), ColumnNumber: max(c-1, 0)}
}

// exceptionReason is the reason of a pause on an exception thrown at t: as
// V8 reports it, "promiseRejection" when nothing in an async function
// catches it (it rejects the function's promise), else "exception".
func exceptionReason(t throwInfo) string {
	if t.async && !t.caught {
		return "promiseRejection"
	}
	return "exception"
}

// pause blocks the target in a nested loop that serves inspector commands
// until a resume, a step, the last session leaving, or termination.
func (d *Debugger) pause(ps *pauseState) {
	d.pauseSeq++
	ps.seq = d.pauseSeq
	ps.frames = d.rt.CaptureCallStack(0, nil)
	ps.depth = len(ps.frames)
	d.outerFrames(ps)
	if ps.hits == nil {
		ps.hits = []string{}
	}
	d.paused = ps
	d.next, d.nextWhy, d.stepping, d.awaitFn = false, "", stepNone, 0
	d.until = 0 // any pause ends a continueToLocation
	ps.owner = d.sessions[0]
	if d.asker != nil && slices.Contains(d.sessions, d.asker) {
		ps.owner = d.asker
	}
	d.asker = nil
	for _, s := range slices.Clone(d.sessions) { // observers first, the owner last
		if s != ps.owner {
			s.emitPaused(d, ps)
		}
	}
	ps.owner.emitPaused(d, ps)
	d.host.ServePaused(func() bool { return ps.resumed })
	d.paused = nil
	for _, s := range slices.Clone(d.sessions) {
		s.mu.Lock()
		s.store.releaseGroup(backtraceGroup)
		s.mu.Unlock()
		s.emit(encodeEvent(evResumed, empty{}))
	}
}

// breakOnStart arms a pause at the first statement the target runs, owned
// by s, with Node's reason for it ("Break on start"): the end of a wait for
// the debugger (core.Options.WaitForDebugger).
func (d *Debugger) breakOnStart(s *Session) {
	if d.paused == nil {
		d.next, d.nextWhy, d.asker = true, "Break on start", s
	}
}

// resume ends the current pause, arming step.
func (d *Debugger) resume(step stepMode) {
	if d.paused == nil {
		return
	}
	d.paused.resumed = true
	d.stepping, d.depth, d.stepFrom = step, d.paused.depth, d.paused.stmt
}
