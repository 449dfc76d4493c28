package depthguard

import (
	"strconv"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/jsworker/jsworker/internal/astwalk"
)

// AsyncFunction and GeneratorFunction compile source like the Function constructor, so they are guarded (function.go),
// but goja makes each, with its prototype, only when a realm makes its first async function or generator (~8.6 KiB a
// realm for both). They are no globals: JavaScript reaches them only through the prototype chain of an async function,
// a generator function or a generator object, and such an object exists only once code that contains an async
// function or a generator has run. So, where gojainternal can see that goja has not made them yet, Install leaves
// them to ensure, which guards them in place, once, before the first such code runs:
//
//   - Rewrite inserts, at the start of a program that contains an async function or a generator anywhere (after
//     its directive prologue, with the body's first position), a call of the guard with one argument,
//     `var {} = guard(0)`, distinct from the depth check (no argument) and the eval check (two); a declaration,
//     it keeps the program's completion value. Function declarations are
//     instantiated before it, but no code runs in between. This covers every rewritten program: scripts, modules'
//     wrappers, the inspector's instrumented code and the Function constructors' source.
//   - The eval check (eval.go), which parses every text the realm's eval is given, ensures when the text contains
//     an async function, a generator or a call spelled eval(…) (a direct eval inside eval code is goja's, unchecked),
//     or when our parse refused it (goja's may accept it in context: new.target, super).
//   - Go code that runs unrewritten source which contains either (the library's own sources, jsutil.Source) calls
//     EnsureFunctionKinds first.

// ensureArg is the one argument of the call Rewrite inserts at the start of a program (see the top of this file).
const ensureArg = 0

// makesFunctionKinds reports whether n is a function literal that makes an async function or a generator.
func makesFunctionKinds(n ast.Node) bool {
	switch fn := n.(type) {
	case *ast.FunctionLiteral:
		return fn.Async || fn.Generator
	case *ast.ArrowFunctionLiteral:
		return fn.Async
	}
	return false
}

// MakesFunctionKinds reports whether prg contains, anywhere, an async function or a generator of any form
// (declarations, expressions, arrows, methods): whether running it may make AsyncFunction or GeneratorFunction.
// Code that compiles such a program without Rewrite calls EnsureFunctionKinds before running it.
func MakesFunctionKinds(prg *ast.Program) bool { return findNode(prg, makesFunctionKinds) }

// evalMakesFunctionKinds is MakesFunctionKinds for eval text, which also counts a call spelled eval(…): the eval
// code goja compiles itself may hold a direct eval, whose text no check sees.
func evalMakesFunctionKinds(prg *ast.Program) bool {
	return findNode(prg, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpression)
		return ok && isEvalCall(call) || makesFunctionKinds(n)
	})
}

// findNode reports whether match holds for a node of the tree at root. It walks with an explicit stack, as Rewrite
// does, so that a deeply nested program cannot overflow the Go stack here.
func findNode(root ast.Node, match func(ast.Node) bool) bool {
	stack := []ast.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if match(n) {
			return true
		}
		astwalk.Children(n, func(c astwalk.Child) {
			if c.List != nil {
				for _, st := range *c.List {
					stack = append(stack, st)
				}
				return
			}
			stack = append(stack, c.Node)
		})
	}
	return false
}

// ensureCall is the statement `var {} = guard(0)`, every position at at: a declaration, so that it leaves the
// program's completion value alone (a script of a directive and declarations completes with the directive's
// string), binding nothing. The guard answers the call with the global object, which the empty pattern reads
// nothing from.
func ensureCall(at file.Idx) ast.Statement {
	call := guardCall(at)
	call.ArgumentList = []ast.Expression{&ast.NumberLiteral{Idx: at, Literal: strconv.Itoa(ensureArg), Value: int64(ensureArg)}}
	return &ast.VariableStatement{Var: at, List: []*ast.Binding{{
		Target:      &ast.ObjectPattern{LeftBrace: at, RightBrace: at},
		Initializer: call,
	}}}
}

// isEnsure reports whether st is the statement ensureCall makes.
func isEnsure(st ast.Statement) bool {
	vs, ok := st.(*ast.VariableStatement)
	if !ok || len(vs.List) != 1 {
		return false
	}
	if p, ok := vs.List[0].Target.(*ast.ObjectPattern); !ok || len(p.Properties) != 0 || p.Rest != nil {
		return false
	}
	call, ok := vs.List[0].Initializer.(*ast.CallExpression)
	if !ok || len(call.ArgumentList) != 1 {
		return false
	}
	id, ok := call.Callee.(*ast.Identifier)
	return ok && id.Name == GuardName
}

// insertEnsure puts ensureCall at the start of prg, after its directive prologue, unless it is there already.
func insertEnsure(prg *ast.Program) {
	n := 0
	for n < len(prg.Body) && isDirective(prg.Body[n]) {
		n++
	}
	if n < len(prg.Body) && isEnsure(prg.Body[n]) {
		return
	}
	at := file.Idx(1)
	if n < len(prg.Body) {
		at = prg.Body[n].Idx0()
	} else if n > 0 {
		at = prg.Body[n-1].Idx0()
	}
	list := make([]ast.Statement, 0, len(prg.Body)+1)
	list = append(list, prg.Body[:n]...)
	list = append(list, ensureCall(at))
	prg.Body = append(list, prg.Body[n:]...)
}

// EnsureFunctionKinds guards rt's AsyncFunction and GeneratorFunction now if its guard left them for later (see the
// top of this file), for Go code about to run, in rt, a program compiled without Rewrite that contains an async
// function or a generator (MakesFunctionKinds). It does nothing in a realm without the guard or where they are
// guarded already. It runs on the realm's goroutine.
func EnsureFunctionKinds(rt *goja.Runtime) error {
	h := hiddenPrograms()
	if h.err != nil {
		return h.err
	}
	_, err := rt.RunProgram(h.ensure)
	return err
}
