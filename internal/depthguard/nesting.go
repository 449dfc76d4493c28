package depthguard

import (
	"errors"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// MaxNesting is the largest nesting estimate (Nesting) of a source text that Parse hands to goja's parser. goja's
// parser, its compiler and esbuild's parser recurse once or more per level of nesting with no limit of their own, and
// a Go stack overflow ends the process; V8 refuses text nested 1,500 to a few thousand levels deep with the same
// catchable RangeError. docs/limits.md (Recursion) gives the stack each form costs at the limit, and the margin.
const MaxNesting = 15000

// tooDeep is in the message of the error Parse returns for a text nested deeper than MaxNesting.
const tooDeep = "source nested too deeply: " + Message

// IsTooDeep reports whether err, from Parse, Compile or CheckNesting, says that the text is nested deeper than
// MaxNesting (and never reached a parser).
func IsTooDeep(err error) bool {
	var se *goja.CompilerSyntaxError
	return errors.As(err, &se) && se.File == nil && strings.Contains(se.Message, tooDeep)
}

// CheckNesting returns nil for a text whose nesting estimate is at most MaxNesting, and otherwise a
// *goja.CompilerSyntaxError (IsTooDeep) naming the text name: for every path that hands text to a parser that
// recurses (goja's, esbuild's) without going through Parse.
func CheckNesting(name, src string) error { return checkNesting(name, src, false) }

func checkNesting(name, src string, module bool) error {
	if nestingOf(src, MaxNesting, module, nil) <= MaxNesting {
		return nil
	}
	return &goja.CompilerSyntaxError{CompilerError: goja.CompilerError{Message: name + ": " + tooDeep}}
}

// TooDeepException returns the exception of the guard's RangeError (Message) in rt, as a script that overflowed
// throws it: for the paths that run a text CheckNesting refused as a script would have run (eval, the Function
// constructors, RunScript), where V8 throws the RangeError.
func TooDeepException(rt *goja.Runtime) error {
	fail, _, err := overflowFor(rt)
	if err != nil {
		return err
	}
	f, ok := goja.AssertFunction(rt.ToValue(func(goja.FunctionCall) goja.Value { fail(); return nil }))
	if !ok {
		return errors.New("depthguard: " + Message) // not reached: a Go function is callable
	}
	_, err = f(goja.Undefined())
	return err
}

// Nesting returns an upper bound of the depth of the syntax tree goja's parser makes of src, and of the recursion its
// parser, its compiler and this repository's tree walkers perform on it, in levels: what Parse compares with
// MaxNesting. It reads src once, with a lexer of its own (strings, template literals, comments, regular expression
// literals told from division the way the grammar tells them) and counts:
//
//   - a level for every bracket, (, [, { and ${, and for every bracketed group (a call, an index, a template) that a
//     chain continues from;
//   - per bracket level, a level for every operator character (binary operators make a left-deep tree, assignment,
//     conditional, ** and => a right-deep one, prefix operators and new a chain), for every operator keyword (new,
//     typeof, in, …) and for every statement that nests the next one (if, else, for, while, do, with, a label);
//   - the deepest bracketed group of a chain beneath every operator of the chain, since a left-deep tree puts its
//     first operand lowest.
//
// An expression's count restarts where the chain provably ends: after a comma (the parts of a sequence, of an argument
// list, an array or an object literal are siblings) and at the end of a statement (a semicolon, a block's closing
// brace, a line break where no expression can go on: after an operand, before a word, a number or a string); a
// statement's count survives a comma and comes back for else, catch, finally and a do statement's while. Where the
// text leaves the scan a choice, it takes the one that counts more.
//
// A text that is not JavaScript gets an estimate too (unclosed brackets count as closed at its end): Parse refuses it
// before the parser says what is wrong with it only when it would be too deep.
func Nesting(src string) int { return nesting(src, -1, nil) }

// CheckModuleNesting is CheckNesting for the source of an ES module, whose top level reads await as a keyword.
func CheckModuleNesting(name, src string) error { return checkNesting(name, src, true) }

// Kinds of literal nesting reports to a recorder (the fuzz test compares their offsets with goja's tree).
const (
	litString   = 's'
	litTemplate = 't'
	litRegExp   = 'r'
)

// Classes of the last token read, for the regular-expression/division choice and for line breaks.
const (
	clsNone    = iota // the start of the text, or a token after which an expression may start: operators, ( [ { , ;
	clsOperand        // an operand ends here: a / divides and a line break before a word ends the statement
	clsHeader         // the ) of if (…), while (…), for (…), with (…), switch (…), catch (…): a statement follows
	clsBlock          // the } of a block statement or of a declaration: a statement follows
)

// Kinds of a { level.
const (
	braceObject = iota // an object literal, a class body or not known: no statement ends inside
	braceBlock         // a block statement: a statement list, and a statement ends at its }
	braceBody          // a function body: a statement list, and the function is an operand at its }
	braceDecl          // the body of a function or class declaration: a statement list, and a statement ends at its }
)

// nestLevel is one bracket level of the scan: ( [ { ${ (open '$'), a template literal (open '`') or the whole text
// (open 0).
type nestLevel struct {
	open  byte
	brace int  // for '{': braceObject, …
	head  bool // for '(': the parenthesis of if, while, for, with, switch or catch
	call  bool // the group follows an operand (a call, an index, a tagged template): one more link of a chain
	decl  bool // a function or class declaration began at this level: its body is the next { here
	stmts bool // the level holds a statement list (a line break may end a statement)

	// await and yield are keywords here (an async function's, a generator's body, a module's top level), else
	// identifiers: a / after one starts a regular expression only where it is a keyword, as in the grammar.
	async, gen bool
	// A function header of this level whose body is the next { here: async (async function, async method, async
	// arrow) or a generator (function*, *method); arrowAsync: an async arrow's expression body is this level's.
	pendAsync, pendGen, arrowAsync bool

	base  int // the levels above this one, on the path from the root
	stmt  int // statements nesting the current one (if, else, for, while, with, labels)
	dos   int // do statements whose while has not come yet
	ops   int // operators of the current expression
	child int // the deepest bracketed group of the current expression, counted from this level

	saved  int  // stmt at the last end of a statement, for else, catch, finally and do's while
	ended  bool // the last token ended a statement
	tern   int  // conditional ? waiting for their :
	caseOp bool // a case or default waits for its :

	height int // the deepest the level has been, counted from it
}

func (l *nestLevel) cur() int { return l.stmt + l.dos + l.ops + l.child }

// fold records the current expression's depth in the level's height.
func (l *nestLevel) fold() {
	if c := l.cur(); c > l.height {
		l.height = c
	}
}

// endExpr ends the current expression (a comma): its operators and groups no longer nest what follows.
func (l *nestLevel) endExpr() {
	l.fold()
	l.ops, l.child, l.tern = 0, 0, 0
	l.pendAsync, l.pendGen, l.arrowAsync = false, false, false
}

// endStmt ends the current statement: the statements nesting it no longer nest what follows, unless a
// continuation (else, catch, finally, do's while) brings them back.
func (l *nestLevel) endStmt() {
	l.endExpr()
	l.saved, l.stmt, l.ended, l.caseOp = l.stmt, 0, true, false
}

// nestScan is the state of one Nesting scan.
type nestScan struct {
	src   string
	i     int
	limit int // stop once the estimate passes it (negative: never)
	stack []nestLevel
	prev  int    // the class of the last token (clsNone, …)
	word  string // the last token when it was a keyword (not after . or ?.), else ""
	word2 string // the keyword before it, if it was one
	dot   bool   // the last token was . or ?.: a word now is a property name
	nl    bool   // a line terminator came since the last token
	start bool   // the last token leaves the scan where a statement starts
	arrow bool   // the last token was =>
	paren bool   // the last token was a ) that closed no statement header: a { now is a function body
	async bool   // the last token was async where a statement starts
	max   int    // the deepest level reached so far (path sum), for stopping early
	rec   func(kind byte, off int)
}

// nesting scans src (Nesting), stopping early once the estimate passes limit (when limit ≥ 0). rec, when not nil,
// is told the offset of every string, template and regular expression literal, in order.
func nesting(src string, limit int, rec func(kind byte, off int)) int {
	return nestingOf(src, limit, false, rec)
}

// nestingOf is nesting, of a module's source when module.
func nestingOf(src string, limit int, module bool, rec func(kind byte, off int)) int {
	s := &nestScan{src: src, limit: limit, rec: rec, stack: make([]nestLevel, 1, 16)}
	s.stack[0].stmts = true
	s.stack[0].async = module
	s.start = true
	if strings.HasPrefix(src, "#!") {
		s.skipLine()
	}
	for s.i < len(s.src) {
		if s.limit >= 0 && s.max > s.limit {
			return s.max
		}
		if s.top().open == '`' {
			s.templateChars()
			continue
		}
		s.step()
	}
	for len(s.stack) > 1 {
		s.close()
	}
	top := s.top()
	top.fold()
	if top.height < s.max {
		return s.max
	}
	return top.height
}

func (s *nestScan) top() *nestLevel { return &s.stack[len(s.stack)-1] }

// note records the path depth at the current point of the top level.
func (s *nestScan) note() {
	l := s.top()
	if d := l.base + l.cur(); d > s.max {
		s.max = d
	}
}

// token sets the class of the token just read, and whether it was a keyword.
func (s *nestScan) token(cls int, word string) {
	s.prev, s.word2, s.word, s.nl, s.dot = cls, s.word, word, false, false
	s.start, s.arrow, s.paren = false, false, false
}

// push opens a bracket level at the top one, one level below the top's current point.
func (s *nestScan) push(open byte) *nestLevel {
	p := s.top()
	base := p.base + p.stmt + p.dos + p.ops + 1
	s.stack = append(s.stack, nestLevel{open: open, base: base, call: s.prev == clsOperand, async: p.async || p.arrowAsync,
		gen: p.gen})
	l := s.top()
	if base > s.max {
		s.max = base
	}
	return l
}

// close closes the top bracket level: the group it was is one operand (a call, an index, a template, a literal)
// of the expression of the level below, which its depth nests under.
func (s *nestScan) close() nestLevel {
	l := s.stack[len(s.stack)-1]
	l.fold()
	s.stack = s.stack[:len(s.stack)-1]
	p := s.top()
	if h := l.height + 1; h > p.child {
		p.child = h
	}
	if l.call {
		p.ops++
	}
	p.ended = false
	s.note()
	return l
}

// lineEnds reports whether a line break before a token (a word, a number or a string: not an operator, not a
// bracket) ends the statement before it: after an operand, in a statement list, no expression can
// go on with a word, a number or a string.
func (s *nestScan) lineEnds(word string) bool {
	if !s.nl || s.prev != clsOperand || !s.top().stmts {
		return false
	}
	return word != "in" && word != "instanceof"
}

// step reads the next token at a bracket level.
func (s *nestScan) step() {
	c := s.src[s.i]
	switch {
	case c == '\n' || c == '\r':
		s.nl = true
		s.i++
		return
	case c == ' ' || c == '\t' || c == '\v' || c == '\f':
		s.i++
		return
	case c >= utf8.RuneSelf:
		r, n := utf8.DecodeRuneInString(s.src[s.i:])
		if r == '\u2028' || r == '\u2029' {
			s.nl = true
			s.i += n
			return
		}
		if unicode.IsSpace(r) || r == '\ufeff' {
			s.i += n
			return
		}
		s.word1()
		return
	case isWordByte(c):
		s.word1()
		return
	case c >= '0' && c <= '9' || c == '.' && s.i+1 < len(s.src) && s.src[s.i+1] >= '0' && s.src[s.i+1] <= '9':
		if s.lineEnds("") {
			s.top().endStmt()
		}
		s.number()
		s.token(clsOperand, "")
		return
	case c == '"' || c == '\'':
		if s.lineEnds("") {
			s.top().endStmt()
		}
		s.string1(c)
		s.token(clsOperand, "")
		return
	case c == '`':
		if s.rec != nil {
			s.rec(litTemplate, s.i)
		}
		s.i++
		s.push('`')
		return
	case c == '/':
		if s.i+1 < len(s.src) && s.src[s.i+1] == '/' {
			s.skipLine()
			return
		}
		if s.i+1 < len(s.src) && s.src[s.i+1] == '*' {
			s.blockComment()
			return
		}
		if s.prev != clsOperand {
			s.regexp()
			s.token(clsOperand, "")
			return
		}
	}
	s.punct(c)
}

// punct reads a punctuator c.
func (s *nestScan) punct(c byte) {
	l := s.top()
	l.ended = false
	s.i++
	switch c {
	case '(':
		head := false
		if !s.dot {
			switch s.word {
			case "if", "while", "for", "with", "switch", "catch":
				head = true
			case "await":
				head = s.word2 == "for"
			}
		}
		s.push('(').head = head
		s.token(clsNone, "")
	case '[':
		s.push('[')
		s.token(clsNone, "")
	case '{':
		kind := braceObject
		switch {
		case l.decl:
			kind, l.decl = braceDecl, false
		case s.paren || s.arrow:
			kind = braceBody
		case s.start || s.word == "else" || s.word == "do" || s.word == "try" || s.word == "finally" ||
			s.word == "catch" || s.nl && s.prev == clsOperand && l.stmts:
			kind = braceBlock
		}
		n := s.push('{')
		n.brace = kind
		n.stmts = kind != braceObject
		if kind == braceBody || kind == braceDecl { // a function's body: its own await and yield
			p := &s.stack[len(s.stack)-2]
			n.async, n.gen = p.pendAsync, p.pendGen
			p.pendAsync, p.pendGen = false, false
		}
		s.token(clsNone, "")
		s.start = n.stmts
	case ')', ']', '}':
		if c == '}' && l.open == '$' {
			s.close() // back to the template's characters
			return
		}
		if len(s.stack) == 1 {
			l.ops++ // a stray closing bracket: a syntax error, counted as an operator
			s.note()
			s.token(clsNone, "")
			return
		}
		closed := s.close()
		switch {
		case closed.open == '(' && closed.head:
			s.token(clsHeader, "")
			s.start = true
		case closed.open == '{' && (closed.brace == braceBlock || closed.brace == braceDecl):
			s.top().endStmt()
			s.token(clsBlock, "")
			s.start = true
		default:
			s.token(clsOperand, "")
			s.paren = closed.open == '('
		}
	case ',':
		l.endExpr()
		s.token(clsNone, "")
	case ';':
		l.endStmt()
		s.token(clsNone, "")
		s.start = l.stmts
	case ':':
		label := false
		switch {
		case l.tern > 0:
			l.tern--
			l.ops++
		case l.caseOp:
			l.endStmt()
			label = true
		case l.stmts:
			l.stmt++ // a label
			label = true
		default:
			l.ops++
		}
		s.note()
		s.token(clsNone, "")
		s.start = label
	case '?':
		next := byte(0)
		if s.i < len(s.src) {
			next = s.src[s.i]
		}
		digit := s.i+1 < len(s.src) && s.src[s.i+1] >= '0' && s.src[s.i+1] <= '9'
		switch {
		case next == '.' && !digit:
			l.ops += 2
			s.i++
			s.note()
			s.token(clsNone, "")
			s.dot = true
			return
		case next == '?':
			l.ops += 2
			s.i++
		default:
			l.tern++
			l.ops++
		}
		s.note()
		s.token(clsNone, "")
	case '.':
		l.ops++
		s.note()
		s.token(clsNone, "")
		s.dot = !(s.i < len(s.src) && s.src[s.i] == '.') && !(s.i >= 2 && s.src[s.i-2] == '.')
	case '+', '-':
		if s.i < len(s.src) && s.src[s.i] == c { // ++ or --
			s.i++
			l.ops += 2
			s.note()
			if s.prev == clsOperand && !s.nl {
				s.token(clsOperand, "") // postfix: an operand still ends here
				return
			}
			s.token(clsNone, "")
			return
		}
		l.ops++
		s.note()
		s.token(clsNone, "")
	default: // = * / % & | ^ ! ~ < > and anything else
		if c == '*' && (s.word == "function" || s.prev != clsOperand || s.word == "async" && l.open == '{') {
			l.pendGen = true // function*, *method, async *method: a generator's body comes
		}
		l.ops++
		s.note()
		s.token(clsNone, "")
		s.arrow = c == '>' && s.i >= 2 && s.src[s.i-2] == '='
		if s.arrow && l.pendAsync {
			l.arrowAsync = true // async x => …: await is a keyword in the body, here
		}
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c == '\\' || c == '#'
}

// word1 reads an identifier, a keyword or a private name.
func (s *nestScan) word1() {
	start := s.i
	for s.i < len(s.src) {
		c := s.src[s.i]
		if isWordByte(c) || c >= '0' && c <= '9' {
			s.i++
			if c == '\\' && s.i < len(s.src) {
				s.i++ // \uXXXX or \u{…}: the u, then its hex digits and braces as word bytes
				if s.i < len(s.src) && s.src[s.i] == '{' {
					for s.i < len(s.src) && s.src[s.i] != '}' {
						s.i++
					}
					if s.i < len(s.src) {
						s.i++
					}
				}
			}
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s.src[s.i:])
			if r == '\u2028' || r == '\u2029' || unicode.IsSpace(r) || r == '\ufeff' {
				break
			}
			s.i += n
			continue
		}
		break
	}
	w := s.src[start:s.i]
	l := s.top()
	if s.dot {
		s.token(clsOperand, "") // a property name, keyword or not
		return
	}
	if s.lineEnds(w) {
		l.endStmt()
		s.start = true
	}
	cont := l.ended
	l.ended = false
	switch w {
	case "this", "super", "null", "true", "false":
		s.token(clsOperand, "")
		return
	case "if", "for", "with":
		l.stmt++
	case "while":
		if cont && l.dos > 0 { // a do statement's while
			l.dos--
			l.stmt = l.saved
		} else {
			l.stmt++
		}
	case "do":
		l.dos++
	case "else":
		if cont {
			l.stmt = l.saved
		}
		l.stmt++
	case "catch", "finally": // the try statement goes on: its clause nests its block
		if cont {
			l.stmt = l.saved
		}
		l.stmt += 2
	case "case", "default":
		l.caseOp = true
	case "function", "class":
		if s.start || s.word == "async" && s.async || s.word == "export" {
			l.decl = true
		}
		if w == "function" {
			l.pendAsync, l.pendGen = s.word == "async", false
		}
		l.ops++
	case "async":
		start := s.start
		l.pendAsync = true // an async function, method or arrow may follow
		l.ops++
		s.note()
		s.token(clsOperand, "") // an identifier unless function follows; as one, a / after it divides
		s.word, s.async = "async", start
		return
	case "await", "yield": // keywords only in an async function or a generator (and await in a module)
		if w == "await" && !(l.async || l.arrowAsync) || w == "yield" && !l.gen {
			s.token(clsOperand, "")
			return
		}
		l.ops++
	case "new", "typeof", "void", "delete", "in", "instanceof", "extends", "return", "throw",
		"var", "const", "import", "export", "break", "continue", "debugger", "try", "switch":
		l.ops++
	case "of": // for (x of …): a keyword right after the for's binding, else an identifier
		if l.open != '(' || !l.head || s.prev != clsOperand {
			s.token(clsOperand, "")
			return
		}
		l.ops++
	default:
		s.token(clsOperand, "")
		return
	}
	s.note()
	s.token(clsNone, w)
	s.start = w == "else" || w == "do"
}

// number reads a numeric literal: digits, letters (hex digits, exponent, radix prefix, BigInt n), _ and dots; a
// sign only after the exponent of a decimal literal.
func (s *nestScan) number() {
	hex := s.src[s.i] == '0' && s.i+1 < len(s.src) && (s.src[s.i+1]|0x20 == 'x')
	for s.i < len(s.src) {
		c := s.src[s.i]
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' {
			s.i++
			if !hex && (c == 'e' || c == 'E') && s.i < len(s.src) && (s.src[s.i] == '+' || s.src[s.i] == '-') {
				s.i++
			}
			continue
		}
		break
	}
}

// string1 reads a string literal quoted with q: escapes (a backslash before a line terminator continues the line),
// ended by q or, unterminated, by a line terminator.
func (s *nestScan) string1(q byte) {
	if s.rec != nil {
		s.rec(litString, s.i)
	}
	s.i++
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch c {
		case q:
			s.i++
			return
		case '\\':
			s.i += 2
			if s.i <= len(s.src) && s.src[s.i-1] == '\r' && s.i < len(s.src) && s.src[s.i] == '\n' {
				s.i++
			}
			continue
		case '\n', '\r':
			return
		}
		s.i++
	}
}

// templateChars reads a template literal's characters up to its closing backquote or its next ${.
func (s *nestScan) templateChars() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case '`':
			s.i++
			s.close()
			s.token(clsOperand, "")
			return
		case '\\':
			s.i += 2
			continue
		case '$':
			if s.i+1 < len(s.src) && s.src[s.i+1] == '{' {
				s.i += 2
				n := s.push('$')
				n.stmts = false
				s.token(clsNone, "")
				return
			}
		}
		s.i++
	}
}

// regexp reads a regular expression literal: up to the / that ends it outside a class [...], escapes skipped, then
// its flags; unterminated, up to a line terminator.
func (s *nestScan) regexp() {
	if s.rec != nil {
		s.rec(litRegExp, s.i)
	}
	s.i++
	class := false
	for s.i < len(s.src) {
		c := s.src[s.i]
		if end, n := s.atLineEnd(); end {
			return
		} else if n > 1 {
			s.i += n
			continue
		}
		switch {
		case c == '\\':
			s.i += 2
			continue
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			s.i++
			for s.i < len(s.src) && (isWordByte(s.src[s.i]) || s.src[s.i] >= '0' && s.src[s.i] <= '9') {
				s.i++
			}
			return
		}
		s.i++
	}
}

// skipLine skips a line comment (or a hashbang), up to its line terminator.
func (s *nestScan) skipLine() {
	for s.i < len(s.src) {
		end, n := s.atLineEnd()
		if end {
			return
		}
		s.i += n
	}
}

// atLineEnd reports whether a line terminator starts at s.i (< len(s.src)), and the width of the character there.
func (s *nestScan) atLineEnd() (bool, int) {
	c := s.src[s.i]
	if c == '\n' || c == '\r' {
		return true, 1
	}
	if c < utf8.RuneSelf {
		return false, 1
	}
	r, n := utf8.DecodeRuneInString(s.src[s.i:])
	return r == '\u2028' || r == '\u2029', n
}

// blockComment skips a /* */ comment; one that holds a line terminator counts as a line break.
func (s *nestScan) blockComment() {
	end := strings.Index(s.src[s.i+2:], "*/")
	body := s.src[s.i:]
	if end < 0 {
		s.i = len(s.src)
	} else {
		body = s.src[s.i : s.i+2+end]
		s.i += 2 + end + 2
	}
	if strings.ContainsAny(body, "\n\r\u2028\u2029") {
		s.nl = true
	}
}
