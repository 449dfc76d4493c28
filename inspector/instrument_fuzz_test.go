package inspector

import (
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/depthguard"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// FuzzInstrument is differential: a program — the real scripts of testdata/fuzzscripts, mutated — runs plain and
// instrumented (Debugger.Compile, no session attached) and must print the same, end the same (its completion
// value, or the same exception at the same position), and compile or fail to compile alike. What goja throws
// every time without recording a position of its own is given one by depthguard.Rewrite, which both runs go
// through (internal/depthguard/positions.go); positions are compared everywhere but where goja's own source map
// shows an instruction without one (inheritedHook). Both realms have the stack-depth guard, an allocation guard
// (guardAllocations), a fixed random source and clock, and a time budget; a run that hits the budget, the
// call-stack limit or the allocation guard is not compared (the hooks add frames and time). Each realm's state is
// dropped after its run, and a dying worker's crash output is kept in a file (keepCrashOutput).
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
	// A worker's backtracking matches end after core.RegexpMatchTimeout (one second; this package cannot import
	// core); without the bound a catastrophic pattern a mutation makes would run past hangLimit in one Go loop.
	defer func(d time.Duration) { regexp2.DefaultMatchTimeout = d }(regexp2.DefaultMatchTimeout)
	regexp2.DefaultMatchTimeout = time.Second
	keepCrashOutput(f)
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

// keepCrashOutput makes a fuzzing worker process (whose standard output and error Go's engine discards) write
// what the runtime prints when it dies — an unrecovered panic in any goroutine, a fatal error such as "out of
// memory" or "concurrent map writes", with every goroutine's stack — to
// $TMPDIR/jsworker-fuzzinstrument-crash-<pid>.txt; the file is removed when the worker ends normally.
func keepCrashOutput(f *testing.F) {
	if fl := flag.Lookup("test.fuzzworker"); fl == nil || fl.Value.String() != "true" {
		return
	}
	name := filepath.Join(os.TempDir(), fmt.Sprintf("jsworker-fuzzinstrument-crash-%d.txt", os.Getpid()))
	file, err := os.Create(name)
	if err != nil {
		f.Fatal(err)
	}
	debug.SetTraceback("all")
	if err := debug.SetCrashOutput(file, debug.CrashOptions{}); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		_ = debug.SetCrashOutput(nil, debug.CrashOptions{})
		_ = file.Close()
		_ = os.Remove(name)
	})
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
	// The depth guard's and the Debugger's per-realm state (internal/realmdata) holds the realm: without Drop every
	// realm of every execution stayed reachable, and a fuzzing worker grew by about 120 KiB an input (live heap,
	// the sample scripts) to gigabytes.
	defer realmdata.Drop(rt)
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
	refused, release := guardAllocations(rt)
	defer release()
	timer := time.AfterFunc(budget, func() { rt.Interrupt("fuzz: time budget") })
	defer timer.Stop()
	start := time.Now()
	v, err := rt.RunProgram(prg)
	r.took = time.Since(start)
	r.out = out.String()
	if *refused {
		r.skip = true
		return r
	}
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

// fuzzMaxUnits is the most one call of a builtin that makes its result in a single Go loop or allocation may make
// in a fuzzing realm: string code units, array slots, buffer bytes. A worker's realms refuse what cannot be had
// (core's allocation guard: core.MaxAllocationBytes, V8's string length; docs/limits.md "What is refused up
// front"), but this package cannot import core, and a fuzzing process needs far less: one mutated number in a
// sample script, "Ada".padEnd(88888888888, "."), asks Go for 88 GB and the runtime ends the process ("fatal
// error: out of memory", exit status 2 — what ended the fuzzing workers of docs/limits.md's eighth runs), and
// 8888888888 makes goja write 8.9 GB a byte at a time in one Go loop that no interrupt reaches.
const fuzzMaxUnits = 1 << 24

// errFuzzRefused is what a guarded builtin throws for a request over fuzzMaxUnits.
var errFuzzRefused = errors.New("fuzz: allocation refused")

// fuzzRefusals holds, for each realm runForFuzz is running, the flag its guards set when they refuse a request.
var fuzzRefusals sync.Map // *goja.Runtime → *bool

// refuse throws errFuzzRefused in rt, and sets its flag, if n is over fuzzMaxUnits.
func refuse(rt *goja.Runtime, n float64) {
	if n > fuzzMaxUnits {
		if f, ok := fuzzRefusals.Load(rt); ok {
			*f.(*bool) = true
		}
		panic(rt.NewGoError(errFuzzRefused))
	}
}

// fuzzNumber is a number's or a string's numeric value, or 0 (not checked): no valueOf or toString runs twice.
func fuzzNumber(v goja.Value) float64 {
	if v == nil || !goja.IsNumber(v) && !goja.IsString(v) {
		return 0
	}
	return v.ToFloat()
}

// fuzzLength is an array's own length, or 0 (not checked): no getter runs twice.
func fuzzLength(v goja.Value) float64 {
	if o, ok := v.(*goja.Object); ok && o.ClassName() == "Array" {
		return o.Get("length").ToFloat()
	}
	return 0
}

// fuzzStrLen is a string's length, or 0.
func fuzzStrLen(v goja.Value) float64 {
	if s, ok := v.(goja.String); ok {
		return float64(s.Length())
	}
	return 0
}

// fuzzBuffers are the constructors guardAllocations guards, with the bytes one unit of their first argument costs.
var fuzzBuffers = [...]struct {
	name string
	size float64
}{
	{"ArrayBuffer", 1}, {"Int8Array", 1}, {"Uint8Array", 1}, {"Uint8ClampedArray", 1}, {"Int16Array", 2},
	{"Uint16Array", 2}, {"Int32Array", 4}, {"Uint32Array", 4}, {"Float32Array", 4}, {"Float64Array", 8},
	{"BigInt64Array", 8}, {"BigUint64Array", 8},
}

// fuzzGlobal is the global object's template with the constructors of fuzzBuffers guarded when goja makes them
// (making all twelve in each realm would cost 0.1–0.4 ms; most programs touch none). ArrayBuffer reached through
// a buffer's constructor property, not through the global, is not guarded: the sample scripts make no buffers.
var fuzzGlobal = sync.OnceValues(func() (*gojainternal.Template, error) {
	hooks := map[string]func(*goja.Runtime, goja.Value){}
	for _, c := range fuzzBuffers {
		hooks[c.name] = func(rt *goja.Runtime, v goja.Value) {
			ctor, _ := v.(*goja.Object)
			if !gojainternal.GuardConstruct(ctor, func(args []goja.Value) {
				if len(args) > 0 {
					refuse(rt, fuzzNumber(args[0])*c.size)
				}
			}) {
				panic("fuzz: cannot guard " + c.name)
			}
		}
	}
	return gojainternal.DeriveTemplate(goja.New().GlobalObject(), hooks)
})

// guardAllocations puts a check before each builtin of rt that makes its result in one Go loop or allocation
// sized by its arguments (String.prototype.repeat/padStart/padEnd, Array.prototype.join/fill, ArrayBuffer and the
// typed-array constructors), and answers a flag that a refusal sets — a run with a refusal is not compared (a
// script may catch the error) — and the function that forgets rt. Only primitive arguments and arrays' own
// lengths are read; the harness's realms never make the rest large enough to matter.
func guardAllocations(rt *goja.Runtime) (refused *bool, release func()) {
	refused = new(bool)
	fuzzRefusals.Store(rt, refused)
	guard := func(o *goja.Object, name string, check func(call goja.FunctionCall) float64) {
		fn, _ := o.Get(name).(*goja.Object)
		if !gojainternal.GuardCall(fn, func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
			refuse(rt, check(call))
			return orig(call)
		}) {
			panic("fuzz: cannot guard " + name)
		}
	}
	str := rt.ToValue("").ToObject(rt).Prototype()
	guard(str, "repeat", func(c goja.FunctionCall) float64 { return fuzzNumber(c.Argument(0)) * fuzzStrLen(c.This) })
	guard(str, "padStart", func(c goja.FunctionCall) float64 { return fuzzNumber(c.Argument(0)) })
	guard(str, "padEnd", func(c goja.FunctionCall) float64 { return fuzzNumber(c.Argument(0)) })
	arr := rt.NewArray().Prototype()
	guard(arr, "join", func(c goja.FunctionCall) float64 {
		return fuzzLength(c.This) * max(1, fuzzStrLen(c.Argument(0))) // an empty separator still loops over every slot
	})
	guard(arr, "fill", func(c goja.FunctionCall) float64 { return fuzzLength(c.This) })
	t, err := fuzzGlobal()
	if err != nil {
		panic(err)
	}
	if made, ok := t.Install(rt.GlobalObject()); !ok || len(made) > 0 {
		panic(fmt.Sprintf("fuzz: cannot guard the global object (made before: %v)", made))
	}
	return refused, func() { fuzzRefusals.Delete(rt) }
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

// TestFuzzAllocationGuard: each request FuzzInstrument's realms refuse (guardAllocations) ends the run as not to be
// compared, plain and instrumented, even when the script catches the refusal — where without the guard the first
// would end the fuzzing process ("fatal error: out of memory") and the others run for minutes in one Go loop —
// and the same builtins with small requests run as without the guard.
func TestFuzzAllocationGuard(t *testing.T) {
	for _, src := range []string{
		`"Ada".padEnd(88888888888, ".")`,
		`"Ada".padStart(2**40)`,
		`"ab".repeat(1e9)`,
		`new Array(2**32 - 1).join("")`,
		`new Array(2**32 - 1).fill(0)`,
		`try { new ArrayBuffer(1e13) } catch (e) { 1 }`,
		`try { new Float64Array(2**40) } catch (e) { 1 }`,
		`class U extends Uint8Array {}; new U(1e12)`,
		`var r; try { "x".repeat(2**31) } catch (e) { r = e } r`,
	} {
		for _, instrumented := range []bool{false, true} {
			if r := runForFuzz(src, instrumented, 10*time.Second); !r.skip || r.compileErr != "" {
				t.Errorf("instrumented %v: %q was compared: %+v", instrumented, src, r)
			}
		}
	}
	const small = `["ab".padStart(5, "x"), "ab".padEnd(4), "ab".repeat(3), [1, 2, 3].join("-"), new Array(3).fill(7).join(),
		new Uint16Array(4).length, new ArrayBuffer(8).byteLength, new (class extends Int8Array {})(2).length].join(" ")`
	want := "xxxab ab   ababab 1-2-3 7,7,7 4 8 2"
	for _, instrumented := range []bool{false, true} {
		if r := runForFuzz(small, instrumented, 10*time.Second); r.skip || r.result != want || r.exception != "" {
			t.Errorf("instrumented %v: %+v, want result %q", instrumented, r, want)
		}
	}
}

// TestRunForFuzzKeepsNoRealm: a FuzzInstrument execution leaves no per-realm state behind (internal/realmdata),
// which would hold its realms for the rest of the fuzzing process.
func TestRunForFuzzKeepsNoRealm(t *testing.T) {
	src, err := os.ReadFile("testdata/fuzzscripts/closures.js")
	if err != nil {
		t.Fatal(err)
	}
	before := realmdata.Len()
	for range 10 {
		plain := runForFuzz(string(src), false, plainBudget)
		runForFuzz(string(src), true, instrumentedBudget(plain))
	}
	if n := realmdata.Len(); n != before {
		t.Fatalf("%d realm(s) with state before, %d after 20 runs", before, n)
	}
}
