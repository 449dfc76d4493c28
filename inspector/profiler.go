// The Profiler domain: a sampling CPU profiler built on the statement hooks.
//
// While a session profiles, the hooks are on and the statement hook (hit)
// takes a sample — the JavaScript stack, from CaptureCallStack — when at
// least the sampling interval has passed since the previous one. The end of
// each macrotask (TaskDone) takes an "(idle)" sample: the time until the
// next statement runs is the event loop waiting. Accuracy: samples fall on
// statement boundaries, so they are never closer than the interval but may
// be further apart when one statement runs long (a builtin such as a big
// JSON.parse or sort): that time goes to the stack sampled before it, the
// statement's own stack or its caller's. Code that is not instrumented (the
// host's own scripts, builtins) does not appear as frames of its own.

package inspector

import (
	"cmp"
	"slices"
	"time"
)

// defaultSamplingInterval is V8's default, in microseconds.
const defaultSamplingInterval = 1000

// A profiler is one session's Profiler-domain state.
type profiler struct {
	enabled  bool
	interval time.Duration
	run      *profileRun // nil unless started
}

// A profileRun is a CPU profile being recorded.
type profileRun struct {
	start, last time.Time
	nodes       []*profileNode
	byKey       map[nodeKey]*profileNode
	samples     []int
	deltas      []int64 // microseconds
}

type nodeKey struct {
	parent int
	fn     string
	url    string
	line   int // the function's line; -1 for the synthetic nodes
}

// A profileNode is one node of Profiler.Profile.
type profileNode struct {
	ID            int            `json:"id"`
	CallFrame     profCallFrame  `json:"callFrame"`
	HitCount      int            `json:"hitCount"`
	Children      []int          `json:"children,omitempty"`
	PositionTicks []positionTick `json:"positionTicks,omitempty"`
	ticks         map[int]int    // 1-based line -> samples with this node on top
}

type profCallFrame struct {
	FunctionName string `json:"functionName"`
	ScriptID     string `json:"scriptId"`
	URL          string `json:"url"`
	LineNumber   int    `json:"lineNumber"`
	ColumnNumber int    `json:"columnNumber"`
}

type positionTick struct {
	Line  int `json:"line"`
	Ticks int `json:"ticks"`
}

type cpuProfile struct {
	Nodes      []*profileNode `json:"nodes"`
	StartTime  int64          `json:"startTime"`
	EndTime    int64          `json:"endTime"`
	Samples    []int          `json:"samples"`
	TimeDeltas []int64        `json:"timeDeltas"`
}

func newProfileRun(now time.Time) *profileRun {
	r := &profileRun{start: now, last: now, byKey: make(map[nodeKey]*profileNode)}
	r.node(0, profCallFrame{FunctionName: "(root)", ScriptID: "0", LineNumber: -1, ColumnNumber: -1}, -1)
	return r
}

// node returns the child of parent for the frame, made on first use.
func (r *profileRun) node(parent int, f profCallFrame, line int) *profileNode {
	k := nodeKey{parent, f.FunctionName, f.URL, line}
	if n := r.byKey[k]; n != nil {
		return n
	}
	n := &profileNode{ID: len(r.nodes) + 1, CallFrame: f}
	r.nodes = append(r.nodes, n)
	r.byKey[k] = n
	if parent > 0 {
		p := r.nodes[parent-1]
		p.Children = append(p.Children, n.ID)
	}
	return n
}

// sample records that the program is at the node now.
func (r *profileRun) sample(n *profileNode, now time.Time) {
	n.HitCount++
	r.samples = append(r.samples, n.ID)
	r.deltas = append(r.deltas, now.UnixMicro()-r.last.UnixMicro())
	r.last = now
}

// profiling reports whether some session records a profile.
func (d *Debugger) profiling() bool { return len(d.profilers) > 0 }

// profileSample is called by the statement hook: it samples the stack for
// every session recording a profile whose interval has passed.
func (d *Debugger) profileSample() {
	now := time.Now()
	var stack []profCallFrame
	var lines []int
	for _, s := range d.profilers {
		r := s.prof.run
		if now.Sub(r.last) < s.prof.interval {
			continue
		}
		if stack == nil {
			stack, lines = d.profileStack()
		}
		n := r.nodes[0]
		for i := len(stack) - 1; i >= 0; i-- {
			n = r.node(n.ID, stack[i], stack[i].LineNumber)
		}
		if len(stack) == 0 {
			n = r.node(1, synthetic("(program)"), -1)
		} else {
			if n.ticks == nil {
				n.ticks = make(map[int]int)
			}
			n.ticks[lines[0]]++
		}
		r.sample(n, now)
	}
}

// profileIdle is called when a macrotask ends: the loop waits from now on.
func (d *Debugger) profileIdle() {
	now := time.Now()
	for _, s := range d.profilers {
		r := s.prof.run
		r.sample(r.node(1, synthetic("(idle)"), -1), now)
	}
}

func synthetic(name string) profCallFrame {
	return profCallFrame{FunctionName: name, ScriptID: "0", LineNumber: -1, ColumnNumber: -1}
}

// profileStack returns the instrumented frames, innermost first, each with
// the position of the function (the first position seen of that function
// name in that script: goja does not expose a function's start), and the
// 1-based current line of each.
func (d *Debugger) profileStack() ([]profCallFrame, []int) {
	d.frames = d.rt.CaptureCallStack(0, d.frames[:0])
	var out []profCallFrame
	var lines []int
	for i := range d.frames {
		f := &d.frames[i]
		sc := d.scriptByFile(f.SrcName())
		if sc == nil {
			continue
		}
		pos := f.Position()
		name := f.FuncName()
		line, col := d.fnStart(sc, name, pos.Line-1, pos.Column-1)
		out = append(out, profCallFrame{FunctionName: name, ScriptID: sc.id, URL: sc.url, LineNumber: line, ColumnNumber: col})
		lines = append(lines, pos.Line)
	}
	for i := range out { // V8 names anonymous functions and a script's top level ""
		if out[i].FunctionName == "<anonymous>" {
			out[i].FunctionName = ""
		}
	}
	return out, lines
}

// fnStart returns the position recorded for the function name in sc,
// recording (line, col) on first sight.
func (d *Debugger) fnStart(sc *script, name string, line, col int) (int, int) {
	if d.fnPos == nil {
		d.fnPos = make(map[string][2]int)
	}
	k := sc.id + "\x00" + name
	if p, ok := d.fnPos[k]; ok {
		return p[0], p[1]
	}
	d.fnPos[k] = [2]int{line, col}
	return line, col
}

// profilerFor returns the target's Debugger for a Profiler command, or
// answers the error: profiling needs the instrumented statement hooks.
func (c *call) profilerFor(enabled bool) *Debugger {
	d := c.s.debugger()
	if d == nil || d.rt == nil {
		c.failServer("Profiler domain is not available: the target was not created inspectable, and the CPU profiler samples through the debugger's statement hooks")
		return nil
	}
	if enabled && !c.s.prof.enabled {
		c.failServer("Profiler is not enabled")
		return nil
	}
	return d
}

func profilerEnable(c *call) {
	if c.profilerFor(false) == nil {
		return
	}
	c.s.prof.enabled = true
	if c.s.prof.interval == 0 {
		c.s.prof.interval = defaultSamplingInterval * time.Microsecond
	}
	c.reply(empty{})
}

// profilerDisable stops a recording (its profile is dropped, as V8 does).
func profilerDisable(c *call) {
	d := c.profilerFor(false)
	if d == nil {
		return
	}
	d.stopProfile(c.s)
	c.s.prof.enabled = false
	c.reply(empty{})
}

func setSamplingInterval(c *call) {
	var p struct {
		Interval *int `json:"interval"`
	}
	if c.profilerFor(true) == nil || !c.decode(&p) {
		return
	}
	if p.Interval == nil {
		c.missing("interval")
		return
	}
	if c.s.prof.run != nil {
		c.failServer("Cannot change sampling interval when profiling.")
		return
	}
	if *p.Interval <= 0 {
		c.failServer("Invalid sampling interval")
		return
	}
	c.s.prof.interval = time.Duration(*p.Interval) * time.Microsecond
	c.reply(empty{})
}

func profilerStart(c *call) {
	d := c.profilerFor(true)
	if d == nil {
		return
	}
	if c.s.prof.run == nil {
		c.s.prof.run = newProfileRun(time.Now())
		d.profilers = append(d.profilers, c.s)
		d.setOn()
	}
	c.reply(empty{})
}

func profilerStop(c *call) {
	d := c.profilerFor(true)
	if d == nil {
		return
	}
	r := c.s.prof.run
	if r == nil {
		c.failServer("No recording profiles found")
		return
	}
	end := time.Now()
	r.sample(r.node(1, synthetic("(program)"), -1), end)
	d.stopProfile(c.s)
	c.reply(struct {
		Profile cpuProfile `json:"profile"`
	}{r.profile(end)})
}

// stopProfile ends s's recording, if any.
func (d *Debugger) stopProfile(s *Session) {
	if s.prof.run == nil {
		return
	}
	s.prof.run = nil
	d.profilers = slices.DeleteFunc(d.profilers, func(x *Session) bool { return x == s })
	d.setOn()
}

// profile returns the recording as Profiler.Profile; times in microseconds
// since the Unix epoch (V8's are of a monotonic clock: only differences
// matter to clients).
func (r *profileRun) profile(end time.Time) cpuProfile {
	for _, n := range r.nodes {
		n.PositionTicks = n.PositionTicks[:0]
		for line, t := range n.ticks {
			n.PositionTicks = append(n.PositionTicks, positionTick{line, t})
		}
		slices.SortFunc(n.PositionTicks, func(a, b positionTick) int { return cmp.Compare(a.Line, b.Line) })
	}
	return cpuProfile{Nodes: r.nodes, StartTime: r.start.UnixMicro(), EndTime: end.UnixMicro(),
		Samples: r.samples, TimeDeltas: r.deltas}
}
