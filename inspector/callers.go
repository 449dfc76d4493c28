// Callers' frames: the locals of every frame on the stack at a pause, not
// only the paused one's. While a session is attached each statement hook
// records what it passed (its locals' values and this) under its frame's
// depth; at a pause, each caller's frame gets the scopes its last hook saw.

package inspector

import "github.com/dop251/goja"

// A frameRec is what the last statement hook of the frame at one depth
// passed: its statement, the array of its locals' values and this.
type frameRec struct {
	stmt      int
	fn        string // the frame's function name, to tell a frame from an earlier one at the same depth
	arr, this goja.Value
}

// record notes the hook of statement id at call depth depth (callDepth, the
// hook's own native frame included; d.frames holds that stack): deeper
// records are of frames that returned.
func (d *Debugger) record(depth, id int, arr, this goja.Value) {
	if depth < 2 {
		return
	}
	if depth > len(d.recs) {
		d.recs = append(d.recs, make([]frameRec, depth-len(d.recs))...)
	}
	d.recs = d.recs[:depth]
	d.recs[depth-1] = frameRec{stmt: id, fn: d.frames[1].FuncName(), arr: arr, this: this}
}

// forgetFrames drops the records, whose frames have all returned (at the
// end of a task) or that nobody will read (no session).
func (d *Debugger) forgetFrames() {
	clear(d.recs)
	d.recs = d.recs[:0]
}

// outerFrames fills ps.raw, the index in ps.frames of each CDP call frame
// (the frames of the target's scripts), and ps.outer, the scopes of the
// callers' frames: the frame at index i of ps.frames has depth
// len(ps.frames)-i+1 in the records of its hooks (their native frame on
// top). A record is used only if it is of the same function and script and
// the frame is at or after its statement — so under recursion each frame
// shows its own values, as of the start of the statement it is in.
func (d *Debugger) outerFrames(ps *pauseState) {
	for i, f := range ps.frames {
		sc := d.scriptByFile(f.SrcName())
		if sc == nil {
			continue
		}
		ps.raw = append(ps.raw, i)
		if len(ps.raw) == 1 { // the paused frame: its own hook's scopes
			continue
		}
		depth := len(ps.frames) - i + 1
		if depth < 1 || depth > len(d.recs) {
			continue
		}
		rec := d.recs[depth-1]
		if rec.arr == nil || rec.stmt < 0 || rec.stmt >= len(d.stmts) || rec.fn != f.FuncName() {
			continue
		}
		st := d.stmts[rec.stmt]
		pos := f.Position()
		line, col := pos.Line-1, pos.Column-1
		if st.script != sc || line < st.line || (line == st.line && col < st.col) {
			continue
		}
		fv := &frameVars{}
		d.frameScope(fv, st.locals, st.this, rec.arr, rec.this)
		if ps.outer == nil {
			ps.outer = make(map[int]*frameVars)
		}
		ps.outer[i] = fv
	}
}

// frameAt returns the scopes of CDP call frame n: the paused frame's own
// for 0, a caller's when known, else nil.
func (ps *pauseState) frameAt(n int) *frameVars {
	if n == 0 {
		return &ps.frameVars
	}
	if n < 0 || n >= len(ps.raw) {
		return nil
	}
	return ps.outer[ps.raw[n]]
}
