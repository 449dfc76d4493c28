// Scope analysis for the instrumentation: which names a hook at a given
// statement can pass to the debugger (the function's own, in TDZ order, and
// those of enclosing functions it can reach).

package inspector

import (
	"slices"

	"github.com/dop251/goja/ast"
	"github.com/jsworker/jsworker/internal/astwalk"
)

// A fnScope is what the instrumenter knows of the function it is in: the
// names visible so far, innermost last, and those of enclosing functions
// it can reach (its closure).
type fnScope struct {
	names     []local
	base      int // names[:base] are the parameters and vars: never in a TDZ
	this      bool
	async     bool
	generator bool
	lists     int     // statement lists being walked: 1 in the body, more in nested blocks
	nparams   int     // names[:nparams] are the parameters
	inParams  bool    // the parameter list is being walked (default values, destructuring defaults)
	closure   []local // enclosing functions' variables, none of them declared anywhere in this function
	id        int     // the function's number in its Debugger (stmtInfo.fn)

	// The `if (flag) hit(…)` statements of the statement hooks, by kind of
	// flag (frameflag.go).
	cachedHooks, freshHooks []*ast.IfStatement
	entry                   *ast.IfStatement // the body's first hook, which tests the depth guard's value (finishFunction)
	entrySet                bool             // entry follows `__jsworker_f = jsworker:depth();` and tests the frame flag (entryFlag)
	throwTemp               bool             // a throw statement uses the var throwTempName
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
func (in *instrumenter) enter(n ast.Node) *fnScope {
	fs := &fnScope{}
	var decls []*ast.VariableDeclaration
	switch n := n.(type) {
	case *ast.FunctionLiteral:
		fs.this = !in.ctor
		fs.async, fs.generator = n.Async, n.Generator
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
		if fl, ok := n.(*ast.FunctionLiteral); ok && fl.Name != nil {
			declared[string(fl.Name.Name)] = true
		}
		for _, l := range fs.names {
			declared[l.name] = true
		}
		declaredIn(n, declared)
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

// declaredIn adds to out every name fn binds in its own scopes: parameters,
// declarations of every kind in every block, catch parameters, names in
// destructuring patterns (over-approximated: every identifier of a pattern),
// without entering nested functions and classes (only their names).
func declaredIn(fn ast.Node, out map[string]bool) {
	astwalk.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassStaticBlock:
			return n == fn
		case *ast.ClassLiteral:
			if n.Name != nil {
				out[string(n.Name.Name)] = true
			}
			return false
		case *ast.FunctionDeclaration:
			if n.Function != nil && n.Function.Name != nil {
				out[string(n.Function.Name.Name)] = true
			}
			return false
		case *ast.Binding:
			identifiersIn(n.Target, out)
		case *ast.ForDeclaration:
			identifiersIn(n.Target, out)
		case *ast.ParameterList:
			identifiersIn(n.Rest, out)
		case *ast.CatchStatement:
			identifiersIn(n.Parameter, out)
		}
		return true
	})
}

// identifiersIn adds every identifier under n to out, without entering
// functions and classes.
func identifiersIn(n ast.Node, out map[string]bool) {
	if n == nil {
		return
	}
	astwalk.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral:
			return false
		case *ast.Identifier:
			out[string(n.Name)] = true
			return false
		}
		return true
	})
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

// containsAwait reports whether statement st has an await in its own
// expressions: nested statements (they have hooks of their own: statement
// lists, single-statement bodies, blocks) and nested functions and classes
// are not looked into.
func containsAwait(st ast.Statement) bool {
	found := false
	var look func(c astwalk.Child)
	look = func(c astwalk.Child) {
		if found || c.List != nil || c.Slot != nil {
			return
		}
		switch c.Node.(type) {
		case *ast.AwaitExpression:
			found = true
			return
		case *ast.BlockStatement, *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral:
			return
		}
		astwalk.Children(c.Node, look)
	}
	astwalk.Children(st, look)
	return found
}
