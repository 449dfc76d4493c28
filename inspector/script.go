// The script model: what the Debugger records of each instrumented source —
// its statements (the places a hook can pause), throws and raise sites — and
// Compile, the entry point that instruments and registers a script.

package inspector

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/jsworker/jsworker/internal/depthguard"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
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

// A throwInfo is one instrumented `throw` statement.
type throwInfo struct {
	script    *script
	line, col int  // 0-based, as in stmtInfo
	caught    bool // lexically inside the block of a try with a catch clause, in the same function
	async     bool // in an async function: uncaught, it rejects the function's promise
	inFn      bool // in a function: the hook gets locals and reports whether they were written
	locals    []local
	this      bool
}

// sourceURLComment matches a line that is only a `//# sourceURL=name`
// comment (or the old `//@` form).
var sourceURLComment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*//[#@][ \t]*sourceURL=[ \t]*([^\s'"]+)[ \t]*\r?$`)
})

// sourceURL returns the name of source's last sourceURL comment line and
// true, or url and false when there is none.
func sourceURL(source, url string) (string, bool) {
	if !strings.Contains(source, "sourceURL=") {
		return url, false
	}
	m := sourceURLComment().FindAllStringSubmatch(source, -1)
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
	prg, err := depthguard.Parse(url, source)
	if err != nil {
		return nil, err
	}
	sc := d.newScript(url, source)
	sc.url, sc.hasURL = sourceURL(source, sc.url)
	return d.instrument(sc, prg, false, nil)
}

// newScript returns the script record of source, numbered next.
func (d *Debugger) newScript(url, source string) *script {
	sum := sha256.Sum256([]byte(source))
	sc := &script{
		id:     strconv.Itoa(len(d.scripts) + 1),
		url:    fileURL(url),
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
	in := instrumenter{d: d, s: sc, prg: prg, skip: skip, topHooks: make(map[ast.Statement]bool)}
	in.walk(prg)
	if !sc.module {
		in.guardTop(prg)
	}
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
