package depthguard

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// eval hands its text straight to goja's parser, which panics on some malformed source: the Go panic would end the
// realm's thread where Node throws a SyntaxError. The realm's eval is checked first, on both of its paths:
//
//   - A direct eval is no call of the eval object: goja's VM sees that the callee of a call spelled `eval(…)` is the
//     realm's eval and compiles the text in the caller's scope itself. Rewrite (guardEvalCall) therefore wraps the
//     last argument of every such call in a call of the guard (GuardName, which source cannot spell) with two
//     arguments, the form that makes it the eval check: `eval(a, b)` becomes `eval(a, G(b, 1))`. The callee stays the identifier `eval`, so the call stays
//     direct, with its scoping. G runs after every argument was evaluated, just before the call, and reads the
//     callee and the first argument from goja's VM stack (gojainternal.Operand) instead of evaluating them again, so
//     that `eval` and the text are evaluated once each and in the specification's order. Only when the callee is
//     the realm's own eval and the text a string does G parse it (Parse's recovery); it returns its argument.
//   - An indirect eval (`(0, eval)(x)`, `globalThis.eval(x)`, `eval?.(x)`) calls the eval object: the same check
//     runs in front of goja's own behaviour, in place (gojainternal.GuardCall), so identity and descriptors hold.
//
// A text goja's parser would panic on throws the realm's own SyntaxError (goja's, made by giving goja's eval "(")
// with the message "<eval>: the parser failed: …", as the Function constructors do; every other text, valid or
// not, goes to goja unchanged, which throws its own SyntaxError with its own message. The text is parsed twice.
//
// A spread first argument (`eval(...args)`) goes through spreadProgram, which spreads it with goja's own iteration and
// checks the first element. What stays exposed: a direct eval inside eval code (goja compiles that code itself,
// unrewritten) and code compiled without Rewrite (a host's RunString). With spread arguments after the first
// (`eval(x, ...rest)`, `eval(...args, ...rest)`) the check runs before the rest is evaluated.

// guardEvalCall wraps the last argument of call, whose callee is the identifier eval, in a call of the guard
// (see the top of this file): the guard with the argument and how many arguments come before it, unless it is
// wrapped already. With spread arguments, it wraps the first argument instead (the position of the last one is not
// known when it runs); a spread first argument `...s` becomes `...G(s, -1)`.
func guardEvalCall(call *ast.CallExpression) {
	args := call.ArgumentList
	if len(args) == 0 || isEvalGuardExpr(args[len(args)-1]) || isEvalGuardExpr(args[0]) {
		return
	}
	last := len(args) - 1
	for i, a := range args {
		if s, spread := a.(*ast.SpreadElement); spread {
			if i == 0 {
				s.Expression = evalGuardCall(s.Expression, -1)
				return
			}
			last = 0
			break
		}
	}
	args[last] = evalGuardCall(args[last], last)
}

// evalGuardCall is the expression G(arg, k). Every node added carries the position of the argument: error positions
// are unchanged.
func evalGuardCall(arg ast.Expression, k int) *ast.CallExpression {
	at := arg.Idx0()
	return &ast.CallExpression{
		Callee:          &ast.Identifier{Name: GuardName, Idx: at},
		LeftParenthesis: at,
		ArgumentList: []ast.Expression{arg,
			&ast.NumberLiteral{Idx: at, Literal: strconv.Itoa(k), Value: int64(k)}},
		RightParenthesis: at,
	}
}

// isEvalCall reports whether call's callee is the identifier eval (parentheses leave no node: `(eval)(x)` too).
func isEvalCall(call *ast.CallExpression) bool {
	id, ok := call.Callee.(*ast.Identifier)
	return ok && id.Name == "eval"
}

func isEvalGuardExpr(e ast.Expression) bool {
	if s, ok := e.(*ast.SpreadElement); ok {
		e = s.Expression
	}
	call, ok := e.(*ast.CallExpression)
	if !ok {
		return false
	}
	id, ok := call.Callee.(*ast.Identifier)
	return ok && id.Name == GuardName && len(call.ArgumentList) == 2
}

// evalState is a realm's eval check: the realm's eval object once it is guarded (nil before), and what its checks
// throw. Realm goroutine only.
type evalState struct {
	rt          *goja.Runtime
	self        goja.Value    // the realm's own eval (*goja.Object), once guarded
	overflow    func()        // throws the catchable RangeError (Install's fail)
	syntaxError func()        // throws goja's SyntaxError for "(", as an exception
	spreadFn    goja.Callable // the realm's spreadProgram function, made on first use
	ensure      func()        // guards AsyncFunction and GeneratorFunction (ensure.go)
}

// evalKey holds the evalState of a realm whose eval is guarded when goja makes it (InstallLazyEval), for EvalMade.
var evalKey = realmdata.NewKey[*evalState]("depthguard.eval")

// newEvalState makes rt's eval check; lazy leaves the eval object to EvalMade, otherwise it is made and guarded now.
func newEvalState(rt *goja.Runtime, overflow func(), lazy bool, ensure func()) *evalState {
	st := &evalState{rt: rt, overflow: overflow, ensure: ensure}
	if lazy {
		evalKey.Set(rt, st)
	} else {
		st.guard(rt.Get("eval"))
	}
	return st
}

// EvalMade guards eval, the eval object goja has just made for rt, in place (see the top of this file), in a realm
// whose guard was installed with InstallLazyEval: the hook of the global object's "eval" in a derived template
// (gojainternal.DeriveTemplate), or, where the property was made before the template was installed, a call with
// gojainternal.TemplateValue's value. It runs no JavaScript; calls after the first, and for other realms, do nothing.
func EvalMade(rt *goja.Runtime, eval goja.Value) {
	if st, ok := evalKey.Get(rt); ok && st.self == nil {
		st.guard(eval)
	}
}

// guard guards evalVal, the realm's eval object, in place: an indirect eval checks its text first, and rethrows
// goja's stack overflow inside it as the catchable RangeError; the direct eval sites compare their callee with it.
func (st *evalState) guard(evalVal goja.Value) {
	evalObj, _ := evalVal.(*goja.Object)
	evalFn, ok := goja.AssertFunction(evalObj)
	if evalObj == nil || !ok {
		return
	}
	rt := st.rt
	gojainternal.GuardCall(evalObj, func(orig gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		if len(call.Arguments) > 0 {
			checkEvalText(call.Arguments[0], func() {
				orig(goja.FunctionCall{This: goja.Undefined(), Arguments: []goja.Value{rt.ToValue("(")}})
			}, st.ensure, st.overflow)
		}
		return callCatchingOverflow(orig, call, st.overflow)
	})
	st.syntaxError = func() {
		_, err := evalFn(goja.Undefined(), rt.ToValue("("))
		panic(err) // goja's SyntaxError for "(", as an exception
	}
	st.self = evalObj
}

// check is the guard's eval check, for a rewritten call site `eval(…, G(v, k))`: when the call's callee is the
// realm's eval, it parses the text with Parse's recovery (checkEvalText). It returns v.
func (st *evalState) check(call goja.FunctionCall) goja.Value {
	v := call.Argument(0)
	if st.self == nil {
		return v // goja has not made the realm's eval: no callee can be it
	}
	k := int(call.Argument(1).ToInteger()) // how many arguments come before v: Rewrite's literal
	if k < 0 {                             // `eval(...v, …)`
		if callee, ok := gojainternal.Operand(st.rt, call, 1); ok && callee == st.self {
			return st.spread(v)
		}
		return v
	}
	if callee, ok := gojainternal.Operand(st.rt, call, k+1); ok && callee == st.self {
		text := v
		if k > 0 {
			text, ok = gojainternal.Operand(st.rt, call, k)
		}
		if ok {
			checkEvalText(text, st.syntaxError, st.ensure, st.overflow)
		}
	}
	return v
}

// spreadProgram makes the helper a spread first argument of eval goes through: it spreads s into an array with goja's
// own iteration (every step, and every error, as the call's own spread would make them, at the same point), checks
// the first element, and returns an iterable over the array that reaches nothing a script can change (its own
// iterator method, and result objects with own value and done), so that the call's spread observes nothing more.
var spreadProgram = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("jsworker:eval", `(function (s, check, iterator) {
		var a = [...s], i = 0;
		if (a.length > 0) check(a[0]);
		var it = { next: function () { return i < a.length ? { value: a[i++], done: false } : { value: undefined, done: true }; } };
		var w = {};
		w[iterator] = function () { return it; };
		return w;
	})`, true)
})

// spread is the check of `eval(...s, …)` when the callee is the realm's eval (spreadProgram).
func (st *evalState) spread(s goja.Value) goja.Value {
	rt := st.rt
	if st.spreadFn == nil {
		p, err := spreadProgram()
		if err != nil {
			return s
		}
		fv, err := rt.RunProgram(p)
		if err != nil {
			panic(err)
		}
		if st.spreadFn, _ = goja.AssertFunction(fv); st.spreadFn == nil {
			return s
		}
	}
	check := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		checkEvalText(call.Argument(0), st.syntaxError, st.ensure, st.overflow)
		return goja.Undefined()
	})
	w, err := st.spreadFn(goja.Undefined(), s, check, goja.SymIterator)
	if err != nil {
		panic(err) // the iteration's own exception, or the SyntaxError: thrown at the call
	}
	return w
}

// callCatchingOverflow calls goja's eval. Recursion inside the eval code (which Rewrite never sees) ends at goja's
// backstop: a *goja.StackOverflowError panic, which skips every JavaScript handler up to the nearest Go frame that
// recovers — this one, for an indirect eval, a native call. By then goja has unwound its VM to the state it had as
// the eval began (each nested run restores its try frame's state), so the overflow is rethrown as the catchable
// RangeError of the guard, at the depth of the eval call. A direct eval is no native call: there is no Go frame
// between its code and the caller's handlers, and its overflow stays uncatchable (docs/limits.md).
func callCatchingOverflow(orig gojainternal.CallFunc, call goja.FunctionCall, overflow func()) goja.Value {
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(*goja.StackOverflowError); ok {
				overflow()
			}
			panic(x)
		}
	}()
	return orig(call)
}

// checkEvalText parses text, if it is a string, as goja's eval would, and throws the SyntaxError syntaxError throws,
// with the parser's failure as its message, if goja's parser panics on it. Eval code is compiled by goja, unrewritten:
// when it may make an async function or a generator (evalMakesFunctionKinds), or when our parse refused a text goja's
// may still accept (new.target or super in a direct eval inside a function), ensure guards AsyncFunction and
// GeneratorFunction before it runs. A text nested too deeply for goja's parser (IsTooDeep) throws the guard's
// RangeError (overflow), as V8's eval does, and never reaches goja's.
func checkEvalText(text goja.Value, syntaxError func(), ensure func(), overflow func()) {
	s, ok := text.(goja.String)
	if !ok {
		return
	}
	prg, err := Parse(evalName, evalSource(s), parser.WithDisableSourceMaps)
	if IsTooDeep(err) {
		overflow()
	}
	if err != nil && strings.Contains(err.Error(), parserFailed) {
		throwParserFailure(err.Error(), syntaxError)
	}
	if err != nil || evalMakesFunctionKinds(prg) {
		ensure()
	}
}

// evalSource is the Go text goja's eval parses for s: s, with each lone surrogate (which a Go string cannot carry)
// written as the escape \uxxxx, and a backslash right before the first one doubled, as goja writes them.
func evalSource(s goja.String) string {
	str := s.String()
	if !strings.ContainsRune(str, '\uFFFD') {
		return str // no lone surrogate (each would have become U+FFFD)
	}
	n := s.Length()
	var sb strings.Builder
	escaped := false
	for i := 0; i < n; i++ {
		c := rune(s.CharAt(i))
		if utf16.IsSurrogate(c) {
			if c < 0xDC00 && i+1 < n {
				if d := rune(s.CharAt(i + 1)); d >= 0xDC00 && d <= 0xDFFF {
					sb.WriteRune(utf16.DecodeRune(c, d))
					i++
					continue
				}
			}
			if !escaped && i > 0 && s.CharAt(i-1) == '\\' {
				sb.WriteByte('\\')
			}
			escaped = true
			sb.WriteString(`\u`)
			const hex = "0123456789abcdef"
			sb.WriteByte(hex[c>>12])
			sb.WriteByte(hex[(c>>8)&0xF])
			sb.WriteByte(hex[(c>>4)&0xF])
			sb.WriteByte(hex[c&0xF])
			continue
		}
		sb.WriteRune(c)
	}
	return sb.String()
}
