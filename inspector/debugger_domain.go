package inspector

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

const (
	msgNotInspectable = "Debugger domain is not available: the target was not created inspectable " +
		"(core.Options.Inspectable, the C option ZJSWorkerOptions.inspectable, or JSWORKER_INSPECT=1 in the environment)"
	msgDebuggerOff = "Debugger agent is not enabled"
	msgNotPaused   = "Can only perform operation while paused."
	msgNotOwner    = "Another session owns this pause: only it can resume or step"
)

// debuggerFor returns the target's Debugger for a Debugger-domain command,
// or answers the error and returns nil: the target is not inspectable, or
// (enabled) the session has not enabled the domain.
func (c *call) debuggerFor(enabled bool) *Debugger {
	d := c.s.debugger()
	if d == nil || d.rt == nil {
		c.failServer(msgNotInspectable)
		return nil
	}
	if enabled && !slices.Contains(d.sessions, c.s) {
		c.failServer(msgDebuggerOff)
		return nil
	}
	return d
}

// debuggerEnable replays Debugger.scriptParsed for every script (before the
// response, as V8 does) and turns the hooks on; a session enabling during a
// pause then receives that pause.
func debuggerEnable(c *call) {
	d := c.debuggerFor(false)
	if d == nil {
		return
	}
	was := slices.Contains(d.sessions, c.s)
	if !was {
		d.sessions = append(d.sessions, c.s)
		d.combine()
		d.setOn()
		for _, sc := range d.scripts {
			c.s.emitScriptParsed(sc)
		}
	}
	c.reply(struct {
		DebuggerID string `json:"debuggerId"`
	}{"jsworker-" + c.s.ctx.UniqueID})
	if !was && d.paused != nil {
		c.s.emitPaused(d, d.paused)
	}
}

// debuggerDisable drops the session's breakpoints; with the last session the
// hooks turn off and a pause ends.
func debuggerDisable(c *call) {
	d := c.debuggerFor(false)
	if d == nil {
		return
	}
	d.detach(c.s)
	c.reply(empty{})
}

func debuggerPause(c *call) {
	d := c.debuggerFor(true)
	if d == nil {
		return
	}
	if d.paused == nil {
		d.next, d.nextWhy, d.asker = true, "", c.s
	}
	c.reply(empty{})
}

func stepper(mode stepMode) handler {
	return func(c *call) {
		d := c.debuggerFor(true)
		if d == nil {
			return
		}
		if d.paused == nil {
			c.failServer(msgNotPaused)
			return
		}
		if d.paused.owner != c.s {
			c.failServer(msgNotOwner)
			return
		}
		d.resume(mode)
		if mode != stepNone {
			d.asker = c.s
		}
		c.reply(empty{})
	}
}

func getScriptSource(c *call) {
	var p struct {
		ScriptID *string `json:"scriptId"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.ScriptID == nil {
		c.missing("scriptId")
		return
	}
	sc := d.scriptByID(*p.ScriptID)
	if sc == nil {
		c.failServer("No script for id: " + *p.ScriptID)
		return
	}
	c.reply(struct {
		ScriptSource string `json:"scriptSource"`
	}{sc.source})
}

// setBreakpointByURL sets a breakpoint on every script whose URL matches,
// at the first statement at or after the location.
func setBreakpointByURL(c *call) {
	var p struct {
		LineNumber   *int    `json:"lineNumber"`
		URL          *string `json:"url"`
		URLRegex     *string `json:"urlRegex"`
		ScriptHash   *string `json:"scriptHash"`
		ColumnNumber *int    `json:"columnNumber"`
		Condition    *string `json:"condition"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.LineNumber == nil {
		c.missing("lineNumber")
		return
	}
	if (p.URL == nil) == (p.URLRegex == nil) {
		c.failServer("Either url or urlRegex must be specified.")
		return
	}
	bp := &breakpoint{owner: c.s, line: *p.LineNumber}
	if p.Condition != nil {
		bp.cond = *p.Condition
	}
	if p.ColumnNumber != nil {
		bp.col = *p.ColumnNumber
	}
	kind, pattern := "1", ""
	if p.URL != nil {
		bp.url, pattern = *p.URL, *p.URL
	} else {
		re, err := regexp.Compile(*p.URLRegex)
		if err != nil {
			c.failServer("Incorrect regex: " + err.Error())
			return
		}
		bp.urlRe, kind, pattern = re, "2", *p.URLRegex
	}
	bp.id = kind + ":" + strconv.Itoa(bp.line) + ":" + strconv.Itoa(bp.col) + ":" + pattern
	if d.bps[bp.id] != nil {
		c.failServer("Breakpoint at specified location already exists.")
		return
	}
	locs := []location{}
	for _, sc := range d.scripts {
		if loc, ok := d.resolveIn(bp, sc); ok {
			locs = append(locs, loc)
		}
	}
	d.bps[bp.id] = bp
	c.reply(struct {
		BreakpointID string     `json:"breakpointId"`
		Locations    []location `json:"locations"`
	}{bp.id, locs})
}

// removeBreakpoint: an unknown id is not an error (V8).
func removeBreakpoint(c *call) {
	var p struct {
		BreakpointID *string `json:"breakpointId"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.BreakpointID == nil {
		c.missing("breakpointId")
		return
	}
	d.removeBreakpoint(*p.BreakpointID)
	c.reply(empty{})
}

func setBreakpointsActive(c *call) {
	var p struct {
		Active *bool `json:"active"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.Active == nil {
		c.missing("active")
		return
	}
	d.active = *p.Active
	c.reply(empty{})
}

// setSkipAllPauses: while skip is true no breakpoint, debugger statement,
// Debugger.pause, step or exception pauses the target. For the whole target;
// reset when no session has the domain enabled.
func setSkipAllPauses(c *call) {
	var p struct {
		Skip *bool `json:"skip"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.Skip == nil {
		c.missing("skip")
		return
	}
	d.skipBy[c.s] = *p.Skip
	d.combine()
	c.reply(empty{})
}

func (s *Session) emitScriptParsed(sc *script) {
	s.emit(encodeEvent(evScriptParsed, scriptParsedParams{
		ScriptID: sc.id, URL: sc.url, HasSourceURL: sc.hasURL,
		EndLine: sc.endLine, EndColumn: sc.endCol,
		ExecutionContextID: s.ctx.ID,
		Hash:               sc.hash,
		IsModule:           sc.module,
		Length:             len(sc.source),
		ScriptLanguage:     "JavaScript",
	}))
}

// setBreakpoint sets a breakpoint at a location of one script: the first
// statement at or after it.
func setBreakpoint(c *call) {
	var p struct {
		Location  *location `json:"location"`
		Condition *string   `json:"condition"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.Location == nil {
		c.missing("location")
		return
	}
	sc := d.scriptByID(p.Location.ScriptID)
	if sc == nil {
		c.failServer("Could not resolve breakpoint")
		return
	}
	st := d.resolve(sc, p.Location.LineNumber, p.Location.ColumnNumber)
	if st < 0 {
		c.failServer("Could not resolve breakpoint")
		return
	}
	loc := location{ScriptID: sc.id, LineNumber: d.stmts[st].line, ColumnNumber: d.stmts[st].col}
	id := "4:" + strconv.Itoa(loc.LineNumber) + ":" + strconv.Itoa(loc.ColumnNumber) + ":" + sc.id
	if d.bps[id] != nil {
		c.failServer("Breakpoint at specified location already exists.")
		return
	}
	bp := &breakpoint{id: id, owner: c.s, stmts: []int{st}, line: loc.LineNumber, col: loc.ColumnNumber, fixed: true}
	if p.Condition != nil {
		bp.cond = *p.Condition
	}
	d.bps[id] = bp
	d.bpAt[st] = append(d.bpAt[st], id)
	c.reply(struct {
		BreakpointID   string   `json:"breakpointId"`
		ActualLocation location `json:"actualLocation"`
	}{id, loc})
}

// getPossibleBreakpoints lists the statements of one script from start up to
// end (exclusive; the end of the script when absent), in source order.
func getPossibleBreakpoints(c *call) {
	var p struct {
		Start *location `json:"start"`
		End   *location `json:"end"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.Start == nil {
		c.missing("start")
		return
	}
	sc := d.scriptByID(p.Start.ScriptID)
	if sc == nil || (p.End != nil && p.End.ScriptID != sc.id) {
		c.failServer("Locations should contain the same scriptId")
		return
	}
	from := stmtInfo{line: p.Start.LineNumber, col: p.Start.ColumnNumber}
	locs := []location{}
	for _, id := range sc.stmts {
		st := d.stmts[id]
		if cmpPos(st, from) < 0 || (p.End != nil && cmpPos(st, stmtInfo{line: p.End.LineNumber, col: p.End.ColumnNumber}) >= 0) {
			continue
		}
		locs = append(locs, location{ScriptID: sc.id, LineNumber: st.line, ColumnNumber: st.col})
	}
	slices.SortFunc(locs, func(a, b location) int {
		return cmpPos(stmtInfo{line: a.LineNumber, col: a.ColumnNumber}, stmtInfo{line: b.LineNumber, col: b.ColumnNumber})
	})
	locs = slices.Compact(locs)
	c.reply(struct {
		Locations []location `json:"locations"`
	}{locs})
}

// setPauseOnExceptions sets when a JavaScript `throw` statement pauses
// (reason "exception"), for every session of the target: the last state set
// wins. "uncaught" and "caught" are judged statically at the throw site: a
// throw is caught when it is inside the block of a try with a catch clause
// in its own function; a throw caught by a caller counts as uncaught.
// Errors raised by builtins (null.x, a failed call) never pause.
func setPauseOnExceptions(c *call) {
	var p struct {
		State *string `json:"state"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.State == nil {
		c.missing("state")
		return
	}
	switch *p.State {
	case "none", "caught", "uncaught", "all":
		d.throwBy[c.s] = *p.State
		d.combine()
		c.reply(empty{})
	default:
		c.fail(codeInvalidParams, msgInvalidParams, "Unknown pause on exceptions mode: "+*p.State)
	}
}

// pausedFrame finds a call frame of the current pause by its callFrameId:
// its index (0 is the paused statement's own frame), or an answered error.
func (c *call) pausedFrame(d *Debugger, id *string) (int, bool) {
	if id == nil {
		c.missing("callFrameId")
		return 0, false
	}
	if d.paused == nil {
		c.failServer(msgNotPaused)
		return 0, false
	}
	seq, idx, ok := strings.Cut(*id, ".")
	n, err := strconv.Atoi(idx)
	if !ok || seq != strconv.Itoa(d.paused.seq) || err != nil || n < 0 || n >= len(d.paused.frames) {
		c.failServer("Invalid call frame id")
		return 0, false
	}
	return n, true
}

// evaluateOnCallFrame evaluates in the paused statement's frame, with its
// locals and `this` (assignments to them take effect when the target
// resumes); in a caller's frame with its locals as its last statement hook
// passed them (assignments are not stored back); in a frame without them,
// as Runtime.evaluate does, in the global scope.
func evaluateOnCallFrame(c *call) {
	var p struct {
		CallFrameID *string `json:"callFrameId"`
		evaluateParams
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.Expression == nil {
		c.missing("expression")
		return
	}
	n, ok := c.pausedFrame(d, p.CallFrameID)
	if !ok || !c.refuseUnsupported(p.ThrowOnSideEffect, p.Timeout != nil, p.SerializationOptions) {
		return
	}
	var v goja.Value
	var err error
	if fv := d.paused.frameAt(n); fv != nil && fv.scope != nil {
		this := fv.this
		if this == nil {
			this = goja.Undefined()
		}
		v, err = d.evalIn(goja.Undefined(), d.scopesValue(fv), this, c.rt.ToValue(*p.Expression))
	} else {
		v, err = runGuarded(c.rt, "", *p.Expression)
	}
	c.finish(v, err, *p.Expression, p.ObjectGroup, p.ReturnByValue, false)
}

// setVariableValue writes a local of the paused statement's frame (scope 0
// of frame 0); the target sees it when it resumes.
func setVariableValue(c *call) {
	var p struct {
		ScopeNumber  *int          `json:"scopeNumber"`
		VariableName *string       `json:"variableName"`
		NewValue     *callArgument `json:"newValue"`
		CallFrameID  *string       `json:"callFrameId"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	switch {
	case p.ScopeNumber == nil:
		c.missing("scopeNumber")
		return
	case p.VariableName == nil:
		c.missing("variableName")
		return
	case p.NewValue == nil:
		c.missing("newValue")
		return
	}
	n, ok := c.pausedFrame(d, p.CallFrameID)
	if !ok {
		return
	}
	ps := d.paused
	var kinds []scopeKind
	if ps.scope != nil {
		kinds, _ = ps.chain()
	}
	if n != 0 || *p.ScopeNumber < 0 || *p.ScopeNumber >= len(kinds) {
		c.failServer("Only the block, local and closure scopes of the top call frame can be written in this version")
		return
	}
	kind := kinds[*p.ScopeNumber]
	v, msg := c.argument(*p.NewValue)
	if msg != "" {
		c.failServer(msg)
		return
	}
	i := slices.IndexFunc(ps.locals, func(l local) bool { return l.name == *p.VariableName && l.scope == kind })
	if i < 0 {
		c.failServer("Variable not found: " + *p.VariableName)
		return
	}
	if ps.locals[i].konst {
		c.failServer("Assignment to constant variable.")
		return
	}
	_ = ps.objs[kind].Set(*p.VariableName, v)
	c.reply(empty{})
}
