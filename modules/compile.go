package modules

import (
	"errors"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
	"github.com/jsworker/jsworker/internal/astwalk"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// An Instrumenter compiles one module for a debugger instead of
// goja.CompileAST: prg is the module's wrapper function, already parsed,
// whose every position refers to source (prg.File holds source under the
// name path); skip reports the statements esbuild generated (helpers), which
// should get no breakpoint or step location. It returns the program, which
// evaluates to the wrapper function, or a *goja.CompilerSyntaxError.
type Instrumenter func(path, source string, prg *ast.Program, skip func(ast.Statement) bool) (*goja.Program, error)

// A staticImport is one import the module makes before it runs: its
// specifier and where the import statement is (1-based line and column).
type staticImport struct {
	spec         string
	line, column int
}

// A compiled module: what the loader's source became. It belongs to no
// runtime and is shared by every worker that loads the same path and source.
type compiled struct {
	path    string
	prg     *goja.Program // evaluates to the wrapper function
	imports []staticImport
	size    int  // bytes of source, for the cache's budget
	async   bool // it has top-level await: its wrapper is an async function
	// anonDefault: it exports an anonymous function or class as default, whose name is "default" (fixDefaultName)
	anonDefault bool
}

// compileModule transforms, parses and compiles the module path with its
// source, in format (FormatModule or FormatCommonJS). With inst nil the
// result comes from, and goes to, the process-wide cache. Failures are
// *Error.
func compileModule(path, source string, format Format, inst Instrumenter) (*compiled, error) {
	if format == FormatCommonJS {
		inst = nil // not instrumented (see below), so shared through the cache
	}
	if inst == nil {
		if c := cache.get(path, source, format); c != nil {
			return c, nil
		}
	}
	check := depthguard.CheckModuleNesting // esbuild's parser and goja's recurse without a limit
	if format == FormatCommonJS {
		check = depthguard.CheckNesting
	}
	if err := check(path, source); err != nil {
		return nil, &Error{Name: "RangeError", Message: depthguard.Message, Path: path, Err: err}
	}
	var (
		code, head string
		pm         *posMap
		awaits     []int
	)
	if format == FormatCommonJS {
		head = cjsHead
		var err error
		if code, pm, err = cjsCode(path, source); err != nil {
			return nil, err
		}
		if pm != nil {
			// esbuild's output is mapped line by line (originalOffset): the head takes a line of its own, as
			// wrapperHead does, so that line n+1 of the wrapped text is line n of esbuild's.
			head = cjsHead + "\n"
		}
	} else {
		head = wrapperHead
		var sm []byte
		var err error
		if code, sm, awaits, err = transform(path, source); err != nil {
			return nil, err
		}
		if pm, err = decodeMap(sm); err != nil {
			return nil, &Error{Name: "Error", Message: err.Error(), Path: path, Err: err}
		}
	}
	wrapped := head + code + wrapperTail
	r := rewriter{pm: pm, shift: len(head), gen: newLineIndex(wrapped), orig: newLineIndex(source), wrapped: wrapped,
		sentinel: file.Idx(1 + len(source))}
	prg, err := parser.ParseFile(nil, path, wrapped, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, r.parseError(path, err)
	}
	if format != FormatCommonJS {
		r.findPrologue(prg)
	}
	if len(awaits) > 0 {
		r.awaits = make(map[int]bool, len(awaits))
		for _, off := range awaits {
			r.awaits[off] = true
		}
		if fn := r.wrapperFunc(); fn != nil {
			fn.Async = true
		}
	}
	r.walk(prg, 0, false)
	if r.converted != len(awaits) {
		// A marker esbuild moved or changed would run as five bitwise nots: refuse instead.
		line, col := r.orig.position(awaits[0])
		return nil, &Error{Name: "SyntaxError", Path: path, Line: line + 1, Column: col + 1,
			Message: "jsworker could not compile this top-level await; move it into an async function"}
	}
	prg.File = file.NewFile(path, source, 1)
	c := &compiled{path: path, size: len(source), async: len(awaits) > 0}
	if format != FormatCommonJS {
		c.anonDefault = anonymousDefault(source)
	}
	if format != FormatCommonJS {
		c.imports = r.imports // a CommonJS module's require calls load when they run
	}
	switch {
	case format == FormatCommonJS:
		// CommonJS is sloppy code unless it says "use strict"; the debugger's instrumentation compiles
		// strict module code only, so CommonJS modules run uninstrumented (no breakpoints) under it.
		depthguard.Rewrite(prg) // catchable stack overflow (internal/depthguard)
		c.prg, err = goja.CompileAST(prg, false)
	case inst != nil:
		c.prg, err = inst(path, source, prg, r.skip)
	default:
		depthguard.Rewrite(prg) // catchable stack overflow (internal/depthguard)
		c.prg, err = goja.CompileAST(prg, true)
	}
	if err != nil {
		return nil, compileError(path, err)
	}
	if inst == nil {
		cache.put(path, source, format, c)
	}
	return c, nil
}

// parseError locates a goja parse error of the wrapped text (esbuild
// accepted the module, goja does not: syntax goja lacks) in the original.
func (r *rewriter) parseError(path string, err error) *Error {
	e := &Error{Name: "SyntaxError", Message: err.Error(), Path: path}
	var list parser.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		p := list[0].Position
		e.Message = list[0].Message
		if p.Line > 0 {
			off := r.gen.starts[min(p.Line-1, len(r.gen.starts)-1)] + p.Column - 1
			e.Line, e.Column = r.orig.position(r.originalOffset(off))
			e.Line, e.Column = e.Line+1, e.Column+1
		}
	}
	return e
}

// compileError converts goja's compile error, already in original
// coordinates, into an *Error.
func compileError(path string, err error) *Error {
	e := &Error{Name: "SyntaxError", Message: err.Error(), Path: path}
	var se *goja.CompilerSyntaxError
	if errors.As(err, &se) {
		e.Message = se.Message
		if se.File != nil {
			p := se.File.Position(se.Offset)
			e.Line, e.Column = p.Line, p.Column
		}
	}
	return e
}

// rewriter moves every position of the wrapped module's AST from esbuild's
// output to the original source, and collects the static imports. goja then
// reports positions, in stack traces and to the debugger, straight from the
// original text: no source map is consulted at run time.
//
// The code esbuild writes before the module's own (its helper functions, the
// exports object and its getters, `module.exports = __toCommonJS(…)`) is
// the prologue: every position in it becomes the sentinel, the end of the
// source, where no statement of the module can start. A debugger skips
// whatever is there — also the statements it adds itself, which take the
// positions of what they instrument.
type rewriter struct {
	pm        *posMap // nil: the wrapped text is head + source + tail
	shift     int     // with pm nil, the length of the head
	gen, orig *lineIndex
	wrapped   string
	sentinel  file.Idx
	wrapper   ast.Statement          // the program's one statement, the wrapper function
	prologue  map[ast.Statement]bool // the wrapper body's statements that esbuild generated
	imports   []staticImport
	awaits    map[int]bool // offsets in source of top-level awaits written as awaitMarker (transform)
	converted int          // how many of them walk turned back into awaits
}

// wrapperFunc returns the wrapper's function literal, or nil.
func (r *rewriter) wrapperFunc() *ast.FunctionLiteral {
	es, ok := r.wrapper.(*ast.ExpressionStatement)
	if !ok {
		return nil
	}
	fn, _ := es.Expression.(*ast.FunctionLiteral)
	return fn
}

// asAwait returns the await expression that u stands for, if u is the
// outermost of the five ~ transform wrote for a top-level await.
func (r *rewriter) asAwait(u *ast.UnaryExpression) (*ast.AwaitExpression, bool) {
	if r.awaits == nil || u.Operator != token.BITWISE_NOT || u.Postfix || u.Idx <= 0 {
		return nil, false
	}
	if !r.awaits[r.originalOffset(int(u.Idx)-1)] {
		return nil, false
	}
	operand := u.Operand
	for range len(awaitMarker) - 1 {
		inner, ok := operand.(*ast.UnaryExpression)
		if !ok || inner.Operator != token.BITWISE_NOT || inner.Postfix {
			return nil, false
		}
		operand = inner.Operand
	}
	r.converted++
	return &ast.AwaitExpression{Await: u.Idx, Argument: operand}, true
}

// findPrologue finds the wrapper and the statements of its body up to
// esbuild's `module.exports = __toCommonJS(…)`, which every module but a
// JSON one has (transform adds an empty export to modules without any).
func (r *rewriter) findPrologue(prg *ast.Program) {
	r.prologue = make(map[ast.Statement]bool)
	if len(prg.Body) != 1 {
		return
	}
	r.wrapper = prg.Body[0]
	es, ok := r.wrapper.(*ast.ExpressionStatement)
	if !ok {
		return
	}
	fn, ok := es.Expression.(*ast.FunctionLiteral)
	if !ok || fn.Body == nil {
		return
	}
	for i, st := range fn.Body.List {
		if isToCommonJS(st) {
			for _, p := range fn.Body.List[:i+1] {
				r.prologue[p] = true
			}
			return
		}
	}
}

// isToCommonJS reports whether st is `module.exports = __toCommonJS(…)`.
func isToCommonJS(st ast.Statement) bool {
	es, ok := st.(*ast.ExpressionStatement)
	if !ok {
		return false
	}
	as, ok := es.Expression.(*ast.AssignExpression)
	if !ok {
		return false
	}
	call, ok := as.Right.(*ast.CallExpression)
	if !ok {
		return false
	}
	id, ok := call.Callee.(*ast.Identifier)
	return ok && id.Name == "__toCommonJS"
}

// skip is the Instrumenter's skip: the wrapper statement, and everything at
// the sentinel.
func (r *rewriter) skip(st ast.Statement) bool {
	return st == r.wrapper || st.Idx0() == r.sentinel
}

// originalOffset returns the byte offset in the original source of byte
// offset off of the wrapped text. Within a segment whose text esbuild copied
// verbatim the column is exact; elsewhere it is the segment's start. Code
// esbuild generated before any mapping goes to offset 0.
func (r *rewriter) originalOffset(off int) int {
	if r.pm == nil {
		return min(max(off-r.shift, 0), len(r.orig.src))
	}
	line, col := r.gen.position(off)
	seg, ok := r.pm.nearest(line-1, col)
	if !ok {
		return 0
	}
	o := r.orig.offset(seg.line, seg.col)
	if s, exact := r.pm.exact(line-1, col); exact && s == seg {
		d := col - seg.genCol
		g := r.gen.starts[line] + seg.genCol
		if d > 0 && o+d <= len(r.orig.src) && g+d <= len(r.wrapped) && r.wrapped[g:g+d] == r.orig.src[o:o+d] {
			return o + d
		}
	}
	return o
}

// walk rewrites every position of n and of the nodes under it: to the
// sentinel in the prologue, to the original position elsewhere. depth
// counts the functions around n: the wrapper is 1, so a require call at
// depth 1 is a static import (a dynamic import() becomes a require inside an
// arrow function, depth 2).
func (r *rewriter) walk(n ast.Node, depth int, prologue bool) {
	if st, ok := n.(ast.Statement); ok && !prologue && r.prologue[st] {
		prologue = true
	}
	switch n := n.(type) {
	case *ast.CallExpression:
		if !prologue {
			if depth == 1 {
				r.staticImport(n)
			}
			dynamicImport(n)
		}
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral, *ast.ClassLiteral:
		depth++
	}
	astwalk.Positions(n, func(p *file.Idx) {
		switch {
		case *p <= 0:
		case prologue:
			*p = r.sentinel
		default:
			*p = file.Idx(1 + r.originalOffset(int(*p)-1))
		}
	})
	astwalk.Children(n, func(c astwalk.Child) {
		if c.List != nil {
			for _, st := range *c.List {
				r.walk(st, depth, prologue)
			}
			return
		}
		if u, ok := c.Node.(*ast.UnaryExpression); ok && c.Expr != nil {
			if a, ok := r.asAwait(u); ok { // a top-level await transform wrote as awaitMarker
				*c.Expr = a
				c.Node = a
			}
		}
		r.walk(c.Node, depth, prologue)
	})
}

// dynamicImport rewrites call if it is esbuild's lowering of import(x),
// Promise.resolve().then(() => __toESM(require(x))), to start with the
// import() hook, __jsworker_import(x).then(…): the hook waits for x's
// evaluation, top-level await included, before the require runs.
func dynamicImport(call *ast.CallExpression) {
	then, ok := call.Callee.(*ast.DotExpression)
	if !ok || then.Identifier.Name != "then" || len(call.ArgumentList) != 1 {
		return
	}
	inner, ok := then.Left.(*ast.CallExpression)
	if !ok || len(inner.ArgumentList) != 0 {
		return
	}
	res, ok := inner.Callee.(*ast.DotExpression)
	if !ok || res.Identifier.Name != "resolve" {
		return
	}
	if id, ok := res.Left.(*ast.Identifier); !ok || id.Name != "Promise" {
		return
	}
	arrow, ok := call.ArgumentList[0].(*ast.ArrowFunctionLiteral)
	if !ok {
		return
	}
	var e ast.Expression
	switch b := arrow.Body.(type) {
	case *ast.ExpressionBody:
		e = b.Expression
	case *ast.BlockStatement:
		if len(b.List) == 1 {
			if ret, ok := b.List[0].(*ast.ReturnStatement); ok {
				e = ret.Argument
			}
		}
	}
	toESM, ok := e.(*ast.CallExpression)
	if !ok || len(toESM.ArgumentList) == 0 {
		return
	}
	if id, ok := toESM.Callee.(*ast.Identifier); !ok || id.Name != "__toESM" {
		return
	}
	req, ok := toESM.ArgumentList[0].(*ast.CallExpression)
	if !ok || len(req.ArgumentList) != 1 {
		return
	}
	if id, ok := req.Callee.(*ast.Identifier); !ok || id.Name != "require" {
		return
	}
	inner.Callee = &ast.Identifier{Name: importName, Idx: inner.Callee.Idx0()}
	inner.ArgumentList = []ast.Expression{req.ArgumentList[0]}
}

// staticImport records call if it is require("literal"), before its
// positions are rewritten.
func (r *rewriter) staticImport(call *ast.CallExpression) {
	id, ok := call.Callee.(*ast.Identifier)
	if !ok || id.Name != "require" || len(call.ArgumentList) != 1 {
		return
	}
	lit, ok := call.ArgumentList[0].(*ast.StringLiteral)
	if !ok {
		return
	}
	line, col := r.orig.position(r.originalOffset(int(call.Idx0()) - 1))
	r.imports = append(r.imports, staticImport{spec: lit.Value.String(), line: line + 1, column: col + 1})
}
