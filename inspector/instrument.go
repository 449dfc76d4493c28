package inspector

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"strconv"
	"unicode/utf16"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
)

// hookName is the global through which instrumented code reaches its
// Debugger: a non-writable, non-configurable, non-enumerable property of the
// realm's global object.
const hookName = "__jsworker_dbg"

// A script is one compiled source of an inspectable target.
type script struct {
	id, url, source string
	hash            string
	endLine, endCol int // 0-based position of the end of the source, columns in UTF-16 units
	stmts           []int
}

// A stmtInfo is one instrumented statement: the place a hook can pause.
type stmtInfo struct {
	script    *script
	line, col int // 0-based; columns count bytes of the line (equal to UTF-16 units for ASCII)
	debugger  bool
}

// Compile parses source, splices a hook before every statement and compiles
// the result. Every hook carries the position of its statement in every
// position field, so Error.stack, CaptureCallStack and Function.prototype.
// toString are the same as for the uninstrumented program. The script gets
// its scriptId now, before any session exists. A syntax error is returned as
// goja.Compile returns it (*goja.CompilerSyntaxError).
//
// Compile may be called before the target's thread starts, or on it; a script
// compiled while sessions have the domain enabled is reported to them with
// Debugger.scriptParsed at once, and URL breakpoints set before resolve in it
// (Debugger.breakpointResolved to the session that set them).
func (d *Debugger) Compile(url, source string) (*goja.Program, error) {
	prg, err := goja.Parse(url, source)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(source))
	sc := &script{
		id:     strconv.Itoa(len(d.scripts) + 1),
		url:    url,
		source: source,
		hash:   hex.EncodeToString(sum[:]),
	}
	sc.endLine, sc.endCol = endPosition(source)
	in := instrumenter{d: d, s: sc, prg: prg, seen: make(map[seenKey]bool)}
	in.walk(reflect.ValueOf(prg))
	p, err := goja.CompileAST(prg, false)
	if err != nil {
		d.stmts = d.stmts[:len(d.stmts)-len(sc.stmts)]
		return nil, err
	}
	d.scripts = append(d.scripts, sc)
	for _, s := range d.sessions { // compiled on the target's thread after Debugger.enable
		s.emitScriptParsed(sc)
	}
	for _, bp := range d.sortedBreakpoints() {
		if loc, ok := d.resolveIn(bp, sc); ok {
			bp.owner.emit(encodeEvent(evBreakpointResolved, breakpointResolvedParams{BreakpointID: bp.id, Location: loc}))
		}
	}
	return p, nil
}

// endPosition returns the 0-based line and UTF-16 column of the end of src.
func endPosition(src string) (line, col int) {
	for _, r := range src {
		if r == '\n' {
			line++
			col = 0
			continue
		}
		col += utf16.RuneLen(r)
	}
	return line, col
}

type instrumenter struct {
	d    *Debugger
	s    *script
	prg  *ast.Program
	seen map[seenKey]bool
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
)

// walk descends through every exported field of the AST (goja's ast package
// has no visitor), instruments every statement list and wraps every
// single-statement body (if, loops, with) into a block holding its hook. The
// statement of a label is left alone: its hook goes before the label, and a
// block in between would break `continue label`. Expression bodies of arrow
// functions are not instrumented.
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
		for i := range v.NumField() {
			if !t.Field(i).IsExported() {
				continue
			}
			f := v.Field(i)
			in.walk(f)
			if !f.CanSet() {
				continue
			}
			switch {
			case f.Type() == typeStmtList:
				f.Set(reflect.ValueOf(in.list(f.Interface().([]ast.Statement))))
			case f.Type() == typeStmt && t != typeLabelled && !f.IsNil() && f.Elem().Type() != typeStmtBlock:
				st := f.Interface().(ast.Statement)
				if h := in.hook(st); h != nil {
					f.Set(reflect.ValueOf(&ast.BlockStatement{LeftBrace: st.Idx0(), List: []ast.Statement{h, st}, RightBrace: st.Idx0()}))
				}
			}
		}
	}
}

// list returns stmts with a hook before each statement that gets one. The
// leading directives ("use strict") stay first.
func (in *instrumenter) list(stmts []ast.Statement) []ast.Statement {
	out := make([]ast.Statement, 0, 2*len(stmts))
	prologue := true
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
		out = append(out, st)
	}
	return out
}

// hook builds `__jsworker_dbg.on && __jsworker_dbg.hit(N)` for st, with every
// position at st's first character, and records statement N. Function
// declarations (hoisted) and empty statements get none.
func (in *instrumenter) hook(st ast.Statement) ast.Statement {
	switch st.(type) {
	case *ast.FunctionDeclaration, *ast.EmptyStatement, *ast.BadStatement:
		return nil
	}
	idx := st.Idx0()
	pos := in.prg.File.Position(int(idx) - in.prg.File.Base())
	id := len(in.d.stmts)
	_, isDebugger := st.(*ast.DebuggerStatement)
	in.d.stmts = append(in.d.stmts, stmtInfo{script: in.s, line: pos.Line - 1, col: pos.Column - 1, debugger: isDebugger})
	in.s.stmts = append(in.s.stmts, id)
	member := func(name string) *ast.DotExpression {
		return &ast.DotExpression{
			Left:       &ast.Identifier{Name: hookName, Idx: idx},
			Identifier: ast.Identifier{Name: unistring.String(name), Idx: idx},
		}
	}
	return &ast.ExpressionStatement{Expression: &ast.BinaryExpression{
		Operator: token.LOGICAL_AND,
		Left:     member("on"),
		Right: &ast.CallExpression{
			Callee:           member("hit"),
			LeftParenthesis:  idx,
			ArgumentList:     []ast.Expression{&ast.NumberLiteral{Idx: idx, Literal: strconv.Itoa(id), Value: int64(id)}},
			RightParenthesis: idx,
		},
	}}
}
