// Pause payloads: the scopes of a paused frame and the Debugger-domain wire
// types (Debugger.paused, scriptParsed).

package inspector

import (
	"strconv"

	"github.com/dop251/goja"
)

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
	frameVars

	// The callers' frames whose last statement hook is known (callers.go),
	// by index in frames; and the index in frames of each CDP call frame.
	outer map[int]*frameVars
	raw   []int
}

// frameVars are the scopes of one frame, made from what a hook passed.
type frameVars struct {
	locals []local                  // the statement's locals, the order of values
	scope  *goja.Object             // its locals by name: the "local" scope; evaluation and setVariableValue write here
	objs   [scopeKinds]*goja.Object // the scope objects by kind (objs[scopeLocal] is scope); nil when empty
	values []goja.Value             // the locals as the hook passed them, to tell what changed
	this   goja.Value               // nil when the hook passed none
}

// frameScope fills ps's scope from what a hook passed: arr, the values of
// locals (an array; anything else when the hook is at the top level), and
// thisv when hasThis.
func (d *Debugger) frameScope(ps *frameVars, locals []local, hasThis bool, arr, thisv goja.Value) {
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
func (ps *frameVars) chain() (kinds []scopeKind, objs []*goja.Object) {
	for _, k := range []scopeKind{scopeBlock, scopeLocal, scopeClosure} {
		if ps.objs[k] != nil {
			kinds, objs = append(kinds, k), append(objs, ps.objs[k])
		}
	}
	return kinds, objs
}

// scopesValue is the frame's scope objects as a JavaScript array, innermost
// first, for evalIn.
func (d *Debugger) scopesValue(ps *frameVars) goja.Value {
	_, objs := ps.chain()
	vals := make([]any, len(objs))
	for i, o := range objs {
		vals[i] = o
	}
	return d.rt.NewArray(vals...)
}

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
	AsyncStack     *stackTrace   `json:"asyncStackTrace,omitempty"`
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
		fv := &ps.frameVars // the paused statement's own frame, or a caller's as its last hook saw it
		if len(p.CallFrames) > 0 {
			fv = ps.outer[i]
		}
		if fv != nil && fv.scope != nil {
			kinds, objs := fv.chain()
			chain := make([]scopeDesc, 0, len(kinds)+1)
			for i, k := range kinds {
				chain = append(chain, scopeDesc{Type: scopeTypes[k], Object: c.remote(objs[i], backtraceGroup)})
			}
			cf.ScopeChain = append(chain, cf.ScopeChain...)
			if fv.this != nil {
				cf.This = c.remote(fv.this, backtraceGroup)
			}
		}
		p.CallFrames = append(p.CallFrames, cf)
	}
	if _, asked := d.asyncDepth[s]; asked {
		p.AsyncStack = d.asyncTrace()
	}
	s.emit(encodeEvent(evPaused, p))
}
