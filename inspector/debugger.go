package inspector

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/stackpos"
)

// A PauseHost runs the target's queued work while its JavaScript is paused.
//
// ServePaused is called on the target's thread, from inside the paused
// JavaScript. It runs the tasks queued through Target.Run (inspector commands)
// until resumed reports true, and returns early when the target is being
// terminated (the JavaScript then ends at its next instruction).
type PauseHost interface {
	ServePaused(resumed func() bool)
}

// A DebugTarget is a Target that may support the Debugger domain. Debugger
// returns nil for a target that was not created inspectable.
type DebugTarget interface {
	Target
	Debugger() *Debugger
}

// A Debugger is the Debugger-domain state of one inspectable target: its
// instrumented scripts, breakpoints, the sessions that enabled the domain and
// the current pause. Create it with NewDebugger, compile the target's scripts
// with Compile, then call Install on the target's thread before any of them
// runs. Apart from Compile before the thread starts, every method is for the
// target's thread.
type Debugger struct {
	host    PauseHost
	rt      *goja.Runtime
	hookObj *goja.Object
	frames  []goja.StackFrame

	stmts   []stmtInfo
	throws  []throwInfo
	raises  []throwInfo // function guards and catch clauses (caught), where raised is called
	seenExc goja.Value  // the exception a hook last saw: it does not pause again as it propagates
	scripts []*script

	sessions []*Session             // Debugger.enable in force, in enable order
	bps      map[string]*breakpoint // by breakpointId
	bpAt     map[int][]string       // statement -> breakpointIds
	paused   *pauseState            // nil while running
	pauseSeq int                    // numbers pauses, for callFrameIds
	stepping stepMode               // armed by a step command
	stepFrom int                    // the statement the step started at (-1: a throw or other hook)
	awaitFn  int                    // a step that left an async function at an await: pause when that function runs again
	fns      int                    // functions numbered so far (stmtInfo.fn)
	depth    int                    // call depth the step started at
	next     bool                   // Debugger.pause: pause at the next statement
	nextWhy  string                 // the reason of that pause: "other", or "Break on start" (runIfWaitingForDebugger)
	active   bool                   // setBreakpointsActive
	onThrow  string                 // the sessions' setPauseOnExceptions combined: "none", "caught", "uncaught" or "all"
	skipAll  bool                   // every session asked setSkipAllPauses(true)
	throwBy  map[*Session]string    // each session's setPauseOnExceptions
	skipBy   map[*Session]bool      // each session's setSkipAllPauses
	asker    *Session               // the session whose Debugger.pause or step is pending: it owns the next pause
	quiet    bool                   // a breakpoint condition is being evaluated: never pause
	written  []written              // the locals changed during the last pause
	evalIn   goja.Callable          // (scopes innermost first, this, source): evaluation in a paused frame
}

type stepMode uint8

const (
	stepNone stepMode = iota
	stepInto
	stepOver
	stepOut
)

type breakpoint struct {
	id    string
	owner *Session
	stmts []int
	url   string
	urlRe *regexp.Regexp // urlRegex, when url is not used
	fixed bool           // set by scriptId (Debugger.setBreakpoint): never resolves in other scripts
	line  int
	col   int
	cond  string // condition: pause only when it evaluates truthy in the frame
}

// resolveIn adds sc's statement for bp, if sc matches and has one.
func (d *Debugger) resolveIn(bp *breakpoint, sc *script) (location, bool) {
	if bp.fixed || (bp.urlRe == nil && sc.url != bp.url) || (bp.urlRe != nil && !bp.urlRe.MatchString(sc.url)) {
		return location{}, false
	}
	st := d.resolve(sc, bp.line, bp.col)
	if st < 0 {
		return location{}, false
	}
	bp.stmts = append(bp.stmts, st)
	d.bpAt[st] = append(d.bpAt[st], bp.id)
	return location{ScriptID: sc.id, LineNumber: d.stmts[st].line, ColumnNumber: d.stmts[st].col}, true
}

// sortedBreakpoints returns the breakpoints in id order (deterministic events).
func (d *Debugger) sortedBreakpoints() []*breakpoint {
	out := make([]*breakpoint, 0, len(d.bps))
	for _, bp := range d.bps {
		out = append(out, bp)
	}
	slices.SortFunc(out, func(a, b *breakpoint) int { return cmp.Compare(a.id, b.id) })
	return out
}

type breakpointResolvedParams struct {
	BreakpointID string   `json:"breakpointId"`
	Location     location `json:"location"`
}

type pauseState struct {
	seq     int
	frames  []goja.StackFrame
	depth   int
	reason  string
	hits    []string
	data    goja.Value // reason "exception": the thrown value
	at      *location  // where frame 0 is, when not where its call stack says (an error raised by a builtin)
	resumed bool
	owner   *Session // the session that may resume or step; the others observe
	stmt    int      // the statement paused at; -1 for a pause at a throw or an exception

	// The paused statement's frame, for a hook that passed its locals.
	locals   []local                  // the statement's locals, the order of values
	readOnly bool                     // a pause at a throw: locals are not written back
	scope    *goja.Object             // its locals by name: the "local" scope; evaluation and setVariableValue write here
	objs     [scopeKinds]*goja.Object // the scope objects by kind (objs[scopeLocal] is scope); nil when empty
	values   []goja.Value             // the locals as the hook passed them, to tell what changed
	this     goja.Value               // nil when the hook passed none
}

// NewDebugger returns the Debugger of a new inspectable target.
func NewDebugger() *Debugger {
	return &Debugger{bps: make(map[string]*breakpoint), bpAt: make(map[int][]string), active: true, onThrow: "none",
		throwBy: make(map[*Session]string), skipBy: make(map[*Session]bool)}
}

// Install defines the hook global in rt, the target's realm, and records
// host to serve pauses. Called once, on the target's thread, before any
// compiled script runs.
func (d *Debugger) Install(rt *goja.Runtime, host PauseHost) error {
	d.rt, d.host = rt, host
	if err := depthguard.Ensure(rt); err != nil { // Compile guards every function (internal/depthguard)
		return err
	}
	o := rt.NewObject()
	// The flag every hook tests first, a global of its own: one name lookup
	// per statement with the hooks off, not a lookup and a property read.
	// Writable for setOn, but not configurable: a script cannot delete it.
	if err := rt.GlobalObject().DefineDataProperty(onName, rt.ToValue(false), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	if err := rt.GlobalObject().DefineDataProperty(sinkName, goja.Undefined(), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	if err := o.DefineDataProperty("hit", rt.ToValue(d.hit), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	if err := o.DefineDataProperty("back", rt.ToValue(d.back), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	if err := o.DefineDataProperty("thrown", rt.ToValue(d.thrown), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	if err := o.DefineDataProperty("raised", rt.ToValue(d.raised), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	d.hookObj = o
	// The helper of evaluateOnCallFrame, made before any script of the
	// target runs (so with the realm's own Proxy and Function) and never
	// instrumented. Names the scope object lacks resolve outside it; the
	// proxy claims `arguments` so that the helper's own does not show.
	h, err := rt.RunString(`(function (P, F, own) {
  var run = F("__scope", "__src", "with (__scope) { return eval(__src); }");
  return function (scopes, thisv, src) {
    var owner = function (k) {
      if (typeof k !== "string") return null;
      for (var i = 0; i < scopes.length; i++) if (own.call(scopes[i], k)) return scopes[i];
      return null;
    };
    var traps = {
      has: function (t, k) { return k === "arguments" || owner(k) !== null; },
      get: function (t, k) { var o = owner(k); return o ? o[k] : undefined; },
      set: function (t, k, v) { var o = owner(k); if (o) o[k] = v; return true; }
    };
    return run.call(thisv, new P(scopes[0] || {}, traps), src);
  };
})(Proxy, Function, Object.prototype.hasOwnProperty)`)
	if err != nil {
		return err
	}
	d.evalIn, _ = goja.AssertFunction(h)
	return rt.GlobalObject().DefineDataProperty(hookName, o, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
}

// TaskDone tells the debugger that a macrotask of the target ended, so a step
// that ran off the end of the JavaScript stack does not carry over into the
// next task (V8 resumes in that case).
func (d *Debugger) TaskDone() {
	if d.paused == nil {
		// A stepOver or stepInto begun at a statement with an await that ran
		// off its macrotask left the async function suspended there: the
		// step continues when that function runs again (its continuation, in
		// a later macrotask), as V8's steps do across await.
		if (d.stepping == stepOver || d.stepping == stepInto) && d.stepFrom >= 0 && d.stepFrom < len(d.stmts) &&
			d.stmts[d.stepFrom].await {
			d.awaitFn = d.stmts[d.stepFrom].fn
		}
		d.stepping = stepNone
		d.seenExc = nil
	}
}

// setOn turns the hooks on while some session has the domain enabled.
func (d *Debugger) setOn() {
	if d.hookObj != nil {
		_ = d.rt.GlobalObject().Set(onName, len(d.sessions) > 0)
	}
}

func (d *Debugger) callDepth() int {
	d.frames = d.rt.CaptureCallStack(0, d.frames[:0])
	return len(d.frames)
}

// hit is the hook before statement id: it decides whether to pause there.
func (d *Debugger) hit(call goja.FunctionCall) goja.Value {
	if d.paused != nil || len(d.sessions) == 0 || d.skipAll || d.quiet { // evaluation while paused never pauses again
		return goja.Undefined()
	}
	id := int(call.Argument(0).ToInteger())
	if id < 0 || id >= len(d.stmts) {
		return goja.Undefined()
	}
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
					d.frameScope(ps, d.stmts[id].locals, d.stmts[id].this, call.Argument(1), call.Argument(2))
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
		depth := d.callDepth()
		switch d.stepping {
		case stepInto:
			pause = true
		case stepOver:
			pause = depth <= d.depth
		case stepOut:
			pause = depth < d.depth
		}
	}
	if !pause {
		return goja.Undefined()
	}
	if ps == nil {
		ps = &pauseState{reason: "other", stmt: id}
		d.frameScope(ps, d.stmts[id].locals, d.stmts[id].this, call.Argument(1), call.Argument(2))
	}
	if d.next && len(hits) == 0 && d.nextWhy != "" {
		ps.reason = d.nextWhy
	}
	ps.hits = hits
	d.pause(ps)
	d.written = d.written[:0]
	if ps.scope != nil {
		for i, l := range ps.locals {
			if v := ps.objs[l.scope].Get(l.name); !l.konst && (v == nil || !v.SameAs(ps.values[i])) {
				d.written = append(d.written, written{i, v})
			}
		}
	}
	return d.rt.ToValue(len(d.written) > 0)
}

// frameScope fills ps's scope from what a hook passed: arr, the values of
// locals (an array; anything else when the hook is at the top level), and
// thisv when hasThis.
func (d *Debugger) frameScope(ps *pauseState, locals []local, hasThis bool, arr, thisv goja.Value) {
	o, ok := arr.(*goja.Object)
	if !ok {
		return
	}
	ps.locals = locals
	ps.scope = d.rt.NewObject()
	_ = ps.scope.SetPrototype(nil)
	ps.objs[scopeLocal] = ps.scope
	for i, l := range locals {
		v := o.Get(strconv.Itoa(i))
		ps.values = append(ps.values, v)
		w := goja.FLAG_TRUE
		if l.konst {
			w = goja.FLAG_FALSE
		}
		target := ps.objs[l.scope]
		if target == nil {
			target = d.rt.NewObject()
			_ = target.SetPrototype(nil)
			ps.objs[l.scope] = target
		}
		_ = target.DefineDataProperty(l.name, v, w, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	if hasThis {
		ps.this = thisv
	}
}

// chain returns the frame's scopes as Debugger.paused lists them, innermost
// first: block (if any), local, closure (if any).
func (ps *pauseState) chain() (kinds []scopeKind, objs []*goja.Object) {
	for _, k := range []scopeKind{scopeBlock, scopeLocal, scopeClosure} {
		if ps.objs[k] != nil {
			kinds, objs = append(kinds, k), append(objs, ps.objs[k])
		}
	}
	return kinds, objs
}

// scopesValue is the frame's scope objects as a JavaScript array, innermost
// first, for evalIn.
func (d *Debugger) scopesValue(ps *pauseState) goja.Value {
	_, objs := ps.chain()
	vals := make([]any, len(objs))
	for i, o := range objs {
		vals[i] = o
	}
	return d.rt.NewArray(vals...)
}

// condition evaluates a breakpoint condition in the statement's frame (its
// locals and this, as evaluateOnCallFrame; the global scope at the top level)
// and reports whether it is truthy. A condition that throws is false. Nothing
// pauses while it runs.
func (d *Debugger) condition(ps *pauseState, src string) bool {
	scope, this := ps.scope, ps.this
	if scope == nil {
		scope = d.rt.NewObject()
		_ = scope.SetPrototype(nil)
	}
	if this == nil {
		this = goja.Undefined()
	}
	d.quiet = true
	defer func() { d.quiet = false }()
	scopes := d.scopesValue(ps)
	if ps.scope == nil {
		scopes = d.rt.NewArray(scope)
	}
	v, err := d.evalIn(goja.Undefined(), scopes, this, d.rt.ToValue(src))
	return err == nil && v.ToBoolean()
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

// thrown is the hook of throw statement id: it returns the thrown value,
// after pausing with reason "exception" when setPauseOnExceptions asks for
// it. Whether the throw is caught is judged statically (throwInfo.caught).
func (d *Debugger) thrown(call goja.FunctionCall) goja.Value {
	v := call.Argument(1)
	d.seenExc = v
	if d.paused != nil || len(d.sessions) == 0 || d.onThrow == "none" || d.skipAll || d.quiet {
		return v
	}
	id := int(call.Argument(0).ToInteger())
	if id < 0 || id >= len(d.throws) {
		return v
	}
	caught := d.throws[id].caught
	if d.onThrow == "all" || (d.onThrow == "caught") == caught {
		ps := &pauseState{reason: exceptionReason(d.throws[id]), data: v, readOnly: true, stmt: -1}
		d.frameScope(ps, d.throws[id].locals, d.throws[id].this, call.Argument(2), call.Argument(3))
		d.pause(ps)
	}
	return v
}

// raised is the hook of raise site id: a function's guard, which sees every
// exception leaving the function, or the start of a catch clause. An
// exception a throw statement's hook or another raise site already saw is
// left alone; any other one — raised by a builtin or the engine (null.x, a
// call of a non-function, JSON.parse) — pauses with reason "exception" when
// setPauseOnExceptions asks for it: at a guard it counts as uncaught (nothing
// in its function caught it), at a catch clause as caught. The pause reports
// frame 0 at the place the error was raised, read from its stack.
func (d *Debugger) raised(call goja.FunctionCall) goja.Value {
	v := call.Argument(1)
	if seen := d.seenExc; seen != nil && v.SameAs(seen) {
		return goja.Undefined()
	}
	d.seenExc = v
	if d.paused != nil || len(d.sessions) == 0 || d.onThrow == "none" || d.skipAll || d.quiet {
		return goja.Undefined()
	}
	id := int(call.Argument(0).ToInteger())
	if id < 0 || id >= len(d.raises) {
		return goja.Undefined()
	}
	site := d.raises[id]
	if d.onThrow == "all" || (d.onThrow == "caught") == site.caught {
		ps := &pauseState{reason: exceptionReason(site), data: v, readOnly: true, at: d.raisedAt(v), stmt: -1}
		d.frameScope(ps, site.locals, site.this, call.Argument(2), call.Argument(3))
		d.pause(ps)
	}
	return goja.Undefined()
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
	file, l, c, ok := stackpos.First(stack, func(f string) bool { return d.scriptByFile(f) != nil })
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
	if ps.hits == nil {
		ps.hits = []string{}
	}
	d.paused = ps
	d.next, d.nextWhy, d.stepping, d.awaitFn = false, "", stepNone, 0
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

// combine derives the target's pause-on-exceptions and skip-all states from
// the sessions', as V8 does with several agents: an exception pauses when
// some session asked for its kind (caught or uncaught), and pauses are
// skipped only when every session asked to skip them.
func (d *Debugger) combine() {
	var caught, uncaught bool
	for _, st := range d.throwBy {
		caught = caught || st == "caught" || st == "all"
		uncaught = uncaught || st == "uncaught" || st == "all"
	}
	switch {
	case caught && uncaught:
		d.onThrow = "all"
	case caught:
		d.onThrow = "caught"
	case uncaught:
		d.onThrow = "uncaught"
	default:
		d.onThrow = "none"
	}
	d.skipAll = len(d.sessions) > 0
	for _, s := range d.sessions {
		d.skipAll = d.skipAll && d.skipBy[s]
	}
}

// detach forgets s: its breakpoints go, and with the last session the hooks
// turn off and a pause ends.
func (d *Debugger) detach(s *Session) {
	i := slices.Index(d.sessions, s)
	if i < 0 {
		return
	}
	d.sessions = slices.Delete(d.sessions, i, i+1)
	if d.asker == s {
		d.asker = nil
	}
	if d.paused != nil && d.paused.owner == s { // the owner leaves: the pause ends
		d.resume(stepNone)
	}
	for id, bp := range d.bps {
		if bp.owner == s {
			d.removeBreakpoint(id)
		}
	}
	delete(d.throwBy, s)
	delete(d.skipBy, s)
	d.combine()
	if len(d.sessions) == 0 {
		d.next, d.awaitFn = false, 0
		d.resume(stepNone)
		d.stepping = stepNone
	}
	d.setOn()
}

func (d *Debugger) scriptByID(id string) *script {
	for _, sc := range d.scripts {
		if sc.id == id {
			return sc
		}
	}
	return nil
}

// scriptByFile returns the script compiled with the file name of a frame.
func (d *Debugger) scriptByFile(file string) *script {
	for _, sc := range d.scripts {
		if sc.file == file {
			return sc
		}
	}
	return nil
}

// resolve returns the first statement of sc at or after (line, col), or -1.
func (d *Debugger) resolve(sc *script, line, col int) int {
	best := -1
	for _, id := range sc.stmts {
		st := d.stmts[id]
		if st.line < line || (st.line == line && st.col < col) {
			continue
		}
		if best < 0 || cmpPos(st, d.stmts[best]) < 0 {
			best = id
		}
	}
	return best
}

func cmpPos(a, b stmtInfo) int {
	return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col))
}

func (d *Debugger) removeBreakpoint(id string) {
	bp := d.bps[id]
	if bp == nil {
		return
	}
	delete(d.bps, id)
	for _, st := range bp.stmts {
		ids := slices.DeleteFunc(d.bpAt[st], func(x string) bool { return x == id })
		if len(ids) == 0 {
			delete(d.bpAt, st)
		} else {
			d.bpAt[st] = ids
		}
	}
}

// debugger returns the session's target's Debugger, or nil.
func (s *Session) debugger() *Debugger {
	if t, ok := s.target.(DebugTarget); ok {
		return t.Debugger()
	}
	return nil
}

// detachDebugger disables the Debugger domain for a session that closes. On
// the target's thread.
func (s *Session) detachDebugger() {
	if d := s.debugger(); d != nil {
		d.detach(s)
	}
}

// Debugger-domain wire types.

const backtraceGroup = "backtrace"

type location struct {
	ScriptID     string `json:"scriptId"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

type scriptParsedParams struct {
	ScriptID           string `json:"scriptId"`
	URL                string `json:"url"`
	StartLine          int    `json:"startLine"`
	StartColumn        int    `json:"startColumn"`
	EndLine            int    `json:"endLine"`
	EndColumn          int    `json:"endColumn"`
	ExecutionContextID int    `json:"executionContextId"`
	Hash               string `json:"hash"`
	IsModule           bool   `json:"isModule"`
	Length             int    `json:"length"`
	SourceMapURL       string `json:"sourceMapURL"`
	HasSourceURL       bool   `json:"hasSourceURL"`
	ScriptLanguage     string `json:"scriptLanguage"`
}

type scopeDesc struct {
	Type   string        `json:"type"`
	Object *remoteObject `json:"object"`
}

type callFrame struct {
	CallFrameID    string        `json:"callFrameId"`
	FunctionName   string        `json:"functionName"`
	Location       location      `json:"location"`
	URL            string        `json:"url"`
	ScopeChain     []scopeDesc   `json:"scopeChain"`
	This           *remoteObject `json:"this"`
	CanBeRestarted bool          `json:"canBeRestarted"`
}

type pausedParams struct {
	CallFrames     []callFrame   `json:"callFrames"`
	Reason         string        `json:"reason"`
	HitBreakpoints []string      `json:"hitBreakpoints"`
	Data           *remoteObject `json:"data,omitempty"`
}

// emitPaused queues Debugger.paused for one session, with its own objectIds.
func (s *Session) emitPaused(d *Debugger, ps *pauseState) {
	c := &call{s: s, rt: d.rt}
	defer func() { _ = recover() }() // an event that cannot be built is not sent
	p := pausedParams{CallFrames: []callFrame{}, Reason: ps.reason, HitBreakpoints: ps.hits}
	global := c.remote(d.rt.GlobalObject(), backtraceGroup)
	if ps.data != nil {
		p.Data = c.remote(ps.data, backtraceGroup)
	}
	for i, f := range ps.frames {
		sc := d.scriptByFile(f.SrcName())
		if sc == nil { // the hook itself and native frames
			continue
		}
		pos := f.Position()
		name := f.FuncName()
		if name == "<anonymous>" && i == len(ps.frames)-1 {
			name = "" // V8 names the top level ""
		}
		cf := callFrame{
			CallFrameID:  strconv.Itoa(ps.seq) + "." + strconv.Itoa(len(p.CallFrames)),
			FunctionName: name,
			Location:     location{ScriptID: sc.id, LineNumber: max(pos.Line-1, 0), ColumnNumber: max(pos.Column-1, 0)},
			URL:          sc.url,
			ScopeChain:   []scopeDesc{{Type: "global", Object: global}},
			This:         &remoteObject{Type: "undefined"},
		}
		if len(p.CallFrames) == 0 && ps.at != nil && ps.at.ScriptID == sc.id {
			cf.Location = *ps.at
		}
		if len(p.CallFrames) == 0 && ps.scope != nil { // the paused statement's own frame
			kinds, objs := ps.chain()
			chain := make([]scopeDesc, 0, len(kinds)+1)
			for i, k := range kinds {
				chain = append(chain, scopeDesc{Type: scopeTypes[k], Object: c.remote(objs[i], backtraceGroup)})
			}
			cf.ScopeChain = append(chain, cf.ScopeChain...)
			if ps.this != nil {
				cf.This = c.remote(ps.this, backtraceGroup)
			}
		}
		p.CallFrames = append(p.CallFrames, cf)
	}
	s.emit(encodeEvent(evPaused, p))
}
