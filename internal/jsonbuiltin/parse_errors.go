package jsonbuiltin

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// V8's messages for JSON.parse's SyntaxErrors (Node 20); each is followed by the position, in UTF-16 code units.
const (
	errAfterJSON          = "Unexpected non-whitespace character after JSON at position "
	errPropNameOrRBrace   = "Expected property name or '}' in JSON at position "
	errDoubleQuotedName   = "Expected double-quoted property name in JSON at position "
	errColon              = "Expected ':' after property name in JSON at position "
	errCommaOrRBrace      = "Expected ',' or '}' after property value in JSON at position "
	errCommaOrRBrack      = "Expected ',' or ']' after array element in JSON at position "
	errNoNumberAfterMinus = "No number after minus sign in JSON at position "
	errFraction           = "Unterminated fractional number in JSON at position "
	errExponent           = "Exponent part is missing a number in JSON at position "
	errUnterminated       = "Unterminated string in JSON at position "
	errControl            = "Bad control character in string literal in JSON at position "
	errEscape             = "Bad escaped character in JSON at position "
	errUnicodeEscape      = "Bad Unicode escape in JSON at position "
	errEnd                = "Unexpected end of JSON input"
)

// contextChars is how much of a long text V8 quotes on each side of an unexpected token.
const contextChars = 10

// fail throws the SyntaxError msg followed by the position of byte pos.
func (p *parser) fail(msg string, pos int) {
	p.failAt(msg, pos)
}

func (p *parser) failAt(msg string, pos int) {
	p.syntaxError(msg + strconv.Itoa(utf16Len(p.text[:pos])))
}

// unexpected throws V8's error for the token at byte pos where a value (or a literal's next letter) was expected.
func (p *parser) unexpected(pos int) {
	if pos >= len(p.text) {
		p.syntaxError(errEnd)
	}
	switch c := p.text[pos]; {
	case c == '"':
		p.failAt("Unexpected string in JSON at position ", pos)
	case c == '-' || isDigit(c):
		p.failAt("Unexpected number in JSON at position ", pos)
	}
	switch p.text {
	case "[object Object]", "undefined", "Infinity", "NaN": // what V8 says of a few values given for text
		p.syntaxError(`"` + p.text + `" is not valid JSON`)
	}
	tok, _ := utf8.DecodeRuneInString(p.text[pos:])
	units := utf16.Encode([]rune(p.text))
	at, n := utf16Len(p.text[:pos]), len(units)
	// The quoted part of the text is cut in code units, as V8 cuts it: a surrogate pair may be split.
	msg := func(before string, from, to int, after string) {
		m := utf16.Encode([]rune("Unexpected token '" + string(tok) + "', " + before))
		m = append(m, units[from:to]...)
		m = append(m, utf16.Encode([]rune(after))...)
		throwError(p.rt, "SyntaxError", goja.StringFromUTF16(m))
	}
	switch {
	case n <= 2*contextChars+1:
		msg(`"`, 0, n, `" is not valid JSON`)
	case at < contextChars:
		msg(`"`, 0, at+contextChars, `"... is not valid JSON`)
	case at < n-contextChars:
		msg(`..."`, at-contextChars, at+contextChars, `"... is not valid JSON`)
	default:
		msg(`..."`, at-contextChars, n, `" is not valid JSON`)
	}
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < utf8.RuneSelf {
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r > 0xFFFF {
			n++
		}
		n++
		i += size - 1
	}
	return n
}

// syntaxError throws a SyntaxError made by goja's own constructor (whatever the global SyntaxError holds now).
func (p *parser) syntaxError(msg string) {
	throwError(p.rt, "SyntaxError", p.rt.ToValue(msg))
}

// throwError throws new name(msg), name a constructor of the global object: goja's own where the template can be
// read, otherwise what the global holds.
func throwError(rt *goja.Runtime, name string, msg goja.Value) {
	v, ok := gojainternal.TemplateValue(rt, rt.GlobalObject(), name)
	if !ok {
		v = rt.Get(name)
	}
	ctor, ok := goja.AssertConstructor(v)
	if !ok {
		panic(rt.NewTypeError(msg.String()))
	}
	e, err := ctor(nil, msg)
	if err != nil {
		panic(err)
	}
	panic(e)
}
