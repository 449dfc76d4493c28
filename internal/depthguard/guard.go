package depthguard

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// GuardName is the name of the binding the rewritten functions call. It is a
// global lexical binding (like a top-level let), so it is no property of the
// global object: Object.getOwnPropertyNames and Reflect.ownKeys of globalThis
// do not list it. Its name is not an identifier (the colon), so no source
// text, eval included, can name it: only the calls Rewrite splices into the
// AST reach it, and no script can read, shadow or reassign it.
const GuardName = "jsworker:depth"

// Message is the RangeError's message, V8's text.
const Message = "Maximum call stack size exceeded"

// MaxGoStack is how much of its goroutine's Go stack a realm may use at a
// guard: a sixteenth of Go's default maximum (1 GB on 64-bit systems), so that
// recursion through Go code — a generator delegating to a new generator
// (goja resumes each on the Go stack, outside its call-stack count), a
// builtin calling back into JavaScript, a host function recursing into
// script — throws the same catchable RangeError long before the Go runtime
// would end the process with "goroutine stack exceeds limit".
const MaxGoStack = 64 << 20

// Backstop returns the depth goja's own, uncatchable limit is set to for a
// catchable limit of limit: a quarter more (at least 100 frames), room for
// catch handlers, finally blocks and calls the guard does not see.
func Backstop(limit int) int {
	extra := limit / 4
	if extra < 100 {
		extra = 100
	}
	return limit + extra
}

// Install bounds rt's call-stack depth: a rewritten function entered deeper
// than limit frames, or with more than MaxGoStack bytes of Go stack in use
// (amd64 and arm64), throws a catchable RangeError (Message), and goja's own
// limit is set to Backstop(limit). JSON.parse refuses text nested deeper than
// MaxJSONDepth with the same RangeError (json.go), and Array.prototype.join, toString
// and toLocaleString check the Go stack (builtins.go). Where gojainternal can read goja's
// templates, those builtins are guarded in place when goja makes them, and the RangeError
// constructor is looked up when the guard first throws (overflow.go): a realm pays for what it
// touches. Install is called once per realm, on the
// realm's goroutine, before any rewritten code runs; limit must be positive.
func Install(rt *goja.Runtime, limit int) error {
	return InstallWithCheckpoint(rt, limit, nil)
}

// A Checkpoint lets a realm's owner run work on the realm's goroutine in the middle of a long task (core's memory
// accounting measures a realm there): once Want is set, from any goroutine, the next guarded function entry clears
// nothing itself and calls Run, which must clear Want. Run runs inside a native call, so the realm is not being
// changed while it runs; it may call Interrupt to stop the script.
//
// Poll, if not nil, is called on the realm's goroutine every PollEvery guarded function entries and may set Want
// itself: a realm that checks its own state now and then instead of waiting for another goroutine to notice.
//
// Building is what the native calls running on the realm's goroutine have made so far and not yet returned (an
// estimate, in bytes: a JSON.parse's values, a JSON.stringify's text): memory no measurement of the realm's graph
// can see. The calls add to it at their polls, before Poll and Run, and take back what they added as they end
// (normally or not), so Run can add it to what it measures. Realm goroutine only; 0 when no such call runs.
//
// Limited, if not nil, reports whether a measurement can end the realm at all (a budget, the process's cap): a call
// that would force a measurement only so that a limit can act on what it is about to make asks it first.
type Checkpoint struct {
	Want     atomic.Bool
	Run      func()
	Poll     func()
	Building int64
	Limited  func() bool
}

// PollEvery is how many guarded function entries pass between two calls of Checkpoint.Poll.
const PollEvery = 1024

// InstallWithCheckpoint is Install with a checkpoint (nil for none) that every guarded function entry looks at:
// one atomic load. Every call of the guard returns the realm's Flag (FlagOf): undefined until it is set.
func InstallWithCheckpoint(rt *goja.Runtime, limit int, cp *Checkpoint) error {
	return install(rt, limit, cp, false)
}

// InstallLazyEval is InstallWithCheckpoint for a realm whose owner calls EvalMade when goja makes the realm's eval
// object (a template hook), so that a realm that never touches eval does not pay for it (~800 bytes): until then no
// eval site checks anything, since no callee can be the realm's eval. The state EvalMade needs is kept per realm
// (realmdata): the owner must Drop the realm when it ends.
func InstallLazyEval(rt *goja.Runtime, limit int, cp *Checkpoint) error {
	return install(rt, limit, cp, true)
}

func install(rt *goja.Runtime, limit int, cp *Checkpoint, lazyEval bool) error {
	if limit <= 0 {
		return errors.New("depthguard: the limit must be positive")
	}
	fail, lazy, err := overflowFor(rt) // overflow.go
	if err != nil {
		return err
	}
	if err := gojainternal.CallStack(); err != nil {
		return err // fail closed: no guard that cannot read the depth
	}
	var calls uint32 // realm goroutine only
	flag := &Flag{v: goja.Undefined(), yes: rt.ToValue(true)}
	ensure, err := guardConstructors(rt) // the Function constructors compile guarded code (function.go)
	if err != nil {
		return err
	}
	ev := newEvalState(rt, fail, lazyEval, ensure) // eval checks its text for goja's parser panic first (eval.go)
	global := rt.GlobalObject()
	guard := func(call goja.FunctionCall) goja.Value {
		switch len(call.Arguments) {
		case 0:
		case 1: // a program that makes async functions or generators, at its start: var {} = guard(0) (ensure.go)
			ensure()
			return global
		default:
			return ev.check(call) // a rewritten eval call site: guard(arg, k)
		}
		if d, _ := gojainternal.CallStackDepth(rt); d > limit || goStackUsed() > MaxGoStack {
			fail()
		}
		if cp != nil {
			if cp.Poll != nil {
				if calls++; calls%PollEvery == 0 {
					cp.Poll()
				}
			}
			if cp.Want.Load() {
				cp.Run()
			}
		}
		return flag.v // the realm's Flag (flag.go)
	}
	rt.SetMaxCallStackSize(Backstop(limit))
	if err := guardJSON(rt, fail, lazy, cp); err != nil {
		return err
	}
	if err := guardRecursiveBuiltins(rt, fail, lazy); err != nil {
		return err
	}
	if err := defineHidden(rt, rt.ToValue(guard)); err != nil {
		return err
	}
	flagKey.Set(rt, flag) // FlagOf
	return nil
}

// defineHidden sets the global lexical binding GuardName of rt to v: it runs
// the setter program (hiddenPrograms) and calls its completion value once.
func defineHidden(rt *goja.Runtime, v goja.Value) error {
	h := hiddenPrograms()
	if h.err != nil {
		return h.err
	}
	setter, err := rt.RunProgram(h.set)
	if err != nil {
		return err
	}
	fn, ok := goja.AssertFunction(setter)
	if !ok {
		return errors.New("depthguard: the setter program returned no function")
	}
	_, err = fn(goja.Undefined(), v)
	return err
}

// hiddenPrograms compiles, once per process, the programs that reach the
// binding GuardName, which source text cannot spell: set is
// `let NAME; (v) => { NAME = v }`, probe is `typeof NAME` and ensure is
// `typeof NAME === "function" && NAME(0)` (EnsureFunctionKinds), each parsed with
// a placeholder identifier renamed in the AST.
var hiddenPrograms = sync.OnceValue(func() hidden {
	var h hidden
	rename := func(src string, ids ...func(*ast.Program) *ast.Identifier) (*goja.Program, error) {
		prg, err := goja.Parse("jsworker:depthguard", src, parser.WithDisableSourceMaps)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			id(prg).Name = unistring.String(GuardName)
		}
		return goja.CompileAST(prg, true)
	}
	h.set, h.err = rename("let hidden; (v) => { hidden = v }",
		func(p *ast.Program) *ast.Identifier {
			return p.Body[0].(*ast.LexicalDeclaration).List[0].Target.(*ast.Identifier)
		},
		func(p *ast.Program) *ast.Identifier {
			arrow := p.Body[1].(*ast.ExpressionStatement).Expression.(*ast.ArrowFunctionLiteral)
			assign := arrow.Body.(*ast.BlockStatement).List[0].(*ast.ExpressionStatement).Expression.(*ast.AssignExpression)
			return assign.Left.(*ast.Identifier)
		})
	if h.err == nil {
		h.probe, h.err = rename("typeof hidden", func(p *ast.Program) *ast.Identifier {
			return p.Body[0].(*ast.ExpressionStatement).Expression.(*ast.UnaryExpression).Operand.(*ast.Identifier)
		})
	}
	if h.err == nil {
		and := func(p *ast.Program) *ast.BinaryExpression {
			return p.Body[0].(*ast.ExpressionStatement).Expression.(*ast.BinaryExpression)
		}
		h.ensure, h.err = rename(`typeof hidden === "function" && hidden(0)`,
			func(p *ast.Program) *ast.Identifier {
				return and(p).Left.(*ast.BinaryExpression).Left.(*ast.UnaryExpression).Operand.(*ast.Identifier)
			},
			func(p *ast.Program) *ast.Identifier {
				return and(p).Right.(*ast.CallExpression).Callee.(*ast.Identifier)
			})
	}
	return h
})

// hidden holds the compiled programs of hiddenPrograms.
type hidden struct {
	set, probe, ensure *goja.Program
	err                error
}

// DefaultLimit is the depth Ensure installs: core's DefaultMaxCallStackSize.
const DefaultLimit = 10000

// Ensure installs the guard with DefaultLimit unless rt already has one, for
// packages that compile rewritten code into realms they did not create
// (inspector.Debugger.Install, modules.NewRealm): the realms of core have
// theirs, with the worker's own limit, before those run.
func Ensure(rt *goja.Runtime) error {
	if Installed(rt) {
		return nil
	}
	return Install(rt, DefaultLimit)
}

// Installed reports whether rt has the guard.
func Installed(rt *goja.Runtime) bool {
	h := hiddenPrograms()
	if h.err != nil {
		return false
	}
	v, err := rt.RunProgram(h.probe)
	return err == nil && v.String() == "function"
}
