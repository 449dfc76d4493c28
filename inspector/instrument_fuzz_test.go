package inspector

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// FuzzInstrument is differential: a program — the real scripts of testdata/fuzzscripts, mutated — runs plain and
// instrumented (Debugger.Compile, no session attached) and must print the same, end the same (its completion
// value, or the same exception at the same position), and compile or fail to compile alike. What goja throws
// every time without recording a position of its own is given one by depthguard.Rewrite, which both runs go
// through (internal/depthguard/positions.go); positions are compared everywhere but where goja's own source map
// shows an instruction without one (inheritedHook). Both realms have
// the stack-depth guard, a fixed random source and clock, and a time budget; a run that hits the budget or the
// call-stack limit is not compared (the hooks add frames and time).
func FuzzInstrument(f *testing.F) {
	files, _ := filepath.Glob("testdata/fuzzscripts/*.js")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(`var o = { m() { return 3 }, get g() { return 4 } }; o.m() + o.g`)
	f.Add(`try { throw 1 } catch { 2 } finally { 3 }`)
	f.Add("var n = 0; function inc() { n++; } function fib(k) { return k < 2 ? k : fib(k - 1) + fib(k - 2); }\n" +
		"class A { constructor(v) { this.v = v; } get w() { return this.v * 2; } } class B extends A { constructor() { super(3); } }\n" +
		"function bad(o) { return o.x.y; } var e; try { bad({}); } catch (x) { e = x.message; }\n" +
		"inc(); inc(); [n, fib(10), new B().w, e, ((a) => { return a + 1; })(1)].join()")
	defer debug.SetGCPercent(debug.SetGCPercent(fuzzGCPercent))
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 1<<14 {
			return // the parser's cost is not what this target measures
		}
		// A run the interrupt cannot stop (a Go loop inside a builtin, the compiler) is a finding too: crash the
		// fuzzing process with the program, so that the engine keeps it — before Go's own 10 s limit for one
		// input, whose panic prints nothing, and with every goroutine's stack in a file (reportHang).
		hang := time.AfterFunc(hangLimit, func() { reportHang(src) })
		defer hang.Stop()
		plain := runForFuzz(src, false, plainBudget)
		// A plain run that hit its budget or the stack limit is not run instrumented (nothing to compare it
		// with), but the instrumenter must still compile what goja compiles.
		inst := runForFuzz(src, true, instrumentedBudget(plain))
		if plain.compileErr != inst.compileErr {
			t.Fatalf("compile: plain %q, instrumented %q\n%s", plain.compileErr, inst.compileErr, src)
		}
		if plain.skip || inst.skip {
			return
		}
		if plain.exception != inst.exception && inheritedHook(plain, inst) {
			return // the instrumented run reports its hook's position where plain reports an earlier one (inheritedHook)
		}
		if plain.out != inst.out || plain.result != inst.result || plain.exception != inst.exception {
			t.Fatalf("plain and instrumented differ for\n%s\nplain:        out %q result %q exception %q\ninstrumented: out %q result %q exception %q",
				src, plain.out, plain.result, plain.exception, inst.out, inst.result, inst.exception)
		}
	})
}

// hangLimit is how long one input may run before the harness ends the fuzzing process (Go's engine ends a worker
// whose input runs 10 s, without a message).
const hangLimit = 8 * time.Second

// reportHang writes the program and every goroutine's stack to a file in the temporary directory (a fuzzing
// worker's own output is not shown), then panics with the file's name.
func reportHang(src string) {
	buf := make([]byte, 8<<20)
	n := runtime.Stack(buf, true)
	name := filepath.Join(os.TempDir(), fmt.Sprintf("jsworker-fuzzinstrument-hang-%d.txt", os.Getpid()))
	text := fmt.Sprintf("program (%d bytes):\n%.8000s\n\ngoroutines:\n%s", len(src), src, buf[:n])
	_ = os.WriteFile(name, []byte(text), 0o644)
	panic(fmt.Sprintf("fuzz: the program ran past %v (goroutines in %s):\n%.2000s", hangLimit, name, src))
}

// The fuzzing budgets. A program that loops spends its whole budget, so the budgets are most of what a looping
// input costs: the plain run gets plainBudget, and the instrumented run (the hooks make it slower) the larger of
// instBudgetMin and instSlowdown times what the plain run took. A run that hits its budget on either side is
// not compared, so a lower budget skips more programs but never makes two unlike runs look like a finding.
const (
	plainBudget   = 40 * time.Millisecond
	instBudgetMin = 100 * time.Millisecond
	instSlowdown  = 20
)

// fuzzGCPercent is GOGC while a fuzz target of this package runs: each input makes and drops whole runtimes, and
// collecting them less often costs memory, not coverage.
const fuzzGCPercent = 400

// instrumentedBudget is the instrumented run's budget after plain, or 0 (compile only) when plain was not run
// to its end.
func instrumentedBudget(plain fuzzRun) time.Duration {
	if plain.skip || plain.compileErr != "" {
		return 0
	}
	return max(instBudgetMin, instSlowdown*plain.took)
}

type fuzzRun struct {
	out, result, exception, compileErr string
	skip                               bool          // not run to its end: budget, stack limit, output limit, or not run at all
	took                               time.Duration // how long the run took

	// For an exception: whether goja recorded a position for the instruction that raised it (ownPosition), the
	// position it is reported at (1-based), and, instrumented, whether that is the start of a hooked statement.
	ownPos, atHook bool
	at             [2]int
}

// framePosition is a stack frame's ":line:column".
var framePosition = regexp.MustCompile(`:\d+:\d+`)

// inheritedHook reports whether plain and inst differ only in where their exception is reported, because goja
// recorded no position for the instruction that raised it — in both runs, decided from goja's own source map
// (ownPosition) — so that each run reports the last position recorded before it: the instrumented run its
// statement's hook, the plain run an earlier statement's. depthguard.Rewrite gives the expressions known to throw
// this way every time a position of their own (internal/depthguard/positions.go); what remains is an expression
// that throws only sometimes, which no rewrite can position for free (a logical assignment to a name that may be
// undeclared, `(u ??= []).push(1)`: goja resolves the name with no position recorded; found by FuzzInstrument,
// 45b6463774e49240).
func inheritedHook(plain, inst fuzzRun) bool {
	return !plain.ownPos && !inst.ownPos && inst.atHook && plain.at != inst.at &&
		framePosition.ReplaceAllString(plain.exception, "") == framePosition.ReplaceAllString(inst.exception, "")
}

// ownPosition reports whether goja's source map for the program of ex's first frame has an entry at that frame's
// instruction (the one that raised ex), and the frame's position. It reads goja's unexported fields (reflect
// reads them; nothing is written): this is a test's check, not the library's.
func ownPosition(ex *goja.Exception) (own bool, at [2]int) {
	st := ex.Stack()
	if len(st) == 0 {
		return false, at
	}
	pos := st[0].Position()
	at = [2]int{pos.Line, pos.Column}
	f := reflect.ValueOf(&st[0]).Elem()
	prg, pc := f.FieldByName("prg"), f.FieldByName("pc")
	if !prg.IsValid() || prg.IsNil() || !pc.IsValid() {
		return false, at
	}
	sm := prg.Elem().FieldByName("srcMap")
	for i := 0; sm.IsValid() && i < sm.Len(); i++ {
		if sm.Index(i).FieldByName("pc").Int() == pc.Int() {
			return true, at
		}
	}
	return false, at
}

// bytecodeOffset is the "(N)" goja appends to each frame's position: the hooks shift it, nothing else.
var bytecodeOffset = regexp.MustCompile(`:(\d+):(\d+)\(\d+\)`)

// runForFuzz compiles src (instrumented or not) in a fresh runtime and runs it for up to budget; a budget of 0
// only compiles it (skip is then true).
func runForFuzz(src string, instrumented bool, budget time.Duration) (r fuzzRun) {
	rt := goja.New()
	rt.SetRandSource(rand.New(rand.NewSource(1)).Float64)
	rt.SetTimeSource(func() time.Time { return time.Unix(1_700_000_000, 0) })
	if err := depthguard.Install(rt, 500); err != nil {
		panic(err)
	}
	var out strings.Builder
	console := rt.NewObject()
	_ = console.Set("log", func(call goja.FunctionCall) goja.Value {
		for i, a := range call.Arguments {
			if i > 0 {
				out.WriteByte(' ')
			}
			out.WriteString(a.String())
		}
		out.WriteByte('\n')
		if out.Len() > 1<<16 {
			panic(rt.NewGoError(errors.New("fuzz: too much output")))
		}
		return goja.Undefined()
	})
	_ = rt.Set("console", console)
	var prg *goja.Program
	var err error
	var d *Debugger
	if instrumented {
		d = NewDebugger()
		if err := d.Install(rt, nil); err != nil {
			panic(err)
		}
		prg, err = d.Compile("f.js", src)
	} else {
		prg, err = depthguard.Compile("f.js", src, false)
	}
	if err != nil {
		r.compileErr = err.Error()
		return r
	}
	if budget == 0 {
		r.skip = true
		return r
	}
	timer := time.AfterFunc(budget, func() { rt.Interrupt("fuzz: time budget") })
	defer timer.Stop()
	start := time.Now()
	v, err := rt.RunProgram(prg)
	r.took = time.Since(start)
	r.out = out.String()
	var intr *goja.InterruptedError
	var so *goja.StackOverflowError
	if errors.As(err, &intr) || errors.As(err, &so) || strings.Contains(r.out, depthguard.Message) ||
		strings.Contains(r.out, "fuzz: too much output") {
		r.skip = true
		return r
	}
	if ex := (*goja.Exception)(nil); errors.As(err, &ex) {
		r.exception = bytecodeOffset.ReplaceAllString(ex.Error(), ":$1:$2")
		r.ownPos, r.at = ownPosition(ex)
		if d != nil {
			for _, st := range d.stmts {
				r.atHook = r.atHook || st.line+1 == r.at[0] && st.col+1 == r.at[1]
			}
		}
		if strings.Contains(r.exception, depthguard.Message) || strings.Contains(r.exception, "fuzz: too much output") {
			r.skip = true
		}
		return r
	} else if err != nil {
		r.exception = err.Error()
		return r
	}
	if v != nil {
		r.result = safeString(v)
	}
	return r
}

// safeString is v's string form, or the error converting it (a symbol, an object whose toString throws).
func safeString(v goja.Value) (s string) {
	defer func() {
		if x := recover(); x != nil {
			s = "<unprintable>"
		}
	}()
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Function" {
		return "<function>"
	}
	return v.String()
}
