// Hook rewriting: the JavaScript the instrumentation splices in — statement
// hooks, throw hooks, function guards and catch-clause hooks.

package inspector

import (
	"slices"
	"strconv"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/internal/astwalk"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// concise gives an expression-bodied arrow function `(x) => e` a statement
// hook, as the block `{ hook; return e; }` with every new position at e's
// start (Function.prototype.toString reads the source text, so it does not
// change). It gets no guard: an error a builtin raises in e is seen by the
// guard of the function that called it, at the position e raised it.
func (in *instrumenter) concise(n *ast.ArrowFunctionLiteral, e ast.Expression) {
	idx := e.Idx0()
	ret := &ast.ReturnStatement{Return: idx, Argument: e}
	body := &ast.BlockStatement{LeftBrace: idx, RightBrace: idx, List: []ast.Statement{ret}}
	if h := in.hook(ret, false); h != nil {
		body.List = []ast.Statement{h, ret}
		in.fn.entry = h.(*ast.IfStatement) // it tests the depth guard's call (finishFunction)
	}
	n.Body = body
}

// excName is the catch parameter of the hooks that watch exceptions.
const excName = "__jsworker_exc"

// hookCall builds `__jsworker_on && __jsworker_dbg.name(args…, [locals], this)`
// with every position at idx, passing the current function's visible locals
// (and this) when inside one; then, as after a statement hook, the writes
// made while paused there are stored: `… && (a = back(0, a), …)`.
func (in *instrumenter) hookCall(idx file.Idx, name string, locals []local, args ...ast.Expression) ast.Statement {
	var e ast.Expression = in.hookExpr(idx, name, locals, args...)
	if in.fn != nil {
		e = in.writeBack(idx, e, locals)
	}
	return in.hookStatement(idx, &ast.BinaryExpression{Operator: token.LOGICAL_AND, Left: &ast.Identifier{Name: onName, Idx: idx}, Right: e})
}

// hookStatement makes the statement that evaluates a hook expression e. In a function it is an expression
// statement. At a script's top level, where the last statement's value is the script's completion value (what
// JSEvaluateScript returns), it is `var __jsworker_v = e`: a variable statement has no value of its own, so the
// completion value stays the program's (an expression statement's `false` would replace it, as FuzzInstrument
// found). The variable is a hidden global (Debugger.Install).
func (in *instrumenter) hookStatement(idx file.Idx, e ast.Expression) ast.Statement {
	if in.fn != nil || in.s.module {
		return &ast.ExpressionStatement{Expression: e}
	}
	return &ast.VariableStatement{Var: idx, List: []*ast.Binding{{Target: &ast.Identifier{Name: sinkName, Idx: idx}, Initializer: e}}}
}

// hookExpr builds the call `__jsworker_dbg.name(args…, [locals], this)`, the
// locals and this only inside a function.
func (in *instrumenter) hookExpr(idx file.Idx, name string, locals []local, args ...ast.Expression) *ast.CallExpression {
	if in.fn != nil {
		arr := &ast.ArrayLiteral{LeftBracket: idx, RightBracket: idx}
		for _, l := range locals {
			arr.Value = append(arr.Value, &ast.Identifier{Name: unistring.String(l.name), Idx: idx})
		}
		args = append(args, arr)
		if in.fn.this {
			args = append(args, &ast.ThisExpression{Idx: idx})
		}
	}
	return &ast.CallExpression{Callee: hookMember(idx, name), LeftParenthesis: idx, ArgumentList: args, RightParenthesis: idx}
}

// hookMember is `__jsworker_dbg.name` at idx.
func hookMember(idx file.Idx, name string) *ast.DotExpression {
	return &ast.DotExpression{
		Left:       &ast.Identifier{Name: hookName, Idx: idx},
		Identifier: ast.Identifier{Name: unistring.String(name), Idx: idx},
	}
}

// writeBack returns `e && (a = back(0, a), b = back(1, b))` for the locals
// that are not constants (e itself when there are none): e is a hook that
// reports whether locals were written while it paused, back(i, cur) the
// value local i gets.
func (in *instrumenter) writeBack(idx file.Idx, e ast.Expression, locals []local) ast.Expression {
	var back []ast.Expression
	for i, l := range locals {
		if l.konst {
			continue
		}
		back = append(back, &ast.AssignExpression{
			Operator: token.ASSIGN,
			Left:     &ast.Identifier{Name: unistring.String(l.name), Idx: idx},
			Right: &ast.CallExpression{Callee: hookMember(idx, "back"), LeftParenthesis: idx, RightParenthesis: idx,
				ArgumentList: []ast.Expression{in.num(idx, i), &ast.Identifier{Name: unistring.String(l.name), Idx: idx}}},
		})
	}
	if len(back) == 0 {
		return e
	}
	return &ast.BinaryExpression{Operator: token.LOGICAL_AND, Left: e, Right: &ast.SequenceExpression{Sequence: back}}
}

// guard wraps a function body (after its directive prologue) in
// `try { body } catch (__jsworker_exc) { on && raised(N, __jsworker_exc, [locals], this); throw __jsworker_exc; }`,
// so that an exception leaving the function — also one raised by a builtin
// (null.x) or the engine — reaches the debugger while the function's frame is
// still on the stack. Every position is the body's opening brace. The
// rethrow keeps the value; an Error keeps its stack (captured when it was
// made). The locals passed are the parameters and vars. A body that is one
// statement and its hook runs the try only while the flag is on (unguarded);
// in both forms the function reads the flag at entry from the depth guard's
// call (entryFlag), not from the global onName. A body that redeclares a
// parameter (an early error) is left as it is (redeclaresParam).
func (in *instrumenter) guard(body *ast.BlockStatement, pl *ast.ParameterList) {
	if body == nil || in.fn == nil || redeclaresParam(pl, body.List) {
		return
	}
	start := 0
	for start < len(body.List) {
		es, ok := body.List[start].(*ast.ExpressionStatement)
		if !ok {
			break
		}
		if _, ok := es.Expression.(*ast.StringLiteral); !ok {
			break
		}
		start++
	}
	if start == len(body.List) {
		return
	}
	idx := body.LeftBrace
	id := in.raiseSite(idx, false)
	exc := func() *ast.Identifier { return &ast.Identifier{Name: excName, Idx: idx} }
	locals := in.raiseLocals(id)
	try := &ast.TryStatement{
		Try:  idx,
		Body: &ast.BlockStatement{LeftBrace: idx, List: slices.Clone(body.List[start:]), RightBrace: idx},
		Catch: &ast.CatchStatement{
			Catch:     idx,
			Parameter: exc(),
			Body: &ast.BlockStatement{LeftBrace: idx, RightBrace: idx, List: []ast.Statement{
				in.hookCall(idx, "raised", locals, in.num(idx, id), exc()),
				&ast.ThrowStatement{Throw: idx, Argument: in.rethrowOf(idx, exc())},
			}},
		},
	}
	if single := in.unguarded(body.List[start:]); single != nil {
		// The test is the depth guard's call (frameflag.go): the function's only read of the flag with the hooks off.
		body.List = append(body.List[:start:start], &ast.IfStatement{If: idx, Test: depthguard.Call(idx), Consequent: try, Alternate: single})
		return
	}
	body.List = append(body.List[:start:start], try)
	in.entryFlag(body, start, try)
}

// entryFlag gives a function whose try body (guard) starts with a
// refreshing statement hook the frame flag from the depth guard's call, the
// statement `__jsworker_f = jsworker:depth();` before the try (Rewrite adds
// no second call), and makes that hook a cached one: the function reads no
// global at entry. A body starting otherwise keeps the guard Rewrite inserts.
func (in *instrumenter) entryFlag(body *ast.BlockStatement, start int, try *ast.TryStatement) {
	first, ok := try.Body.List[0].(*ast.IfStatement)
	if !ok {
		return
	}
	if !slices.Contains(in.fn.freshHooks, first) {
		return
	}
	in.fn.entry, in.fn.entrySet = first, true // finishFunction declares the frame flag
	idx := body.LeftBrace
	set := &ast.ExpressionStatement{Expression: &ast.AssignExpression{Operator: token.ASSIGN,
		Left: &ast.Identifier{Name: frameFlagName, Idx: idx}, Right: depthguard.Call(idx)}}
	body.List = append(body.List[:start:start], set, try)
}

// unguarded returns the statement st of a function body that is, after the
// directive prologue, only st's hook and st, when the body may run
// `if (jsworker:depth()) { try { hook; st } catch … } else st` (guard; the
// test is the depth guard's call, whose value is the hook flag, and the only
// guard call of the function): st is a return or
// an expression statement, so no hook of the frame follows the first one,
// with no function or class in it (they would be instrumented once and
// appear twice), in a function that is neither async nor a generator (it
// cannot be resumed after the flag changed). With no session, the function
// then pays the guard's call it pays anyway, a test of its value and no try.
// Otherwise it returns nil.
//
// The flag is read once, at entry: a session that enables the Debugger
// while such a function is in a call it makes (possible only in a host realm
// whose host dispatches inspector commands from inside a native callback)
// sees no exception pause for an error a builtin raises in the rest of st
// in that frame; the frames that called it, if they entered with the flag
// on, still do. st is compiled twice; the copies share its nodes, which the
// compiler only reads.
func (in *instrumenter) unguarded(list []ast.Statement) ast.Statement {
	if len(list) != 2 || in.fn.async || in.fn.generator {
		return nil
	}
	if h, ok := list[0].(*ast.IfStatement); !ok || !slices.Contains(in.fn.freshHooks, h) && !slices.Contains(in.fn.cachedHooks, h) {
		return nil
	}
	st := list[1]
	switch st.(type) {
	case *ast.ReturnStatement, *ast.ExpressionStatement:
	default:
		return nil
	}
	if containsFunction(st) {
		return nil
	}
	return st
}

// containsFunction reports whether n contains a function, arrow, method or
// class.
func containsFunction(n ast.Node) bool {
	found := false
	astwalk.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral:
			found = true
		}
		return !found
	})
	return found
}

// guardTop gives the statements of a script's top level what guard gives a
// function body: each becomes
// `try { st } catch (__jsworker_exc) { on && raised(N, __jsworker_exc); throw __jsworker_exc; }`,
// every position at st's start, so that an exception a builtin or the engine
// raises there (null.x at the top level) pauses as uncaught before the
// script ends. Left alone: the directive prologue, the hooks, and let,
// const, class and function declarations, whose bindings a block would make
// local (an exception in a let or const initializer at the top level does
// not pause). A var statement in the try still declares a global.
func (in *instrumenter) guardTop(prg *ast.Program) {
	prologue := true
	for i, st := range prg.Body {
		if prologue {
			if es, ok := st.(*ast.ExpressionStatement); ok {
				if _, ok := es.Expression.(*ast.StringLiteral); ok {
					continue
				}
			}
			prologue = false
		}
		switch st.(type) {
		case *ast.LexicalDeclaration, *ast.ClassDeclaration, *ast.FunctionDeclaration, *ast.EmptyStatement, *ast.BadStatement:
			continue
		}
		if in.topHooks[st] || (in.skip != nil && in.skip(st)) {
			continue
		}
		idx := st.Idx0()
		id := in.raiseSite(idx, false)
		exc := func() *ast.Identifier { return &ast.Identifier{Name: excName, Idx: idx} }
		prg.Body[i] = &ast.TryStatement{
			Try:  idx,
			Body: &ast.BlockStatement{LeftBrace: idx, List: []ast.Statement{st}, RightBrace: idx},
			Catch: &ast.CatchStatement{
				Catch:     idx,
				Parameter: exc(),
				Body: &ast.BlockStatement{LeftBrace: idx, RightBrace: idx, List: []ast.Statement{
					in.hookCall(idx, "raised", nil, in.num(idx, id), exc()),
					&ast.ThrowStatement{Throw: idx, Argument: in.rethrowOf(idx, exc())},
				}},
			},
		}
	}
}

// rethrowOf is the guards' rethrown value, `__jsworker_dbg.rethrow(e)` (Debugger.rethrow): it throws e with the
// stack of its own throw statement, or returns it.
func (in *instrumenter) rethrowOf(idx file.Idx, e ast.Expression) ast.Expression {
	return &ast.CallExpression{Callee: hookMember(idx, "rethrow"), LeftParenthesis: idx, ArgumentList: []ast.Expression{e}, RightParenthesis: idx}
}

// catchHook makes a catch clause start with `on && raised(N, e, [locals], this)`
// (a catch without a parameter gets one), so that an exception caught in the
// same function — also one a builtin raised — reaches the debugger.
func (in *instrumenter) catchHook(cs *ast.CatchStatement) {
	if cs.Body == nil {
		return
	}
	idx := cs.Catch
	if cs.Parameter == nil {
		cs.Parameter = &ast.Identifier{Name: excName, Idx: idx}
	}
	param, ok := cs.Parameter.(*ast.Identifier)
	if !ok { // a destructuring pattern: the exception itself is not reachable
		return
	}
	id := in.raiseSite(idx, true)
	locals := in.raiseLocals(id)
	if in.fn != nil && !slices.ContainsFunc(locals, func(l local) bool { return l.name == string(param.Name) }) {
		locals = append(locals, local{name: string(param.Name)})
		in.d.raises[id].locals = locals
	}
	h := in.hookCall(idx, "raised", locals, in.num(idx, id), &ast.Identifier{Name: param.Name, Idx: idx})
	cs.Body.List = append([]ast.Statement{h}, cs.Body.List...)
}

// raiseSite records a place where raised is called: a function's guard
// (caught false) or a catch clause (caught true).
func (in *instrumenter) raiseSite(idx file.Idx, caught bool) int {
	pos := in.prg.File.Position(int(idx) - in.prg.File.Base())
	id := len(in.d.raises)
	info := throwInfo{script: in.s, line: pos.Line - 1, col: pos.Column - 1, caught: caught, locals: in.visible()}
	if in.fn != nil {
		info.this, info.async = in.fn.this, in.fn.async
	}
	in.d.raises = append(in.d.raises, info)
	in.s.raises++
	return id
}

func (in *instrumenter) raiseLocals(id int) []local { return in.d.raises[id].locals }

func (in *instrumenter) num(idx file.Idx, n int) ast.Expression {
	return &ast.NumberLiteral{Idx: idx, Literal: strconv.Itoa(n), Value: int64(n)}
}

// throw rewrites `throw e` at the top level into
// `throw __jsworker_dbg.thrown(N, e)`, and in a function into
// `throw (t = e, thrown(N, t, [locals], this) && (a = back(0, a), …), t)`
// with t the function's var throwTempName, every position at the
// statement's first character, and records throw N. The hook pauses if it
// should (a Go call per throw, nothing per statement); e is evaluated once,
// before the hook; in a function, locals written while paused are stored
// back before the throw.
func (in *instrumenter) throw(ts *ast.ThrowStatement) {
	idx := ts.Throw
	pos := in.prg.File.Position(int(idx) - in.prg.File.Base())
	id := len(in.d.throws)
	info := throwInfo{script: in.s, line: pos.Line - 1, col: pos.Column - 1, caught: in.try > 0, locals: in.visible()}
	if in.fn != nil {
		info.this, info.async, info.inFn = in.fn.this, in.fn.async, true
	}
	in.d.throws = append(in.d.throws, info)
	in.s.throws++
	if in.fn == nil {
		ts.Argument = in.hookExpr(idx, "thrown", nil, in.num(idx, id), ts.Argument)
		return
	}
	in.fn.throwTemp = true
	temp := func() *ast.Identifier { return &ast.Identifier{Name: throwTempName, Idx: idx} }
	hook := in.writeBack(idx, in.hookExpr(idx, "thrown", info.locals, in.num(idx, id), temp()), info.locals)
	ts.Argument = &ast.SequenceExpression{Sequence: []ast.Expression{
		&ast.AssignExpression{Operator: token.ASSIGN, Left: temp(), Right: ts.Argument},
		hook,
		temp(),
	}}
}

// hook builds the statement hook `if (__jsworker_on) __jsworker_dbg.hit(N, …)`
// (`__jsworker_on && hit(N)` at the top level) for st, with every
// position at st's first character, and records statement N. Function
// declarations (hoisted) and empty statements get none. cached tells
// whether, inside a function, the hook may test the frame flag instead
// (frameflag.go).
func (in *instrumenter) hook(st ast.Statement, cached bool) ast.Statement {
	switch st.(type) {
	case *ast.FunctionDeclaration, *ast.EmptyStatement, *ast.BadStatement:
		return nil
	}
	if in.skip != nil && in.skip(st) {
		return nil
	}
	idx := st.Idx0()
	pos := in.prg.File.Position(int(idx) - in.prg.File.Base())
	id := len(in.d.stmts)
	_, isDebugger := st.(*ast.DebuggerStatement)
	info := stmtInfo{script: in.s, line: pos.Line - 1, col: pos.Column - 1, debugger: isDebugger, locals: in.visible()}
	if in.fn != nil {
		info.this, info.fn, info.async = in.fn.this, in.fn.id, in.fn.async
		info.await = info.async && containsAwait(st)
	}
	in.d.stmts = append(in.d.stmts, info)
	in.s.stmts = append(in.s.stmts, id)
	// In a function, `if (on) hit(N, [a, b], this) && (a = back(0, a), b = back(1, b));`:
	// with the hooks off it is one test and one popping jump (an `on && …`
	// expression statement is one more instruction, its pop); the
	// assignments store writes made while paused. At the top level, where
	// the completion value matters, `var __jsworker_v = on && hit(N)`.
	var e ast.Expression = in.hookExpr(idx, "hit", info.locals, in.num(idx, id))
	if in.fn != nil {
		e = in.writeBack(idx, e, info.locals)
		h := &ast.IfStatement{If: idx, Test: &ast.Identifier{Name: onName, Idx: idx}, Consequent: &ast.ExpressionStatement{Expression: e}}
		in.flagHook(h, cached)
		return h
	}
	flag := &ast.BinaryExpression{Operator: token.LOGICAL_AND, Left: &ast.Identifier{Name: onName, Idx: idx}, Right: e}
	h := in.hookStatement(idx, flag)
	if in.topHooks != nil {
		in.topHooks[h] = true
	}
	return h
}
