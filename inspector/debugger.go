// The Debugger registry: the state of one inspectable target, its install
// into the realm, its sessions and scripts.

package inspector

import (
	"errors"
	"slices"
	"sync"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
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
	flag    *depthguard.Flag // the realm's guard's value: on with onName (setOn)
	frames  []goja.StackFrame

	stmts   []stmtInfo
	throws  []throwInfo
	raises  []throwInfo // function guards and catch clauses (caught), where raised is called
	seenExc goja.Value  // the exception a hook last saw: it does not pause again as it propagates
	// thrownStack is where a throw statement's hook last saw its value thrown, when that value is not an Error
	// object (goja gives such a value the stack of the instruction that throws it): the guards' rethrow throws it
	// with this stack, as it was first thrown (rethrow). nil once the value was caught or another was raised.
	thrownStack []goja.StackFrame
	scripts     []*script

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
	recs     []frameRec             // the last statement hook of each frame on the stack, by depth (callers.go)
	evalIn   goja.Callable          // (scopes innermost first, this, source): evaluation in a paused frame
	ext                             // Profiler, blackboxing, continueToLocation (debugger_ext.go)
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
	debuggerOf.Set(rt, d)                         // AsyncScheduled finds it (async.go)
	if err := depthguard.Ensure(rt); err != nil { // Compile guards every function (internal/depthguard)
		return err
	}
	// Instrumented functions read the hook flag from the guard's call at their entry (hooks.go entryFlag): the
	// guard's value is set with onName (setOn). Every realm running instrumented code has the guard (Rewrite
	// calls it in every function, and Ensure installed it above), so every such realm has the flag.
	if d.flag = depthguard.FlagOf(rt); d.flag == nil {
		return errors.New("inspector: the realm's depth guard has no flag")
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
	if err := o.DefineDataProperty("rethrow", rt.ToValue(d.rethrow), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE); err != nil {
		return err
	}
	d.hookObj = o
	// The helper of evaluateOnCallFrame, made before any script of the
	// target runs (so with the realm's own Proxy and Function) and never
	// instrumented. Names the scope object lacks resolve outside it; the
	// proxy claims `arguments` so that the helper's own does not show.
	h, err := rt.RunProgram(evalInProgram())
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
	if d.profiling() {
		d.profileIdle()
	}
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
		d.thrownStack = nil
		d.forgetFrames()
	}
}

// setOn turns the hooks on while some session has the domain enabled (or the
// Profiler runs): the global onName, which statement hooks test, and the depth
// guard's value, which functions test at entry, always together.
func (d *Debugger) setOn() {
	if d.hookObj != nil {
		on := len(d.sessions) > 0 || d.profiling()
		_ = d.rt.GlobalObject().Set(onName, on)
		d.flag.Set(on)
	}
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
	delete(d.asyncDepth, s)
	d.combine()
	if len(d.sessions) == 0 {
		d.forgetFrames()
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
		d.stopProfile(s)
		d.detach(s)
	}
}

// evalInProgram is the evaluateOnCallFrame helper's program (Install), compiled once per process: a
// goja.Program is immutable, and every realm runs its own instance of it.
var evalInProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("", `(function (P, F, own) {
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
})(Proxy, Function, Object.prototype.hasOwnProperty)`, false)
})
