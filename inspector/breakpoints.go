// Breakpoints: resolution of URL and script breakpoints to statements, and
// conditions.

package inspector

import (
	"cmp"
	"regexp"
	"slices"

	"github.com/dop251/goja"
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
	scopes := d.scopesValue(&ps.frameVars)
	if ps.scope == nil {
		scopes = d.rt.NewArray(scope)
	}
	v, err := d.evalIn(goja.Undefined(), scopes, this, d.rt.ToValue(src))
	return err == nil && v.ToBoolean()
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
