package inspector

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/internal/depthguard"
)

// hookName is the global through which instrumented code reaches its
// Debugger: a non-writable, non-configurable, non-enumerable property of the
// realm's global object.
const hookName = "__jsworker_dbg"

// onName is the global every hook tests first: true while some session has
// the Debugger domain enabled. Writable (by the debugger) but not
// configurable and not enumerable.
const onName = "__jsworker_on"

// sinkName is the global that top-level hooks assign to (hookStatement): writable, not enumerable, not
// configurable.
const sinkName = "__jsworker_v"

// A script is one compiled source of an inspectable target.
type script struct {
	id, url, source string
	file            string // the name the program was compiled with (frames' SrcName); url differs with a sourceURL comment
	hasURL          bool   // url comes from a sourceURL comment
	hash            string
	endLine, endCol int // 0-based position of the end of the source, columns in UTF-16 units
	stmts           []int
	throws          int  // how many of the Debugger's throws are this script's (the last ones, while compiling)
	raises          int  // the same for the Debugger's raise sites
	module          bool // an ES module (CompileModule)
}

// A stmtInfo is one instrumented statement: the place a hook can pause.
type stmtInfo struct {
	script    *script
	line, col int // 0-based; columns count bytes of the line (equal to UTF-16 units for ASCII)
	debugger  bool
	locals    []local // the function's locals visible (and initialized) here, the order of the hook's array
	this      bool    // the hook passes `this`
	fn        int     // the function the statement is in (numbered per Debugger from 1); 0 at the top level
	async     bool    // that function is async
	await     bool    // the statement's own expressions contain an await (not nested statements or functions)
}

// A local is one variable a hook passes to the debugger.
type local struct {
	name  string
	konst bool      // const or class binding: never written back
	scope scopeKind // the scope of Debugger.paused that shows it
}

// scopeKind tells which scope of a paused frame a local belongs to.
type scopeKind uint8

const (
	scopeLocal   scopeKind = iota // the function's parameters, vars and top-level lets
	scopeBlock                    // lets, consts, classes and catch parameters of nested blocks
	scopeClosure                  // variables of enclosing functions
	scopeKinds
)

// scopeTypes are the CDP scope types of the kinds.
var scopeTypes = [scopeKinds]string{"local", "block", "closure"}

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

// A throwInfo is one instrumented `throw` statement.
type throwInfo struct {
	script    *script
	line, col int  // 0-based, as in stmtInfo
	caught    bool // lexically inside the block of a try with a catch clause, in the same function
	async     bool // in an async function: uncaught, it rejects the function's promise
	locals    []local
	this      bool
}

// sourceURLComment matches a line that is only a `//# sourceURL=name`
// comment (or the old `//@` form).
var sourceURLComment = regexp.MustCompile(`(?m)^[ \t]*//[#@][ \t]*sourceURL=[ \t]*([^\s'"]+)[ \t]*\r?$`)

// sourceURL returns the name of source's last sourceURL comment line and
// true, or url and false when there is none.
func sourceURL(source, url string) (string, bool) {
	if !strings.Contains(source, "sourceURL=") {
		return url, false
	}
	m := sourceURLComment.FindAllStringSubmatch(source, -1)
	if len(m) == 0 {
		return url, false
	}
	return m[len(m)-1][1], true
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
	sc := d.newScript(url, source)
	sc.url, sc.hasURL = sourceURL(source, url)
	return d.instrument(sc, prg, false, nil)
}

// newScript returns the script record of source, numbered next.
func (d *Debugger) newScript(url, source string) *script {
	sum := sha256.Sum256([]byte(source))
	sc := &script{
		id:     strconv.Itoa(len(d.scripts) + 1),
		url:    url,
		file:   url,
		source: source,
		hash:   hex.EncodeToString(sum[:]),
	}
	sc.endLine, sc.endCol = endPosition(source)
	return sc
}

// instrument splices the hooks into prg, compiles it (strict for module
// code) and registers sc: sessions with the domain enabled get
// Debugger.scriptParsed, and URL breakpoints resolve in it. On a compile
// error nothing of sc is kept. skip, if not nil, names the statements that
// get no hook.
func (d *Debugger) instrument(sc *script, prg *ast.Program, strict bool, skip func(ast.Statement) bool) (*goja.Program, error) {
	in := instrumenter{d: d, s: sc, prg: prg, seen: make(map[seenKey]bool), skip: skip}
	in.walk(reflect.ValueOf(prg))
	depthguard.Rewrite(prg) // after the hooks: the guard is no statement a debugger pauses at
	p, err := goja.CompileAST(prg, strict)
	if err != nil {
		d.stmts = d.stmts[:len(d.stmts)-len(sc.stmts)]
		d.throws = d.throws[:len(d.throws)-sc.throws]
		d.raises = d.raises[:len(d.raises)-sc.raises]
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

// concise gives an expression-bodied arrow function `(x) => e` a statement
// hook, as the block `{ hook; return e; }` with every new position at e's
// start (Function.prototype.toString reads the source text, so it does not
// change). It gets no guard: an error a builtin raises in e is seen by the
// guard of the function that called it, at the position e raised it.
func (in *instrumenter) concise(n *ast.ArrowFunctionLiteral, e ast.Expression) {
	idx := e.Idx0()
	ret := &ast.ReturnStatement{Return: idx, Argument: e}
	body := &ast.BlockStatement{LeftBrace: idx, RightBrace: idx, List: []ast.Statement{ret}}
	if h := in.hook(ret); h != nil {
		body.List = []ast.Statement{h, ret}
	}
	n.Body = body
}

// excName is the catch parameter of the hooks that watch exceptions.
const excName = "__jsworker_exc"

// hookCall builds `__jsworker_on && __jsworker_dbg.name(args…, [locals], this)`
// with every position at idx, passing the current function's visible locals
// (and this) when inside one.
func (in *instrumenter) hookCall(idx file.Idx, name string, locals []local, args ...ast.Expression) ast.Statement {
	member := func(name string) *ast.DotExpression {
		return &ast.DotExpression{
			Left:       &ast.Identifier{Name: hookName, Idx: idx},
			Identifier: ast.Identifier{Name: unistring.String(name), Idx: idx},
		}
	}
	if in.fn != nil {
		arr := &ast.ArrayLiteral{LeftBracket: idx, RightBracket: idx}
		for _, l := range locals {
			arr.Value = append(arr.Value, &ast.Identifier{Name: unistring.String(l.name), Idx: idx})
		}
		args = append(args, arr)
		if in.fn.this {
			args = append(args, &ast.ThisExpression{Idx: idx})
		}
	}
	call := &ast.CallExpression{Callee: member(name), LeftParenthesis: idx, ArgumentList: args, RightParenthesis: idx}
	return in.hookStatement(idx, &ast.BinaryExpression{Operator: token.LOGICAL_AND, Left: &ast.Identifier{Name: onName, Idx: idx}, Right: call})
}

// hookStatement makes the statement that evaluates a hook expression e. In a function it is an expression
// statement. At a script's top level, where the last statement's value is the script's completion value (what
// JSEvaluateScript returns), it is `var __jsworker_v = e`: a variable statement has no value of its own, so the
// completion value stays the program's (an expression statement's `false` would replace it, as FuzzInstrument
// found). The variable is a hidden global (Debugger.Install).
func (in *instrumenter) hookStatement(idx file.Idx, e ast.Expression) ast.Statement {
	if in.fn != nil || in.s.module {
		return &ast.ExpressionStatement{Expression: e}
	}
	return &ast.VariableStatement{Var: idx, List: []*ast.Binding{{Target: &ast.Identifier{Name: sinkName, Idx: idx}, Initializer: e}}}
}

// guard wraps a function body (after its directive prologue) in
// `try { body } catch (__jsworker_exc) { on && raised(N, __jsworker_exc, [locals], this); throw __jsworker_exc; }`,
// so that an exception leaving the function — also one raised by a builtin
// (null.x) or the engine — reaches the debugger while the function's frame is
// still on the stack. Every position is the body's opening brace. The
// rethrow keeps the value; an Error keeps its stack (captured when it was
// made). The locals passed are the parameters and vars.
func (in *instrumenter) guard(body *ast.BlockStatement) {
	if body == nil || in.fn == nil {
		return
	}
	start := 0
	for start < len(body.List) {
		es, ok := body.List[start].(*ast.ExpressionStatement)
		if !ok {
			break
		}
		if _, ok := es.Expression.(*ast.StringLiteral); !ok {
			break
		}
		start++
	}
	if start == len(body.List) {
		return
	}
	idx := body.LeftBrace
	id := in.raiseSite(idx, false)
	exc := func() *ast.Identifier { return &ast.Identifier{Name: excName, Idx: idx} }
	locals := in.raiseLocals(id)
	try := &ast.TryStatement{
		Try:  idx,
		Body: &ast.BlockStatement{LeftBrace: idx, List: slices.Clone(body.List[start:]), RightBrace: idx},
		Catch: &ast.CatchStatement{
			Catch:     idx,
			Parameter: exc(),
			Body: &ast.BlockStatement{LeftBrace: idx, RightBrace: idx, List: []ast.Statement{
				in.hookCall(idx, "raised", locals, in.num(idx, id), exc()),
				&ast.ThrowStatement{Throw: idx, Argument: exc()},
			}},
		},
	}
	body.List = append(body.List[:start:start], try)
}

// catchHook makes a catch clause start with `on && raised(N, e, [locals], this)`
// (a catch without a parameter gets one), so that an exception caught in the
// same function — also one a builtin raised — reaches the debugger.
func (in *instrumenter) catchHook(cs *ast.CatchStatement) {
	if cs.Body == nil {
		return
	}
	idx := cs.Catch
	if cs.Parameter == nil {
		cs.Parameter = &ast.Identifier{Name: excName, Idx: idx}
	}
	param, ok := cs.Parameter.(*ast.Identifier)
	if !ok { // a destructuring pattern: the exception itself is not reachable
		return
	}
	id := in.raiseSite(idx, true)
	locals := in.raiseLocals(id)
	if in.fn != nil && !slices.ContainsFunc(locals, func(l local) bool { return l.name == string(param.Name) }) {
		locals = append(locals, local{name: string(param.Name)})
		in.d.raises[id].locals = locals
	}
	h := in.hookCall(idx, "raised", locals, in.num(idx, id), &ast.Identifier{Name: param.Name, Idx: idx})
	cs.Body.List = append([]ast.Statement{h}, cs.Body.List...)
}

// raiseSite records a place where raised is called: a function's guard
// (caught false) or a catch clause (caught true).
func (in *instrumenter) raiseSite(idx file.Idx, caught bool) int {
	pos := in.prg.File.Position(int(idx) - in.prg.File.Base())
	id := len(in.d.raises)
	info := throwInfo{script: in.s, line: pos.Line - 1, col: pos.Column - 1, caught: caught, locals: in.visible()}
	if in.fn != nil {
		info.this, info.async = in.fn.this, in.fn.async
	}
	in.d.raises = append(in.d.raises, info)
	in.s.raises++
	return id
}

func (in *instrumenter) raiseLocals(id int) []local { return in.d.raises[id].locals }

func (in *instrumenter) num(idx file.Idx, n int) ast.Expression {
	return &ast.NumberLiteral{Idx: idx, Literal: strconv.Itoa(n), Value: int64(n)}
}

// throw rewrites `throw e` into `throw __jsworker_dbg.thrown(N, e)`, every
// position at the statement's first character, and records throw N. The
// hook returns e unchanged after pausing if it should (a Go call per throw,
// nothing per statement); e is evaluated once, before the hook.
func (in *instrumenter) throw(ts *ast.ThrowStatement) {
	idx := ts.Throw
	pos := in.prg.File.Position(int(idx) - in.prg.File.Base())
	id := len(in.d.throws)
	info := throwInfo{script: in.s, line: pos.Line - 1, col: pos.Column - 1, caught: in.try > 0, locals: in.visible()}
	args := []ast.Expression{&ast.NumberLiteral{Idx: idx, Literal: strconv.Itoa(id), Value: int64(id)}, ts.Argument}
	if in.fn != nil { // the locals, read only: `throw thrown(N, e, [a, b], this)`
		info.this, info.async = in.fn.this, in.fn.async
		arr := &ast.ArrayLiteral{LeftBracket: idx, RightBracket: idx}
		for _, l := range info.locals {
			arr.Value = append(arr.Value, &ast.Identifier{Name: unistring.String(l.name), Idx: idx})
		}
		args = append(args, arr)
		if info.this {
			args = append(args, &ast.ThisExpression{Idx: idx})
		}
	}
	in.d.throws = append(in.d.throws, info)
	in.s.throws++
	ts.Argument = &ast.CallExpression{
		Callee: &ast.DotExpression{
			Left:       &ast.Identifier{Name: hookName, Idx: idx},
			Identifier: ast.Identifier{Name: "thrown", Idx: idx},
		},
		LeftParenthesis:  idx,
		ArgumentList:     args,
		RightParenthesis: idx,
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

// hook builds `__jsworker_on && __jsworker_dbg.hit(N)` for st, with every
// position at st's first character, and records statement N. Function
// declarations (hoisted) and empty statements get none.
func (in *instrumenter) hook(st ast.Statement) ast.Statement {
	switch st.(type) {
	case *ast.FunctionDeclaration, *ast.EmptyStatement, *ast.BadStatement:
		return nil
	}
	if in.skip != nil && in.skip(st) {
		return nil
	}
	idx := st.Idx0()
	pos := in.prg.File.Position(int(idx) - in.prg.File.Base())
	id := len(in.d.stmts)
	_, isDebugger := st.(*ast.DebuggerStatement)
	info := stmtInfo{script: in.s, line: pos.Line - 1, col: pos.Column - 1, debugger: isDebugger, locals: in.visible()}
	if in.fn != nil {
		info.this, info.fn, info.async = in.fn.this, in.fn.id, in.fn.async
		info.await = info.async && containsAwait(reflect.ValueOf(st), true)
	}
	in.d.stmts = append(in.d.stmts, info)
	in.s.stmts = append(in.s.stmts, id)
	member := func(name string) *ast.DotExpression {
		return &ast.DotExpression{
			Left:       &ast.Identifier{Name: hookName, Idx: idx},
			Identifier: ast.Identifier{Name: unistring.String(name), Idx: idx},
		}
	}
	num := func(n int) ast.Expression {
		return &ast.NumberLiteral{Idx: idx, Literal: strconv.Itoa(n), Value: int64(n)}
	}
	call := func(name string, args ...ast.Expression) ast.Expression {
		return &ast.CallExpression{Callee: member(name), LeftParenthesis: idx, ArgumentList: args, RightParenthesis: idx}
	}
	args := []ast.Expression{num(id)}
	var back []ast.Expression
	if in.fn != nil {
		arr := &ast.ArrayLiteral{LeftBracket: idx, RightBracket: idx}
		for i, l := range info.locals {
			arr.Value = append(arr.Value, &ast.Identifier{Name: unistring.String(l.name), Idx: idx})
			if !l.konst {
				back = append(back, &ast.AssignExpression{
					Operator: token.ASSIGN,
					Left:     &ast.Identifier{Name: unistring.String(l.name), Idx: idx},
					Right:    call("back", num(i), &ast.Identifier{Name: unistring.String(l.name), Idx: idx}),
				})
			}
		}
		args = append(args, arr)
		if info.this {
			args = append(args, &ast.ThisExpression{Idx: idx})
		}
	}
	// `on && (hit(N, [a, b], this) && (a = back(0, a), b = back(1, b)))`:
	// nested to the right, so that with the hooks off it is one test and
	// one jump; the assignments store writes made while paused.
	e := call("hit", args...)
	if len(back) > 0 {
		e = &ast.BinaryExpression{Operator: token.LOGICAL_AND, Left: e, Right: &ast.SequenceExpression{Sequence: back}}
	}
	return in.hookStatement(idx, &ast.BinaryExpression{Operator: token.LOGICAL_AND, Left: &ast.Identifier{Name: onName, Idx: idx}, Right: e})
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
