// Scope analysis for the instrumentation: which names a hook at a given
// statement can pass to the debugger (the function's own, in TDZ order, and
// those of enclosing functions it can reach).

package inspector

import (
	"reflect"
	"slices"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/unistring"
)

// A fnScope is what the instrumenter knows of the function it is in: the
// names visible so far, innermost last, and those of enclosing functions
// it can reach (its closure).
type fnScope struct {
	names    []local
	base     int // names[:base] are the parameters and vars: never in a TDZ
	this     bool
	async    bool
	lists    int     // statement lists being walked: 1 in the body, more in nested blocks
	nparams  int     // names[:nparams] are the parameters
	inParams bool    // the parameter list is being walked (default values, destructuring defaults)
	closure  []local // enclosing functions' variables, none of them declared anywhere in this function
	id       int     // the function's number in its Debugger (stmtInfo.fn)
}

// bindingNames appends the simple identifiers bound by bs.
func bindingNames(out []local, konst bool, bs []*ast.Binding) []local {
	for _, b := range bs {
		if id, ok := b.Target.(*ast.Identifier); ok {
			out = append(out, local{name: string(id.Name), konst: konst})
		}
	}
	return out
}

// params appends the simple parameter names of pl, the rest one included.
func params(out []local, pl *ast.ParameterList) []local {
	if pl == nil {
		return out
	}
	out = bindingNames(out, false, pl.List)
	if id, ok := pl.Rest.(*ast.Identifier); ok {
		out = append(out, local{name: string(id.Name)})
	}
	return out
}

// enter returns the scope of a function, a method or a static block.
func (in *instrumenter) enter(v reflect.Value) *fnScope {
	fs := &fnScope{}
	var decls []*ast.VariableDeclaration
	switch n := v.Addr().Interface().(type) {
	case *ast.FunctionLiteral:
		fs.this = !in.ctor
		fs.async = n.Async
		fs.names = params(fs.names, n.ParameterList)
		fs.nparams = len(fs.names)
		decls = n.DeclarationList
	case *ast.ArrowFunctionLiteral:
		fs.async = n.Async
		fs.names = params(fs.names, n.ParameterList)
		fs.nparams = len(fs.names)
		decls = n.DeclarationList
	case *ast.ClassStaticBlock:
		fs.this = true
		decls = n.DeclarationList
	}
	in.ctor = false
	for _, d := range decls {
		fs.names = bindingNames(fs.names, false, d.List)
	}
	fs.base = len(fs.names)
	in.d.fns++
	fs.id = in.d.fns
	if parent := in.fn; parent != nil {
		// What the function can reach of its enclosing functions: their
		// parameters and vars, and — unless it is a hoisted declaration that
		// may run before them — the lets and consts visible where it is
		// defined; never a name it declares itself anywhere (that one
		// shadows the outer one, maybe in its TDZ).
		declared := make(map[string]bool)
		if fl, ok := v.Addr().Interface().(*ast.FunctionLiteral); ok && fl.Name != nil {
			declared[string(fl.Name.Name)] = true
		}
		for _, l := range fs.names {
			declared[l.name] = true
		}
		declaredIn(v, declared, true)
		outer := parent.names[:parent.base]
		switch {
		case parent.inParams: // a default value's function sees the parameters, not the body's vars
			outer = parent.names[:parent.nparams]
		case !in.hoisted:
			outer = in.visibleOwn()
		}
		seen := make(map[string]bool)
		for _, list := range [][]local{outer, parent.closure} {
			for _, l := range list {
				if declared[l.name] || seen[l.name] || l.name == "arguments" {
					continue
				}
				seen[l.name] = true
				l.scope = scopeClosure
				fs.closure = append(fs.closure, l)
			}
		}
	}
	in.hoisted = false
	return fs
}

// declaredIn adds to out every name n binds in its own scopes: parameters,
// declarations of every kind in every block, catch parameters, names in
// destructuring patterns (over-approximated: every identifier of a pattern),
// without entering nested functions and classes (only their names). top
// is true for the function itself, whose body it scans.
func declaredIn(v reflect.Value, out map[string]bool, top bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() && v.Type() != typeFile {
			declaredIn(v.Elem(), out, top)
		}
	case reflect.Slice:
		for i := range v.Len() {
			declaredIn(v.Index(i), out, false)
		}
	case reflect.Struct:
		t := v.Type()
		switch {
		case !top && (t == typeFunc || t == typeArrow || t == typeStatic):
			return
		case t == typeClass:
			if n := v.FieldByName("Name"); !n.IsNil() {
				out[string(n.Interface().(*ast.Identifier).Name)] = true
			}
			return
		case t == typeFuncDecl:
			if n := v.FieldByName("Function").Elem().FieldByName("Name"); !n.IsNil() {
				out[string(n.Interface().(*ast.Identifier).Name)] = true
			}
			return
		case t == typeBinding || t == typeForDecl:
			identifiersIn(v.FieldByName("Target"), out)
		case t == typeParams:
			identifiersIn(v.FieldByName("Rest"), out)
		case t == typeCatch:
			identifiersIn(v.FieldByName("Parameter"), out)
		}
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				declaredIn(v.Field(i), out, false)
			}
		}
	}
}

// identifiersIn adds every identifier under v to out, without entering
// functions.
func identifiersIn(v reflect.Value, out map[string]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() && v.Type() != typeFile {
			identifiersIn(v.Elem(), out)
		}
	case reflect.Slice:
		for i := range v.Len() {
			identifiersIn(v.Index(i), out)
		}
	case reflect.Struct:
		t := v.Type()
		if t == typeFunc || t == typeArrow || t == typeClass {
			return
		}
		if t == typeIdent {
			out[string(v.FieldByName("Name").Interface().(unistring.String))] = true
			return
		}
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				identifiersIn(v.Field(i), out)
			}
		}
	}
}

// push makes names visible in the current function until the returned
// function is called.
func (in *instrumenter) push(names []local) func() {
	fs := in.fn
	if fs == nil || len(names) == 0 {
		return func() {}
	}
	n := len(fs.names)
	for _, l := range names {
		l.scope = scopeBlock
		fs.names = append(fs.names, l)
	}
	return func() { fs.names = fs.names[:n] }
}

// visible returns the names a hook passes: the current function's own
// (visibleOwn), then those of its closure.
func (in *instrumenter) visible() []local {
	own := in.visibleOwn()
	if in.fn == nil || len(in.fn.closure) == 0 {
		return own
	}
	return append(own, in.fn.closure...)
}

// visibleOwn returns the names of the current function a hook passes: the
// innermost binding of each name, never `arguments` (goja mishandles it in
// arrow functions).
func (in *instrumenter) visibleOwn() []local {
	if in.fn == nil {
		return nil
	}
	seen := make(map[string]bool)
	var out []local
	for i := len(in.fn.names) - 1; i >= 0; i-- {
		l := in.fn.names[i]
		if seen[l.name] || l.name == "arguments" {
			continue
		}
		seen[l.name] = true
		out = append(out, l)
	}
	slices.Reverse(out)
	return out
}

var typeAwait = reflect.TypeFor[ast.AwaitExpression]()

// containsAwait reports whether the statement v has an await in its own
// expressions: nested statements (they have hooks of their own) and nested
// functions are not looked into. top is true for the statement itself.
func containsAwait(v reflect.Value, top bool) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() || v.Type() == typeFile {
			return false
		}
		if !top && (v.Type() == typeStmt || v.Type() == typeStmtBlock) {
			return false
		}
		return containsAwait(v.Elem(), top)
	case reflect.Slice:
		if v.Type() == typeStmtList {
			return false
		}
		for i := range v.Len() {
			if containsAwait(v.Index(i), false) {
				return true
			}
		}
	case reflect.Struct:
		switch v.Type() {
		case typeAwait:
			return true
		case typeFunc, typeArrow, typeClass:
			return false
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && containsAwait(v.Field(i), false) {
				return true
			}
		}
	}
	return false
}
