package console

import (
	"bytes"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// A Level says where a printed line group goes: log, info and debug are
// Node's stdout, warn and error its stderr.
type Level int

// The levels, named after the console methods that print at them.
const (
	LevelLog Level = iota
	LevelInfo
	LevelDebug
	LevelWarn
	LevelError
)

// String returns the level's console method name: "log", "info", "debug",
// "warn" or "error".
func (l Level) String() string {
	switch l {
	case LevelInfo:
		return "info"
	case LevelDebug:
		return "debug"
	case LevelWarn:
		return "warn"
	case LevelError:
		return "error"
	}
	return "log"
}

// Config says where a console's output goes. Every field may be left
// zero. The functions are called on the runtime's goroutine, during the
// console call.
type Config struct {
	// Write receives each printed message: one call per console call that
	// prints (a message may span several lines: group indentation is
	// already applied to each), without a trailing newline. nil: log, info
	// and debug go to os.Stdout, warn and error to os.Stderr, each message
	// followed by a newline.
	Write func(level Level, text string)
	// Observe, if not nil, is called with the method name ("log", "table",
	// "group", ...) and the arguments of every console call, before they
	// are formatted — so an inspector can report the original values. A
	// console.assert whose assertion holds is not reported (V8 does not
	// report one either).
	Observe func(method string, args []goja.Value)
	// Now is the clock of console.time, timeLog and timeEnd. nil: time.Now.
	Now func() time.Time
}

// probe returns the console's probe, capturing the realm's intrinsics on first use. A failure (the realm cannot
// run the probe's script) is thrown to the calling script.
func (c *console) probe() *probe {
	if c.p == nil {
		p, err := newProbe(c.rt)
		if err != nil {
			panic(c.rt.NewGoError(err))
		}
		c.p = p
	}
	return c.p
}

// A console is one installed console object's state.
type console struct {
	rt     *goja.Runtime
	p      *probe
	cfg    Config
	indent string
	counts map[string]int
	timers map[string]time.Time
}

// Install defines target.console (usually target is the global object) as
// Node's console: log, info, debug, warn, error, dir, dirxml, table, trace,
// assert, count, countReset, group, groupCollapsed, groupEnd, time,
// timeEnd, timeLog, and clear, profile, profileEnd and timeStamp (which,
// as Node's without a terminal or an inspector, print nothing; they are
// observed). Formatting is Format's and Inspect's with
// Node's defaults. Install runs on rt's goroutine. The intrinsics the console reads objects through are captured
// on the first console call, not at install: capturing makes goja build builtins it otherwise creates lazily
// (about 0.25 MiB and 0.5 ms a realm), more than a whole idle worker costs.
func Install(rt *goja.Runtime, target *goja.Object, cfg Config) error {
	obj, err := New(rt, cfg)
	if err != nil {
		return err
	}
	return target.DefineDataProperty("console", obj, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// New makes a console object as Install defines it, without defining it anywhere (for a realm that makes its
// console on first use). It runs on rt's goroutine.
func New(rt *goja.Runtime, cfg Config) (*goja.Object, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Write == nil {
		cfg.Write = writeStd
	}
	c := &console{rt: rt, cfg: cfg, counts: map[string]int{}, timers: map[string]time.Time{}}
	obj := rt.NewObject()
	methods := []struct {
		name string
		fn   func(args []goja.Value)
	}{
		{"log", c.printer("log", LevelLog)},
		{"info", c.printer("info", LevelInfo)},
		{"debug", c.printer("debug", LevelDebug)},
		{"warn", c.printer("warn", LevelWarn)},
		{"error", c.printer("error", LevelError)},
		{"dirxml", c.printer("dirxml", LevelLog)},
		{"dir", c.dir},
		{"table", c.table},
		{"trace", c.trace},
		{"assert", c.assert},
		{"count", c.count},
		{"countReset", c.countReset},
		{"group", c.group("group")},
		{"groupCollapsed", c.group("groupCollapsed")},
		{"groupEnd", c.groupEnd},
		{"time", c.time},
		{"timeEnd", c.timeEnd},
		{"timeLog", c.timeLog},
		{"clear", func(args []goja.Value) { c.observe("clear", args) }},
		{"profile", func(args []goja.Value) { c.observe("profile", args) }},
		{"profileEnd", func(args []goja.Value) { c.observe("profileEnd", args) }},
		{"timeStamp", func(args []goja.Value) { c.observe("timeStamp", args) }},
	}
	for _, m := range methods {
		fn := m.fn
		f := rt.ToValue(func(call goja.FunctionCall) goja.Value {
			fn(call.Arguments)
			return goja.Undefined()
		}).(*goja.Object)
		_ = f.DefineDataProperty("name", rt.ToValue(m.name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = f.DefineDataProperty("length", rt.ToValue(0), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		if err := obj.Set(m.name, f); err != nil {
			return nil, err
		}
	}
	return obj, nil
}

// writeStd is the default Config.Write.
func writeStd(level Level, text string) {
	out := os.Stdout
	if level >= LevelWarn {
		out = os.Stderr
	}
	_, _ = out.WriteString(text + "\n")
}

func (c *console) observe(method string, args []goja.Value) {
	if c.cfg.Observe != nil {
		c.cfg.Observe(method, args)
	}
}

// print writes text at level, indented for the current group.
func (c *console) print(level Level, text string) {
	if c.indent != "" {
		text = c.indent + strings.ReplaceAll(text, "\n", "\n"+c.indent)
	}
	c.cfg.Write(level, text)
}

func (c *console) printer(method string, level Level) func([]goja.Value) {
	return func(args []goja.Value) {
		c.observe(method, args)
		c.print(level, c.probe().format(args, DefaultInspectOptions()))
	}
}

// dir is console.dir(obj, options): inspect without custom inspect functions.
func (c *console) dir(args []goja.Value) {
	c.observe("dir", args)
	opts := DefaultInspectOptions()
	opts.CustomInspect = false
	if len(args) > 1 {
		if o, ok := args[1].(*goja.Object); ok {
			opts = OptionsFromJS(c.rt, o, opts)
		}
	}
	v := goja.Undefined()
	if len(args) > 0 {
		v = args[0]
	}
	c.print(LevelLog, c.probe().inspect(v, opts))
}

// trace prints "Trace: message" and the caller's stack, on stderr.
func (c *console) trace(args []goja.Value) {
	c.observe("trace", args)
	msg := "Trace"
	if s := c.probe().format(args, DefaultInspectOptions()); len(args) > 0 {
		msg += ": " + s
	}
	// The frames as goja writes them in Error.stack, then printed the way
	// the inspector prints an error's (V8's "    at f (file:1:2)").
	var sb bytes.Buffer
	sb.WriteString(msg)
	for _, f := range c.rt.CaptureCallStack(0, nil) {
		if f.SrcName() == "<native>" {
			continue // console.trace itself
		}
		sb.WriteString("\n\tat ")
		f.Write(&sb)
	}
	text := gojaFrames(sb.String())
	c.print(LevelError, text)
}

// assert is console.assert(value, ...data): "Assertion failed[: data]" on
// stderr when value is falsy.
func (c *console) assert(args []goja.Value) {
	if len(args) > 0 && args[0].ToBoolean() {
		return
	}
	c.observe("assert", args)
	var rest []goja.Value
	if len(args) > 1 {
		rest = append(rest, args[1:]...)
	}
	// Node: args[0] = `+"`Assertion failed${args.length === 0 ? '' : `: ${args[0]}`}`"+`
	if len(rest) == 0 {
		rest = []goja.Value{c.rt.ToValue("Assertion failed")}
	} else {
		rest[0] = c.rt.ToValue("Assertion failed: " + c.str(rest[0]))
	}
	c.print(LevelWarn, c.probe().format(rest, DefaultInspectOptions()))
}

// str is String(v): a user toString runs, as in Node; if it throws, v is
// inspected instead.
func (c *console) str(v goja.Value) string {
	if sym, ok := v.(*goja.Symbol); ok {
		return symbolString(sym)
	}
	s := ""
	if !c.probe().try(func() { s = v.String() }) {
		return c.probe().inspect(v, DefaultInspectOptions())
	}
	return s
}

// label is a console method's label argument as a string: "default" when
// missing or undefined.
func (c *console) label(args []goja.Value) string {
	if len(args) == 0 || goja.IsUndefined(args[0]) {
		return "default"
	}
	return c.str(args[0])
}

// warning prints a process warning the way Node's default handler does,
// without the process id: "Warning: text".
func (c *console) warning(text string) { c.cfg.Write(LevelWarn, "Warning: "+text) }

func (c *console) count(args []goja.Value) {
	c.observe("count", args)
	l := c.label(args)
	c.counts[l]++
	c.print(LevelLog, l+": "+strconv.Itoa(c.counts[l]))
}

func (c *console) countReset(args []goja.Value) {
	c.observe("countReset", args)
	l := c.label(args)
	if _, ok := c.counts[l]; !ok {
		c.warning("Count for '" + l + "' does not exist")
		return
	}
	delete(c.counts, l)
}

func (c *console) group(method string) func([]goja.Value) {
	return func(args []goja.Value) {
		c.observe(method, args)
		if len(args) > 0 {
			c.print(LevelLog, c.probe().format(args, DefaultInspectOptions()))
		}
		c.indent += "  "
	}
}

func (c *console) groupEnd(args []goja.Value) {
	c.observe("groupEnd", args)
	if len(c.indent) >= 2 {
		c.indent = c.indent[:len(c.indent)-2]
	}
}

func (c *console) time(args []goja.Value) {
	c.observe("time", args)
	l := c.label(args)
	if _, ok := c.timers[l]; ok {
		c.warning("Label '" + l + "' already exists for console.time()")
		return
	}
	c.timers[l] = c.cfg.Now()
}

func (c *console) timeEnd(args []goja.Value) {
	c.observe("timeEnd", args)
	l := c.label(args)
	start, ok := c.timers[l]
	if !ok {
		c.warning("No such label '" + l + "' for console.timeEnd()")
		return
	}
	delete(c.timers, l)
	c.print(LevelLog, l+": "+formatTime(c.cfg.Now().Sub(start)))
}

func (c *console) timeLog(args []goja.Value) {
	c.observe("timeLog", args)
	l := c.label(args)
	start, ok := c.timers[l]
	if !ok {
		c.warning("No such label '" + l + "' for console.timeLog()")
		return
	}
	out := []goja.Value{c.rt.ToValue("%s: %s"), c.rt.ToValue(l), c.rt.ToValue(formatTime(c.cfg.Now().Sub(start)))}
	if len(args) > 1 {
		out = append(out, args[1:]...)
	}
	c.print(LevelLog, c.probe().format(out, DefaultInspectOptions()))
}

// formatTime is Node's formatTime: "1.234ms", "1.500s", "1:02.345 (m:ss.mmm)",
// "1:02:03.456 (h:mm:ss.mmm)".
func formatTime(d time.Duration) string {
	ms := float64(d.Nanoseconds()) / 1e6
	var hours, minutes float64
	seconds := 0.0
	if ms >= 1000 {
		if ms >= 60000 {
			if ms >= 3600000 {
				hours = math.Floor(ms / 3600000)
				ms = math.Mod(ms, 3600000)
			}
			minutes = math.Floor(ms / 60000)
			ms = math.Mod(ms, 60000)
		}
		seconds = ms / 1000
	}
	pad2 := func(s string) string {
		if len(s) < 2 {
			return "0" + s
		}
		return s
	}
	if hours != 0 || minutes != 0 {
		fixed := strconv.FormatFloat(seconds, 'f', 3, 64)
		sec, frac, _ := strings.Cut(fixed, ".")
		res := strconv.FormatFloat(minutes, 'f', 0, 64)
		unit := "m:ss.mmm"
		if hours != 0 {
			res = strconv.FormatFloat(hours, 'f', 0, 64) + ":" + pad2(res)
			unit = "h:mm:ss.mmm"
		}
		return res + ":" + pad2(sec) + "." + frac + " (" + unit + ")"
	}
	if seconds != 0 {
		return strconv.FormatFloat(seconds, 'f', 3, 64) + "s"
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(ms, 'f', 3, 64), 64)
	return strconv.FormatFloat(v, 'f', -1, 64) + "ms"
}
