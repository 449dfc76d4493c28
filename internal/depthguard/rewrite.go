package depthguard

import (
	"fmt"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
	"github.com/jsworker/jsworker/internal/astwalk"
)

// Compile is goja.Compile with every function guarded: it parses src as a
// script named name, rewrites it and compiles it (strict for strict mode
// code). A syntax error is returned as goja.Compile returns it (a
// *goja.CompilerSyntaxError).
func Compile(name, src string, strict bool) (*goja.Program, error) {
	prg, err := Parse(name, src, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, err
	}
	Rewrite(prg)
	return goja.CompileAST(prg, strict)
}

// CompileUnguarded is goja.Compile with goja's parser panic returned as a syntax error (Parse) and the break and
// continue statements goja would miscompile in dead code fixed (FixDeadJumps), but no guard: for a realm without
// one, and for the paths that compile a text only to see whether it compiles.
func CompileUnguarded(name, src string, strict bool) (*goja.Program, error) {
	prg, err := Parse(name, src)
	if err != nil {
		return nil, err
	}
	FixDeadJumps(prg)
	return goja.CompileAST(prg, strict)
}

// parserFailed is in the message of the error Parse returns when goja's parser panicked.
const parserFailed = "the parser failed"

// Parse is goja.Parse, with a panic of goja's parser (it has one on some malformed input, found by
// inspector.FuzzInstrument: an index out of range in checkComma) returned as a *goja.CompilerSyntaxError, and a text
// nested deeper than MaxNesting refused before it reaches the parser (CheckNesting; IsTooDeep tells the error).
func Parse(name, src string, opts ...parser.Option) (prg *ast.Program, err error) {
	if err := CheckNesting(name, src); err != nil {
		return nil, err
	}
	defer func() {
		if x := recover(); x != nil {
			prg, err = nil, &goja.CompilerSyntaxError{CompilerError: goja.CompilerError{
				Message: fmt.Sprintf("%s: %s: %v", name, parserFailed, x)}}
		}
	}()
	return goja.Parse(name, src, opts...)
}

// Rewrite splices the guard call into the body of every function of prg:
// declarations, expressions, arrows, methods, accessors, constructors,
// generators and async functions; it inserts, at the start of a program that contains an async function or a
// generator, the call that guards AsyncFunction and GeneratorFunction before it runs (ensure.go); it has every call spelled `eval(…)`
// check its text first (eval.go); and it keeps goja from compiling a break or
// continue in code it knows is dead, which goja miscompiles (deadcode.go); and it gives the expressions goja
// throws for without recording a source position one of their own (positions.go). It walks the tree (internal/astwalk) with an
// explicit stack, so a deeply nested program cannot overflow the Go stack here;
// rewriting the same program twice guards each function and eval call once, and a function
// whose first statement already calls the guard in one of the forms of Call
// keeps that call as its only one.
func Rewrite(prg *ast.Program) { rewrite(prg, true) }

// FixDeadJumps is the part of Rewrite that keeps goja from miscompiling a break or continue in code it knows is
// dead (deadcode.go), and that gives unpositioned throws a position (positions.go), without the guard: for text compiled for a realm that has none, or compiled only to learn
// whether it compiles (goja's compiler panics on some of that code).
func FixDeadJumps(prg *ast.Program) { rewrite(prg, false) }

func rewrite(prg *ast.Program, guard bool) {
	kinds := false // an async function or a generator seen (ensure.go)
	stack := []ast.Node{prg}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kinds = kinds || makesFunctionKinds(n)
		switch fn := n.(type) {
		case *ast.FunctionLiteral:
			if guard {
				guardFunction(fn)
			}
		case *ast.ArrowFunctionLiteral:
			if guard {
				guardArrow(fn)
			}
		case *ast.CallExpression:
			if guard && isEvalCall(fn) {
				guardEvalCall(fn) // eval.go
			}
		case *ast.IfStatement, *ast.WhileStatement, *ast.ForStatement:
			unfoldTest(n) // deadcode.go
		case *ast.Binding, *ast.AssignExpression, *ast.ForOfStatement, *ast.WithStatement, *ast.TemplateLiteral:
			if prg.File != nil {
				positionConsumed(n, prg.File) // positions.go
			}
		}
		astwalk.Children(n, func(c astwalk.Child) {
			if c.List != nil {
				dropDeadJumps(*c.List) // deadcode.go
				for _, st := range *c.List {
					stack = append(stack, st)
				}
				return
			}
			if c.Expr != nil && prg.File != nil && isOperator(c.Node) && !isOperator(n) {
				positionFolds(c.Expr, prg.File) // positions.go
				stack = append(stack, *c.Expr)
				return
			}
			stack = append(stack, c.Node)
		})
	}
	if guard && kinds {
		insertEnsure(prg) // AsyncFunction and GeneratorFunction guarded before the program runs (ensure.go)
	}
}

// guardCall is the expression `__jsworker_depth()`, every position at at.
func guardCall(at file.Idx) *ast.CallExpression {
	return &ast.CallExpression{
		Callee:           &ast.Identifier{Name: GuardName, Idx: at},
		LeftParenthesis:  at,
		RightParenthesis: at,
	}
}

// isGuard reports whether st, a function's first statement after its
// directive prologue, calls the guard before anything else runs: the call
// this package inserts, `guard()`, or one of the forms code that uses the
// guard's value places itself (Call): `x = guard()` as an expression
// statement, and either form as the test of an if statement.
func isGuard(st ast.Statement) bool {
	switch st := st.(type) {
	case *ast.ExpressionStatement:
		return isGuardValue(st.Expression)
	case *ast.IfStatement:
		return isGuardValue(st.Test)
	}
	return false
}

// isGuardValue reports whether e is `guard()` or `x = guard()`, x an
// identifier.
func isGuardValue(e ast.Expression) bool {
	if a, ok := e.(*ast.AssignExpression); ok {
		_, id := a.Left.(*ast.Identifier)
		return id && a.Operator == token.ASSIGN && isGuardExpr(a.Right)
	}
	return isGuardExpr(e)
}

func isGuardExpr(e ast.Expression) bool {
	call, ok := e.(*ast.CallExpression)
	if !ok || len(call.ArgumentList) != 0 {
		return false
	}
	id, ok := call.Callee.(*ast.Identifier)
	return ok && id.Name == GuardName
}

// guardFunction inserts the guard after fn's directive prologue ("use
// strict" must stay first to keep its meaning), unless the first statement
// there already calls it (isGuard).
func guardFunction(fn *ast.FunctionLiteral) {
	body := fn.Body
	if body == nil {
		return
	}
	n := 0
	for n < len(body.List) && isDirective(body.List[n]) {
		n++
	}
	if n < len(body.List) && isGuard(body.List[n]) {
		return
	}
	st := &ast.ExpressionStatement{Expression: guardCall(body.LeftBrace)}
	list := make([]ast.Statement, 0, len(body.List)+1)
	list = append(list, body.List[:n]...)
	list = append(list, st)
	body.List = append(list, body.List[n:]...)
}

// guardArrow guards an arrow function: a block body as a function's, an
// expression body e becomes (guard(), e).
func guardArrow(fn *ast.ArrowFunctionLiteral) {
	switch body := fn.Body.(type) {
	case *ast.BlockStatement:
		guardFunction(&ast.FunctionLiteral{Body: body})
	case *ast.ExpressionBody:
		if seq, ok := body.Expression.(*ast.SequenceExpression); ok && len(seq.Sequence) > 0 && isGuardExpr(seq.Sequence[0]) {
			return
		}
		body.Expression = &ast.SequenceExpression{Sequence: []ast.Expression{guardCall(fn.Start), body.Expression}}
	}
}

// isDirective reports whether st is a string-literal expression statement:
// part of a directive prologue when it comes first.
func isDirective(st ast.Statement) bool {
	es, ok := st.(*ast.ExpressionStatement)
	if !ok {
		return false
	}
	_, ok = es.Expression.(*ast.StringLiteral)
	return ok
}
