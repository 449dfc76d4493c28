package astwalk

import "github.com/dop251/goja/ast"

// Children calls f for each child of n in the order of n's fields (source
// order), skipping absent ones (nil fields, holes of array literals and
// patterns). Nodes held by value (the Identifier of a DotExpression or a
// PropertyShort, the LexicalDeclaration of a for loop's initializer) are
// given by their address in n. A *ast.VariableDeclaration has no children:
// its bindings are given where they are declared (see the package doc).
// A nil n, or a node type this package does not know, has none.
func Children(n ast.Node, f func(Child)) {
	e := emitter(f)
	switch n := n.(type) {
	// Expressions.
	case *ast.ArrayLiteral:
		if n != nil {
			e.exprs(n.Value)
		}
	case *ast.ArrayPattern:
		if n != nil {
			e.exprs(n.Elements)
			e.exprp(&n.Rest)
		}
	case *ast.AssignExpression:
		if n != nil {
			e.exprp(&n.Left)
			e.exprp(&n.Right)
		}
	case *ast.AwaitExpression:
		if n != nil {
			e.exprp(&n.Argument)
		}
	case *ast.BinaryExpression:
		if n != nil {
			e.exprp(&n.Left)
			e.exprp(&n.Right)
		}
	case *ast.Binding:
		if n != nil {
			e.expr(n.Target)
			e.exprp(&n.Initializer)
		}
	case *ast.BracketExpression:
		if n != nil {
			e.exprp(&n.Left)
			e.exprp(&n.Member)
		}
	case *ast.CallExpression:
		if n != nil {
			e.exprp(&n.Callee)
			e.exprs(n.ArgumentList)
		}
	case *ast.ClassLiteral:
		if n != nil {
			if n.Name != nil {
				e(Child{Node: n.Name})
			}
			e.exprp(&n.SuperClass)
			for _, el := range n.Body {
				if el != nil {
					e(Child{Node: el})
				}
			}
		}
	case *ast.ConditionalExpression:
		if n != nil {
			e.exprp(&n.Test)
			e.exprp(&n.Consequent)
			e.exprp(&n.Alternate)
		}
	case *ast.DotExpression:
		if n != nil {
			e.exprp(&n.Left)
			e(Child{Node: &n.Identifier})
		}
	case *ast.PrivateDotExpression:
		if n != nil {
			e.exprp(&n.Left)
			e(Child{Node: &n.Identifier})
		}
	case *ast.OptionalChain:
		if n != nil {
			e.exprp(&n.Expression)
		}
	case *ast.Optional:
		if n != nil {
			e.exprp(&n.Expression)
		}
	case *ast.FunctionLiteral:
		if n != nil {
			if n.Name != nil {
				e(Child{Node: n.Name})
			}
			if n.ParameterList != nil {
				e(Child{Node: n.ParameterList})
			}
			if n.Body != nil {
				e(Child{Node: n.Body})
			}
			e.decls(n.DeclarationList)
		}
	case *ast.ArrowFunctionLiteral:
		if n != nil {
			if n.ParameterList != nil {
				e(Child{Node: n.ParameterList})
			}
			if n.Body != nil {
				e(Child{Node: n.Body})
			}
			e.decls(n.DeclarationList)
		}
	case *ast.ExpressionBody:
		if n != nil {
			e.exprp(&n.Expression)
		}
	case *ast.PrivateIdentifier:
		if n != nil {
			e(Child{Node: &n.Identifier})
		}
	case *ast.MetaProperty:
		if n != nil {
			if n.Meta != nil {
				e(Child{Node: n.Meta})
			}
			if n.Property != nil {
				e(Child{Node: n.Property})
			}
		}
	case *ast.NewExpression:
		if n != nil {
			e.exprp(&n.Callee)
			e.exprs(n.ArgumentList)
		}
	case *ast.ObjectLiteral:
		if n != nil {
			e.props(n.Value)
		}
	case *ast.ObjectPattern:
		if n != nil {
			e.props(n.Properties)
			e.exprp(&n.Rest)
		}
	case *ast.ParameterList:
		if n != nil {
			e.bindings(n.List)
			e.exprp(&n.Rest)
		}
	case *ast.PropertyShort:
		if n != nil {
			e(Child{Node: &n.Name})
			e.exprp(&n.Initializer)
		}
	case *ast.PropertyKeyed:
		if n != nil {
			e.exprp(&n.Key)
			e.exprp(&n.Value)
		}
	case *ast.SpreadElement:
		if n != nil {
			e.exprp(&n.Expression)
		}
	case *ast.SequenceExpression:
		if n != nil {
			e.exprs(n.Sequence)
		}
	case *ast.TemplateLiteral:
		if n != nil {
			e.exprp(&n.Tag)
			for _, el := range n.Elements {
				if el != nil {
					e(Child{Node: el})
				}
			}
			e.exprs(n.Expressions)
		}
	case *ast.UnaryExpression:
		if n != nil {
			e.exprp(&n.Operand)
		}
	case *ast.YieldExpression:
		if n != nil {
			e.exprp(&n.Argument)
		}
	case *ast.BadExpression, *ast.BooleanLiteral, *ast.Identifier, *ast.NullLiteral, *ast.NumberLiteral,
		*ast.RegExpLiteral, *ast.StringLiteral, *ast.TemplateElement, *ast.ThisExpression, *ast.SuperExpression:
		// Leaves.

	// Statements.
	case *ast.BlockStatement:
		if n != nil {
			e(Child{List: &n.List})
		}
	case *ast.BranchStatement:
		if n != nil && n.Label != nil {
			e(Child{Node: n.Label})
		}
	case *ast.CaseStatement:
		if n != nil {
			e.exprp(&n.Test)
			e(Child{List: &n.Consequent})
		}
	case *ast.CatchStatement:
		if n != nil {
			e.expr(n.Parameter)
			if n.Body != nil {
				e(Child{Node: n.Body})
			}
		}
	case *ast.DoWhileStatement:
		if n != nil {
			e.exprp(&n.Test)
			e.slot(&n.Body)
		}
	case *ast.ExpressionStatement:
		if n != nil {
			e.exprp(&n.Expression)
		}
	case *ast.ForInStatement:
		if n != nil {
			if n.Into != nil {
				e(Child{Node: n.Into})
			}
			e.exprp(&n.Source)
			e.slot(&n.Body)
		}
	case *ast.ForOfStatement:
		if n != nil {
			if n.Into != nil {
				e(Child{Node: n.Into})
			}
			e.exprp(&n.Source)
			e.slot(&n.Body)
		}
	case *ast.ForStatement:
		if n != nil {
			if n.Initializer != nil {
				e(Child{Node: n.Initializer})
			}
			e.exprp(&n.Update)
			e.exprp(&n.Test)
			e.slot(&n.Body)
		}
	case *ast.IfStatement:
		if n != nil {
			e.exprp(&n.Test)
			e.slot(&n.Consequent)
			e.slot(&n.Alternate)
		}
	case *ast.LabelledStatement:
		if n != nil {
			if n.Label != nil {
				e(Child{Node: n.Label})
			}
			e.slot(&n.Statement)
		}
	case *ast.ReturnStatement:
		if n != nil {
			e.exprp(&n.Argument)
		}
	case *ast.SwitchStatement:
		if n != nil {
			e.exprp(&n.Discriminant)
			for _, c := range n.Body {
				if c != nil {
					e(Child{Node: c})
				}
			}
		}
	case *ast.ThrowStatement:
		if n != nil {
			e.exprp(&n.Argument)
		}
	case *ast.TryStatement:
		if n != nil {
			if n.Body != nil {
				e(Child{Node: n.Body})
			}
			if n.Catch != nil {
				e(Child{Node: n.Catch})
			}
			if n.Finally != nil {
				e(Child{Node: n.Finally})
			}
		}
	case *ast.VariableStatement:
		if n != nil {
			e.bindings(n.List)
		}
	case *ast.LexicalDeclaration:
		if n != nil {
			e.bindings(n.List)
		}
	case *ast.WhileStatement:
		if n != nil {
			e.exprp(&n.Test)
			e.slot(&n.Body)
		}
	case *ast.WithStatement:
		if n != nil {
			e.exprp(&n.Object)
			e.slot(&n.Body)
		}
	case *ast.FunctionDeclaration:
		if n != nil && n.Function != nil {
			e(Child{Node: n.Function})
		}
	case *ast.ClassDeclaration:
		if n != nil && n.Class != nil {
			e(Child{Node: n.Class})
		}
	case *ast.BadStatement, *ast.DebuggerStatement, *ast.EmptyStatement:
		// Leaves.

	// Declarations, class elements, loop heads, the program.
	case *ast.VariableDeclaration:
		// Its bindings are shared (see the package doc).
	case *ast.FieldDefinition:
		if n != nil {
			e.exprp(&n.Key)
			e.exprp(&n.Initializer)
		}
	case *ast.MethodDefinition:
		if n != nil {
			e.exprp(&n.Key)
			if n.Body != nil {
				e(Child{Node: n.Body})
			}
		}
	case *ast.ClassStaticBlock:
		if n != nil {
			if n.Block != nil {
				e(Child{Node: n.Block})
			}
			e.decls(n.DeclarationList)
		}
	case *ast.ForLoopInitializerExpression:
		if n != nil {
			e.exprp(&n.Expression)
		}
	case *ast.ForLoopInitializerVarDeclList:
		if n != nil {
			e.bindings(n.List)
		}
	case *ast.ForLoopInitializerLexicalDecl:
		if n != nil {
			e(Child{Node: &n.LexicalDeclaration})
		}
	case *ast.ForIntoVar:
		if n != nil && n.Binding != nil {
			e(Child{Node: n.Binding})
		}
	case *ast.ForDeclaration:
		if n != nil {
			e.expr(n.Target)
		}
	case *ast.ForIntoExpression:
		if n != nil {
			e.exprp(&n.Expression)
		}
	case *ast.Program:
		if n != nil {
			e(Child{List: &n.Body})
			e.decls(n.DeclarationList)
		}
	}
}

// An emitter passes children to a Children callback, skipping absent ones.
type emitter func(Child)

// expr emits x unless it is nil. An interface holding a nil pointer is not
// produced by goja's parser and is emitted as it is.
func (e emitter) expr(x ast.Expression) {
	if x != nil {
		e(Child{Node: x})
	}
}

// exprp emits the expression held in *p, with p to replace it.
func (e emitter) exprp(p *ast.Expression) {
	if *p != nil {
		e(Child{Node: *p, Expr: p})
	}
}

func (e emitter) exprs(xs []ast.Expression) {
	for i := range xs {
		e.exprp(&xs[i])
	}
}

func (e emitter) props(ps []ast.Property) {
	for _, p := range ps {
		if p != nil {
			e(Child{Node: p})
		}
	}
}

func (e emitter) bindings(bs []*ast.Binding) {
	for _, b := range bs {
		if b != nil {
			e(Child{Node: b})
		}
	}
}

func (e emitter) decls(ds []*ast.VariableDeclaration) {
	for _, d := range ds {
		if d != nil {
			e(Child{Node: d})
		}
	}
}

// slot emits the single statement held in *p, with p to replace it.
func (e emitter) slot(p *ast.Statement) {
	if *p != nil {
		e(Child{Node: *p, Slot: p})
	}
}
