// Package astwalk is the one walker over goja's AST (github.com/dop251/goja/ast),
// which has no visitor of its own. The debugger's instrumentation
// (inspector) and the module compiler's position rewriting (modules) both
// walk with it.
//
// Every node type is handled by an exhaustive type switch with typed field
// access, so a field goja renames or retypes is a compile error here, not a
// run-time panic or a silently skipped subtree. A node type goja adds is
// caught by this package's tests, which list goja/ast's struct types from
// its source and check that a corpus reaching every one of them is walked
// completely (every node a reflective walk finds, each once).
//
// # Shared nodes
//
// goja's parser records every var declaration twice: once where it appears
// (a var statement, a for loop's initializer or for-in/of head), and once in
// the DeclarationList of its function, class static block or program, as an
// *ast.VariableDeclaration sharing the same *ast.Binding values. Children
// gives the VariableDeclaration nodes but not their bindings, so that a walk
// reaches every node exactly once, in source order, without a visited set.
package astwalk

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
)

// A Child is one child of a node, as Children gives it.
type Child struct {
	// Node is the child, never a nil pointer. It is nil when List is set.
	Node ast.Node
	// List, when not nil, is a statement list field of the parent
	// (ast.Program.Body, ast.BlockStatement.List, ast.CaseStatement.
	// Consequent): its statements are children of the parent, given
	// together so that a walker may replace the list. Storing through List
	// replaces it.
	List *[]ast.Statement
	// Slot, when not nil, is the parent's field holding Node when that
	// field holds a single statement (the body of a loop or with, the
	// branches of an if, the statement of a label). Storing through Slot
	// replaces the statement.
	Slot *ast.Statement
	// Expr, when not nil, is the parent's field (or list element) of interface type ast.Expression holding Node;
	// storing through Expr replaces the expression. Children whose field has a concrete type (an *ast.Identifier
	// name, say) have none.
	Expr *ast.Expression
}

// Inspect walks the tree under n depth first, in source order: it calls f
// for n, then, if f returned true, inspects each of n's children (every
// statement of a List in turn). A nil n is not visited.
func Inspect(n ast.Node, f func(ast.Node) bool) {
	if n == nil || !f(n) {
		return
	}
	Children(n, func(c Child) {
		if c.List != nil {
			for _, st := range *c.List {
				Inspect(st, f)
			}
			return
		}
		Inspect(c.Node, f)
	})
}

// Positions calls f with the address of each file.Idx field of n itself,
// not those of its children (a DotExpression's Identifier, held by value,
// is a child with positions of its own). f may store through the pointer.
func Positions(n ast.Node, f func(*file.Idx)) {
	switch n := n.(type) {
	case *ast.ArrayLiteral:
		if n != nil {
			f(&n.LeftBracket)
			f(&n.RightBracket)
		}
	case *ast.ArrayPattern:
		if n != nil {
			f(&n.LeftBracket)
			f(&n.RightBracket)
		}
	case *ast.AwaitExpression:
		if n != nil {
			f(&n.Await)
		}
	case *ast.BadExpression:
		if n != nil {
			f(&n.From)
			f(&n.To)
		}
	case *ast.BooleanLiteral:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.BracketExpression:
		if n != nil {
			f(&n.LeftBracket)
			f(&n.RightBracket)
		}
	case *ast.CallExpression:
		if n != nil {
			f(&n.LeftParenthesis)
			f(&n.RightParenthesis)
		}
	case *ast.ClassLiteral:
		if n != nil {
			f(&n.Class)
			f(&n.RightBrace)
		}
	case *ast.ArrowFunctionLiteral:
		if n != nil {
			f(&n.Start)
		}
	case *ast.FunctionLiteral:
		if n != nil {
			f(&n.Function)
		}
	case *ast.Identifier:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.MetaProperty:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.NewExpression:
		if n != nil {
			f(&n.New)
			f(&n.LeftParenthesis)
			f(&n.RightParenthesis)
		}
	case *ast.NullLiteral:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.NumberLiteral:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.ObjectLiteral:
		if n != nil {
			f(&n.LeftBrace)
			f(&n.RightBrace)
		}
	case *ast.ObjectPattern:
		if n != nil {
			f(&n.LeftBrace)
			f(&n.RightBrace)
		}
	case *ast.ParameterList:
		if n != nil {
			f(&n.Opening)
			f(&n.Closing)
		}
	case *ast.RegExpLiteral:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.StringLiteral:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.TemplateElement:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.TemplateLiteral:
		if n != nil {
			f(&n.OpenQuote)
			f(&n.CloseQuote)
		}
	case *ast.ThisExpression:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.SuperExpression:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.UnaryExpression:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.YieldExpression:
		if n != nil {
			f(&n.Yield)
		}

	case *ast.BadStatement:
		if n != nil {
			f(&n.From)
			f(&n.To)
		}
	case *ast.BlockStatement:
		if n != nil {
			f(&n.LeftBrace)
			f(&n.RightBrace)
		}
	case *ast.BranchStatement:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.CaseStatement:
		if n != nil {
			f(&n.Case)
		}
	case *ast.CatchStatement:
		if n != nil {
			f(&n.Catch)
		}
	case *ast.DebuggerStatement:
		if n != nil {
			f(&n.Debugger)
		}
	case *ast.DoWhileStatement:
		if n != nil {
			f(&n.Do)
			f(&n.RightParenthesis)
		}
	case *ast.EmptyStatement:
		if n != nil {
			f(&n.Semicolon)
		}
	case *ast.ForInStatement:
		if n != nil {
			f(&n.For)
		}
	case *ast.ForOfStatement:
		if n != nil {
			f(&n.For)
		}
	case *ast.ForStatement:
		if n != nil {
			f(&n.For)
		}
	case *ast.IfStatement:
		if n != nil {
			f(&n.If)
		}
	case *ast.LabelledStatement:
		if n != nil {
			f(&n.Colon)
		}
	case *ast.ReturnStatement:
		if n != nil {
			f(&n.Return)
		}
	case *ast.SwitchStatement:
		if n != nil {
			f(&n.Switch)
			f(&n.RightBrace)
		}
	case *ast.ThrowStatement:
		if n != nil {
			f(&n.Throw)
		}
	case *ast.TryStatement:
		if n != nil {
			f(&n.Try)
		}
	case *ast.VariableStatement:
		if n != nil {
			f(&n.Var)
		}
	case *ast.LexicalDeclaration:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.WhileStatement:
		if n != nil {
			f(&n.While)
		}
	case *ast.WithStatement:
		if n != nil {
			f(&n.With)
		}

	case *ast.VariableDeclaration:
		if n != nil {
			f(&n.Var)
		}
	case *ast.FieldDefinition:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.MethodDefinition:
		if n != nil {
			f(&n.Idx)
		}
	case *ast.ClassStaticBlock:
		if n != nil {
			f(&n.Static)
		}
	case *ast.ForLoopInitializerVarDeclList:
		if n != nil {
			f(&n.Var)
		}
	case *ast.ForDeclaration:
		if n != nil {
			f(&n.Idx)
		}

	// Nodes without positions of their own, listed so that the switch
	// names every node type (see known).
	case *ast.AssignExpression, *ast.BinaryExpression, *ast.ConditionalExpression, *ast.DotExpression,
		*ast.PrivateDotExpression, *ast.OptionalChain, *ast.Optional, *ast.ExpressionBody,
		*ast.PrivateIdentifier, *ast.PropertyShort, *ast.PropertyKeyed, *ast.SpreadElement,
		*ast.SequenceExpression, *ast.Binding, *ast.ExpressionStatement, *ast.FunctionDeclaration,
		*ast.ClassDeclaration, *ast.ForLoopInitializerExpression, *ast.ForLoopInitializerLexicalDecl,
		*ast.ForIntoVar, *ast.ForIntoExpression, *ast.Program:
	}
}
