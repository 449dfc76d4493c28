package modules

import (
	"errors"
	"reflect"
	"sync"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
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
	size    int // bytes of source, for the cache's budget
}

// compileModule transforms, parses and compiles the module path with its
// source. With inst nil the result comes from, and goes to, the process-wide
// cache. Failures are *Error.
func compileModule(path, source string, inst Instrumenter) (*compiled, error) {
	if inst == nil {
		if c := cache.get(path, source); c != nil {
			return c, nil
		}
	}
	code, sm, err := transform(path, source)
	if err != nil {
		return nil, err
	}
	pm, err := decodeMap(sm)
	if err != nil {
		return nil, &Error{Name: "Error", Message: err.Error(), Path: path, Err: err}
	}
	wrapped := wrapperHead + code + wrapperTail
	r := rewriter{pm: pm, gen: newLineIndex(wrapped), orig: newLineIndex(source), wrapped: wrapped,
		seen: make(map[seenKey]bool), sentinel: file.Idx(1 + len(source))}
	prg, err := parser.ParseFile(nil, path, wrapped, 0, parser.WithDisableSourceMaps)
	if err != nil {
		return nil, r.parseError(path, err)
	}
	r.findPrologue(prg)
	r.walk(reflect.ValueOf(prg), 0, false)
	prg.File = file.NewFile(path, source, 1)
	c := &compiled{path: path, imports: r.imports, size: len(source)}
	if inst != nil {
		c.prg, err = inst(path, source, prg, r.skip)
	} else {
		depthguard.Rewrite(prg) // catchable stack overflow (internal/depthguard)
		c.prg, err = goja.CompileAST(prg, true)
	}
	if err != nil {
		return nil, compileError(path, err)
	}
	if inst == nil {
		cache.put(path, source, c)
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
	pm        *posMap
	gen, orig *lineIndex
	wrapped   string
	seen      map[seenKey]bool
	sentinel  file.Idx
	wrapper   ast.Statement          // the program's one statement, the wrapper function
	prologue  map[ast.Statement]bool // the wrapper body's statements that esbuild generated
	imports   []staticImport
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

type seenKey struct {
	t reflect.Type
	p uintptr
}

var (
	typeIdx     = reflect.TypeFor[file.Idx]()
	typeFilePtr = reflect.TypeFor[*file.File]()
	typeStmt    = reflect.TypeFor[ast.Statement]()
	typeFunc    = reflect.TypeFor[ast.FunctionLiteral]()
	typeArrow   = reflect.TypeFor[ast.ArrowFunctionLiteral]()
	typeClass   = reflect.TypeFor[ast.ClassLiteral]()
	typeCall    = reflect.TypeFor[ast.CallExpression]()
)

// originalOffset returns the byte offset in the original source of byte
// offset off of the wrapped text. Within a segment whose text esbuild copied
// verbatim the column is exact; elsewhere it is the segment's start. Code
// esbuild generated before any mapping goes to offset 0.
func (r *rewriter) originalOffset(off int) int {
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

// walk rewrites every file.Idx under v: to the sentinel in the prologue, to
// the original position elsewhere. depth counts the functions around v: the
// wrapper is 1, so a require call at depth 1 is a static import (a dynamic
// import() becomes a require inside an arrow function, depth 2).
func (r *rewriter) walk(v reflect.Value, depth int, prologue bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == typeFilePtr {
			return
		}
		k := seenKey{v.Type(), v.Pointer()}
		if r.seen[k] {
			return
		}
		r.seen[k] = true
		if !prologue && isStatement(v.Type()) && r.prologue[v.Interface().(ast.Statement)] {
			prologue = true
		}
		if v.Type().Elem() == typeCall && depth == 1 && !prologue {
			r.staticImport(v.Interface().(*ast.CallExpression))
		}
		r.walk(v.Elem(), depth, prologue)
	case reflect.Interface:
		if !v.IsNil() {
			r.walk(v.Elem(), depth, prologue)
		}
	case reflect.Slice:
		for i := range v.Len() {
			r.walk(v.Index(i), depth, prologue)
		}
	case reflect.Struct:
		t := v.Type()
		if t == typeFunc || t == typeArrow || t == typeClass {
			depth++
		}
		for _, f := range planOf(t) {
			fv := v.Field(f.index)
			if f.idx {
				switch {
				case !fv.CanSet() || fv.Int() <= 0:
				case prologue:
					fv.SetInt(int64(r.sentinel))
				default:
					fv.SetInt(int64(1 + r.originalOffset(int(fv.Int())-1)))
				}
				continue
			}
			r.walk(fv, depth, prologue)
		}
	}
}

// isStatement reports whether pointer type t is an ast.Statement.
func isStatement(t reflect.Type) bool {
	if b, ok := stmtTypes.Load(t); ok {
		return b.(bool)
	}
	b := t.Implements(typeStmt)
	stmtTypes.Store(t, b)
	return b
}

var stmtTypes sync.Map // reflect.Type → bool

// A fieldPlan is one field of an AST struct that walk must visit: a
// position, or something that may hold nodes.
type fieldPlan struct {
	index int
	idx   bool // a file.Idx
}

// plans caches, per struct type, the fields walk visits: reflection over
// every field of every node was a third of a module's compile time.
var plans sync.Map // reflect.Type → []fieldPlan

func planOf(t reflect.Type) []fieldPlan {
	if p, ok := plans.Load(t); ok {
		return p.([]fieldPlan)
	}
	var out []fieldPlan
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		switch {
		case f.Type == typeIdx:
			out = append(out, fieldPlan{index: i, idx: true})
		case f.Type == typeFilePtr:
		default:
			switch f.Type.Kind() {
			case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Struct:
				out = append(out, fieldPlan{index: i})
			}
		}
	}
	plans.Store(t, out)
	return out
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
