// The walk over a script's AST that places the hooks: statement lists,
// single-statement bodies, and the per-function state (try depth, scopes).

package inspector

import (
	"reflect"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
)

type instrumenter struct {
	d       *Debugger
	s       *script
	prg     *ast.Program
	seen    map[seenKey]bool
	try     int      // enclosing try blocks with a catch clause, within the current function
	fn      *fnScope // nil at the top level of the script
	derived bool     // inside a class with an extends clause
	ctor    bool     // the next function is the constructor of a derived class (no `this` before super())
	hoisted bool     // the next function is a function declaration (it may run before its enclosing lets)

	// skip is nil, or reports the statements that get no hook: code a
	// module transform generated (modules.go).
	skip func(ast.Statement) bool
}

// seenKey identifies a visited node: a pointer and its type, since a
// struct and its first field share an address.
type seenKey struct {
	t reflect.Type
	p uintptr
}

var (
	typeStmt      = reflect.TypeFor[ast.Statement]()
	typeStmtList  = reflect.TypeFor[[]ast.Statement]()
	typeLabelled  = reflect.TypeFor[ast.LabelledStatement]()
	typeFile      = reflect.TypeFor[*file.File]()
	typeStmtBlock = reflect.TypeFor[*ast.BlockStatement]()
	typeThrow     = reflect.TypeFor[ast.ThrowStatement]()
	typeTry       = reflect.TypeFor[ast.TryStatement]()
	typeFunc      = reflect.TypeFor[ast.FunctionLiteral]()
	typeArrow     = reflect.TypeFor[ast.ArrowFunctionLiteral]()
	typeClass     = reflect.TypeFor[ast.ClassLiteral]()
	typeStatic    = reflect.TypeFor[ast.ClassStaticBlock]()
	typeMethod    = reflect.TypeFor[ast.MethodDefinition]()
	typeFor       = reflect.TypeFor[ast.ForStatement]()
	typeForIn     = reflect.TypeFor[ast.ForInStatement]()
	typeForOf     = reflect.TypeFor[ast.ForOfStatement]()
	typeCatch     = reflect.TypeFor[ast.CatchStatement]()
	typeFuncDecl  = reflect.TypeFor[ast.FunctionDeclaration]()
	typeIdent     = reflect.TypeFor[ast.Identifier]()
	typeBinding   = reflect.TypeFor[ast.Binding]()
	typeParams    = reflect.TypeFor[ast.ParameterList]()
	typeForDecl   = reflect.TypeFor[ast.ForDeclaration]()
)

// walk descends through every exported field of the AST (goja's ast package
// has no visitor), instruments every statement list and wraps every
// single-statement body (if, loops, with) into a block holding its hook. The
// statement of a label is left alone: its hook goes before the label, and a
// block in between would break `continue label`. Expression bodies of arrow
// functions become blocks with a hook (concise); function bodies get a guard.
func (in *instrumenter) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == typeFile {
			return
		}
		k := seenKey{v.Type(), v.Pointer()}
		if in.seen[k] {
			return
		}
		in.seen[k] = true
		in.walk(v.Elem())
	case reflect.Interface:
		if !v.IsNil() {
			in.walk(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			in.walk(v.Index(i))
		}
	case reflect.Struct:
		t := v.Type()
		if t == typeFunc || t == typeArrow || t == typeClass || t == typeStatic { // a try outside does not catch in here
			saved, savedFn := in.try, in.fn
			in.try = 0
			if t != typeClass {
				in.fn = in.enter(v)
			}
			defer func() { in.try, in.fn = saved, savedFn }()
		}
		switch t {
		case typeClass:
			derived := !v.FieldByName("SuperClass").IsNil()
			defer func(saved bool) { in.derived = saved }(in.derived)
			in.derived = derived
		case typeFuncDecl:
			in.hoisted = true
		case typeMethod:
			md := v.Addr().Interface().(*ast.MethodDefinition)
			if in.derived && !md.Static && md.Kind == ast.PropertyKindMethod && propName(md.Key) == "constructor" {
				in.ctor = true
			}
		case typeFor:
			if ld, ok := v.Addr().Interface().(*ast.ForStatement).Initializer.(*ast.ForLoopInitializerLexicalDecl); ok {
				defer in.push(bindingNames(nil, ld.LexicalDeclaration.Token == token.CONST, ld.LexicalDeclaration.List))()
			}
		case typeForIn, typeForOf:
			if fd, ok := v.FieldByName("Into").Interface().(*ast.ForDeclaration); ok {
				if id, ok := fd.Target.(*ast.Identifier); ok {
					defer in.push([]local{{name: string(id.Name), konst: fd.IsConst}})()
				}
			}
		case typeCatch:
			if id, ok := v.Addr().Interface().(*ast.CatchStatement).Parameter.(*ast.Identifier); ok {
				defer in.push([]local{{name: string(id.Name)}})()
			}
		}
		for i := range v.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			f := v.Field(i)
			if f.Type() == typeStmtList && f.CanSet() {
				f.Set(reflect.ValueOf(in.list(f.Interface().([]ast.Statement))))
				continue
			}
			if t == typeTry && t.Field(i).Name == "Body" && !v.FieldByName("Catch").IsNil() {
				in.try++
				in.walk(f)
				in.try--
			} else if (t == typeFunc || t == typeArrow) && t.Field(i).Name == "ParameterList" && in.fn != nil {
				in.fn.inParams = true
				in.walk(f)
				in.fn.inParams = false
			} else {
				in.walk(f)
			}
			if !f.CanSet() {
				continue
			}
			switch {
			case f.Type() == typeStmt && t != typeLabelled && !f.IsNil() && f.Elem().Type() != typeStmtBlock:
				st := f.Interface().(ast.Statement)
				if h := in.hook(st); h != nil {
					f.Set(reflect.ValueOf(&ast.BlockStatement{LeftBrace: st.Idx0(), List: []ast.Statement{h, st}, RightBrace: st.Idx0()}))
				}
			}
		}
		if t == typeThrow && v.CanAddr() && (in.skip == nil || !in.skip(v.Addr().Interface().(*ast.ThrowStatement))) {
			in.throw(v.Addr().Interface().(*ast.ThrowStatement))
		}
		if !v.CanAddr() {
			return
		}
		switch n := v.Addr().Interface().(type) {
		case *ast.FunctionLiteral:
			in.guard(n.Body)
		case *ast.ArrowFunctionLiteral:
			if body, ok := n.Body.(*ast.BlockStatement); ok {
				in.guard(body)
			} else if eb, ok := n.Body.(*ast.ExpressionBody); ok && eb.Expression != nil {
				in.concise(n, eb.Expression)
			}
		case *ast.CatchStatement:
			in.catchHook(n)
		}
	}
}

// list walks stmts and returns them with a hook before each statement that
// gets one. The leading directives ("use strict") stay first. A let, const
// or class declaration makes its names visible to the hooks after it.
func (in *instrumenter) list(stmts []ast.Statement) []ast.Statement {
	out := make([]ast.Statement, 0, 2*len(stmts))
	prologue := true
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
		if h := in.hook(st); h != nil {
			out = append(out, h)
		}
		in.walk(reflect.ValueOf(st))
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
