// Debugger-domain commands the Chrome DevTools front end sends on attach and
// while stepping: async stack depth, the ignore list (blackboxing) and
// continueToLocation.

package inspector

import (
	"regexp"
	"strings"
)

// ext is the Debugger state of these commands.
type ext struct {
	profilers  []*Session        // sessions recording a CPU profile (profiler.go)
	fnPos      map[string][2]int // profile nodes' function positions (profiler.go)
	blackbox   []*regexp.Regexp  // setBlackboxPatterns, all sessions'
	blackboxBy map[*Session][]*regexp.Regexp
	ranges     map[string][]location // setBlackboxedRanges: scriptId -> sorted positions, ranges [p0,p1), [p2,p3)…
	until      int                   // continueToLocation: 1 + the statement to pause at; 0 when none
	asyncDepth map[*Session]int      // setAsyncCallStackDepth (async.go): sessions that asked for a depth > 0
	asyncCur   *AsyncTask            // the async parent of the code running now (AsyncRun)
}

// blackboxed reports whether statement id is ignore-listed: its script's URL
// matches a pattern, or it lies in a blackboxed range of its script.
func (d *Debugger) blackboxed(id int) bool {
	st := d.stmts[id]
	for _, re := range d.blackbox {
		if re.MatchString(st.script.url) {
			return true
		}
	}
	in := false
	for _, p := range d.ranges[st.script.id] {
		if cmpPos(st, stmtInfo{line: p.LineNumber, col: p.ColumnNumber}) < 0 {
			break
		}
		in = !in
	}
	return in
}

// reached reports whether statement id is the target of a continueToLocation.
func (d *Debugger) reached(id int) bool { return d.until != 0 && d.until-1 == id }

// jsRegexp compiles a pattern of the front end (JavaScript syntax) with Go's
// regexp, which accepts the patterns DevTools builds (alternations of
// escaped paths, anchors, character classes).
func jsRegexp(p string) (*regexp.Regexp, error) {
	return regexp.Compile(strings.ReplaceAll(p, `\/`, `/`))
}

func setBlackboxPatterns(c *call) {
	var p struct {
		Patterns *[]string `json:"patterns"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.Patterns == nil {
		c.missing("patterns")
		return
	}
	var res []*regexp.Regexp
	for _, pat := range *p.Patterns {
		re, err := jsRegexp(pat)
		if err != nil {
			c.failServer("Pattern parser error: " + err.Error())
			return
		}
		res = append(res, re)
	}
	if d.blackboxBy == nil {
		d.blackboxBy = make(map[*Session][]*regexp.Regexp)
	}
	d.blackboxBy[c.s] = res
	d.blackbox = d.blackbox[:0]
	for _, s := range d.sessions {
		d.blackbox = append(d.blackbox, d.blackboxBy[s]...)
	}
	c.reply(empty{})
}

func setBlackboxedRanges(c *call) {
	var p struct {
		ScriptID  *string    `json:"scriptId"`
		Positions []location `json:"positions"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.ScriptID == nil {
		c.missing("scriptId")
		return
	}
	if d.scriptByID(*p.ScriptID) == nil {
		c.failServer("No script with passed id.")
		return
	}
	for i := 1; i < len(p.Positions); i++ {
		a, b := p.Positions[i-1], p.Positions[i]
		if cmpPos(stmtInfo{line: a.LineNumber, col: a.ColumnNumber}, stmtInfo{line: b.LineNumber, col: b.ColumnNumber}) >= 0 {
			c.failServer("Input positions array is not sorted or contains duplicate values.")
			return
		}
	}
	if d.ranges == nil {
		d.ranges = make(map[string][]location)
	}
	if len(p.Positions) == 0 {
		delete(d.ranges, *p.ScriptID)
	} else {
		d.ranges[*p.ScriptID] = p.Positions
	}
	c.reply(empty{})
}

// setAsyncCallStackDepth sets how many frames of async parents the
// session's Debugger.paused carries as asyncStackTrace (async.go); 0 turns
// the recording off for the session.
func setAsyncCallStackDepth(c *call) {
	var p struct {
		MaxDepth *int `json:"maxDepth"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.MaxDepth == nil {
		c.missing("maxDepth")
		return
	}
	if d.asyncDepth == nil {
		d.asyncDepth = make(map[*Session]int)
	}
	if *p.MaxDepth > 0 {
		d.asyncDepth[c.s] = *p.MaxDepth
		tracker(d.rt) // promise reactions are recorded from now on (asynctracker.go)
	} else {
		delete(d.asyncDepth, c.s)
	}
	c.reply(empty{})
}

// continueToLocation resumes and pauses at the first statement at or after
// the location (any pause before it cancels it), as V8 does with
// targetCallFrames "any".
func continueToLocation(c *call) {
	var p struct {
		Location *location `json:"location"`
	}
	d := c.debuggerFor(true)
	if d == nil || !c.decode(&p) {
		return
	}
	if p.Location == nil {
		c.missing("location")
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
	sc := d.scriptByID(p.Location.ScriptID)
	if sc == nil {
		c.failServer("Cannot continue to specified location")
		return
	}
	st := d.resolve(sc, p.Location.LineNumber, p.Location.ColumnNumber)
	if st < 0 {
		c.failServer("Cannot continue to specified location")
		return
	}
	d.resume(stepNone)
	d.until, d.asker = st+1, c.s
	c.reply(empty{})
}
