// The walk over a script's AST that places the hooks: statement lists,
// single-statement bodies, and the per-function state (try depth, scopes).

package inspector

import (
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/token"
	"github.com/jsworker/jsworker/internal/astwalk"
)

type instrumenter struct {
	d       *Debugger
	s       *script
	prg     *ast.Program
	try     int      // enclosing try blocks with a catch clause, within the current function
	fn      *fnScope // nil at the top level of the script
	derived bool     // inside a class with an extends clause
	ctor    bool     // the next function is the constructor of a derived class (no `this` before super())
	hoisted bool     // the next function is a function declaration (it may run before its enclosing lets)
	clean   bool     // inside a call-free statement entered with a valid frame flag: hooks may be cached (frameflag.go)

	topHooks map[ast.Statement]bool    // the statement hooks outside any function, for guardTop
	twins    map[twinKey]ast.Statement // the loops of a second parse of the source, by span (twin.go); nil until needed

	// skip is nil, or reports the statements that get no hook: code a
	// module transform generated (modules.go).
	skip func(ast.Statement) bool
}

// walk descends through every node under n (astwalk gives each once),
// instruments every statement list and wraps every single-statement body
// (if, loops, with) into a block holding its hook. The statement of a label
// is left alone: its hook goes before the label, and a block in between
// would break `continue label`. Expression bodies of arrow functions become
// blocks with a hook (concise); function bodies get a guard.
func (in *instrumenter) walk(n ast.Node) {
	switch n.(type) {
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral, *ast.ClassStaticBlock:
		// A try outside does not catch in here.
		saved, savedFn, savedClean := in.try, in.fn, in.clean
		in.try, in.clean = 0, false
		if _, ok := n.(*ast.ClassLiteral); !ok {
			in.fn = in.enter(n)
		}
		defer func() { in.try, in.fn, in.clean = saved, savedFn, savedClean }()
	}
	_, labelled := n.(*ast.LabelledStatement)
	var tryBody, params ast.Node // the children walked with in.try or in.fn.inParams set
	switch n := n.(type) {
	case *ast.ClassLiteral:
		defer func(saved bool) { in.derived = saved }(in.derived)
		in.derived = n.SuperClass != nil
	case *ast.FunctionDeclaration:
		in.hoisted = true
	case *ast.MethodDefinition:
		if in.derived && !n.Static && n.Kind == ast.PropertyKindMethod && propName(n.Key) == "constructor" {
			in.ctor = true
		}
	case *ast.ForStatement:
		if ld, ok := n.Initializer.(*ast.ForLoopInitializerLexicalDecl); ok {
			defer in.push(bindingNames(nil, ld.LexicalDeclaration.Token == token.CONST, ld.LexicalDeclaration.List))()
		}
	case *ast.ForInStatement:
		defer in.push(forDeclared(n.Into))()
	case *ast.ForOfStatement:
		defer in.push(forDeclared(n.Into))()
	case *ast.CatchStatement:
		if id, ok := n.Parameter.(*ast.Identifier); ok {
			defer in.push([]local{{name: string(id.Name)}})()
		}
	case *ast.TryStatement:
		if n.Catch != nil && n.Body != nil {
			tryBody = n.Body
		}
	case *ast.FunctionLiteral:
		if n.ParameterList != nil {
			params = n.ParameterList
		}
	case *ast.ArrowFunctionLiteral:
		if n.ParameterList != nil {
			params = n.ParameterList
		}
	}
	astwalk.Children(n, func(c astwalk.Child) {
		switch {
		case c.List != nil:
			*c.List = in.list(*c.List)
			return
		case tryBody != nil && c.Node == tryBody:
			in.try++
			in.walk(c.Node)
			in.try--
		case params != nil && c.Node == params && in.fn != nil:
			in.fn.inParams = true
			in.walk(c.Node)
			in.fn.inParams = false
		default:
			in.walk(c.Node)
		}
		if c.Slot != nil && !labelled {
			if _, block := (*c.Slot).(*ast.BlockStatement); !block {
				st := *c.Slot
				if h := in.hook(st, in.clean); h != nil {
					*c.Slot = &ast.BlockStatement{LeftBrace: st.Idx0(), List: []ast.Statement{h, st}, RightBrace: st.Idx0()}
				}
			}
		}
	})
	switch n := n.(type) {
	case *ast.ThrowStatement:
		if in.skip == nil || !in.skip(n) {
			in.throw(n)
		}
	case *ast.FunctionLiteral:
		in.guard(n.Body, n.ParameterList)
		finishFunction(in.fn, &n.DeclarationList, n)
	case *ast.ArrowFunctionLiteral:
		if body, ok := n.Body.(*ast.BlockStatement); ok {
			in.guard(body, n.ParameterList)
		} else if eb, ok := n.Body.(*ast.ExpressionBody); ok && eb.Expression != nil {
			in.concise(n, eb.Expression)
		}
		finishFunction(in.fn, &n.DeclarationList, n)
	case *ast.ClassStaticBlock:
		finishFunction(in.fn, &n.DeclarationList, n)
	case *ast.CatchStatement:
		in.catchHook(n)
	}
}

// forDeclared returns the name a for-in/of head declares, when it is a let
// or const of a simple identifier.
func forDeclared(into ast.ForInto) []local {
	if fd, ok := into.(*ast.ForDeclaration); ok {
		if id, ok := fd.Target.(*ast.Identifier); ok {
			return []local{{name: string(id.Name), konst: fd.IsConst}}
		}
	}
	return nil
}

// list walks stmts and returns them with a hook before each statement that
// gets one. The leading directives ("use strict") stay first. A let, const
// or class declaration makes its names visible to the hooks after it. The
// hooks of a function's statements test its frame flag where it is valid
// (frameflag.go): dirty is true where a call may have run since the last
// refreshing hook, as at the start of a list outside a call-free statement.
// A call-free loop entered with a valid flag also gets a plain copy for
// when the flag is false (twin.go).
func (in *instrumenter) list(stmts []ast.Statement) []ast.Statement {
	out := make([]ast.Statement, 0, 2*len(stmts))
	prologue := true
	dirty := !in.clean
	kind := scopeLocal
	if in.fn != nil {
		n := len(in.fn.names)
		in.fn.lists++
		if in.fn.lists > 1 {
			kind = scopeBlock
		}
		defer func(fs *fnScope) { fs.names, fs.lists = fs.names[:n], fs.lists-1 }(in.fn)
	}
	for _, st := range stmts {
		if prologue {
			if es, ok := st.(*ast.ExpressionStatement); ok {
				if _, ok := es.Expression.(*ast.StringLiteral); ok {
					out = append(out, st)
					continue
				}
			}
			prologue = false
		}
		cached := in.clean || !dirty
		h := in.hook(st, cached)
		if h != nil {
			out = append(out, h)
			dirty = false
		}
		free := in.fn != nil && callFree(st)
		if free && !dirty && !in.clean {
			var plain ast.Statement // the loop's plain copy (twin.go)
			if h != nil && in.twinnable(st) {
				plain = in.twin(st, st.Idx0(), st.Idx1())
			}
			in.clean = true
			in.walk(st)
			in.clean = false
			st = in.withTwin(st, plain)
		} else {
			in.walk(st)
		}
		dirty = dirty || !free
		out = append(out, st)
		if in.fn != nil {
			switch d := st.(type) {
			case *ast.LexicalDeclaration:
				n := len(in.fn.names)
				in.fn.names = bindingNames(in.fn.names, d.Token == token.CONST, d.List)
				for i := n; i < len(in.fn.names); i++ {
					in.fn.names[i].scope = kind
				}
			case *ast.ClassDeclaration:
				if d.Class.Name != nil {
					in.fn.names = append(in.fn.names, local{name: string(d.Class.Name.Name), konst: true, scope: kind})
				}
			}
		}
	}
	return out
}

// propName is the name of a non-computed property key, or "".
func propName(e ast.Expression) string {
	switch k := e.(type) {
	case *ast.Identifier:
		return string(k.Name)
	case *ast.StringLiteral:
		return string(k.Value)
	}
	return ""
}
