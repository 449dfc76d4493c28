package jsonbuiltin

import (
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Parse is JSON.parse(text, reviver) in r's realm: text is the string ToString made of the first argument, reviver
// the second argument (undefined, or anything not callable, for none). It throws (panics with a goja value) a
// SyntaxError with V8's message for text that is not JSON, Overflow's RangeError for text nested deeper than
// MaxParseDepth, and the realm's interruption when it is stopped.
//
// A text that is not in goja's ASCII representation is read as UTF-8 (goja's String()), so a lone surrogate
// written raw in the text reads as U+FFFD, as with goja's own parse; an escaped one (\ud800) is kept.
func Parse(r *Realm, text goja.String, reviver goja.Value) goja.Value {
	p := parser{r: r, rt: r.RT, text: text.String(), st: stepper{r: r}, fill: gojainternal.CanFillPlain()}
	v := p.parse()
	if fn, ok := goja.AssertFunction(reviver); ok {
		return revive(r, &p.st, v, fn)
	}
	return v
}

// A parser reads one text. It never recurses: open arrays and objects are frames on a stack of its own, their
// members so far in the shared slices vals and names.
type parser struct {
	r    *Realm
	rt   *goja.Runtime
	text string
	pos  int
	st   stepper
	fill bool // gojainternal.FillPlainObject works

	frames []frame
	vals   []goja.Value
	names  []unistring.String
	items  []any                       // NewArray's arguments
	keys   map[string]unistring.String // keys seen, each converted once
	ints   []int64                     // a slab for gojainternal.NewInt
	u16    []uint16                    // an escaped string being decoded
}

// A frame is an array or object being read: its members start at vals[base] (and names[nbase] for an object).
type frame struct {
	object      bool
	base, nbase int
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *parser) skipSpace() {
	for p.pos < len(p.text) && isSpace(p.text[p.pos]) {
		p.pos++
	}
}

// What parse counts as made, for the realm's memory accounting (Realm.Building): a low estimate of what goja holds
// for each value — its slot in the array or object that holds it, and the bytes of its text (a string's characters,
// a number's digits) — and for each array or object, its own header.
const (
	valueBytes     = 16
	containerBytes = 128
)

// parse reads the whole text: one value and nothing after it but white space. What it made stops counting in the
// realm's Building as it returns.
func (p *parser) parse() goja.Value {
	defer p.st.release()
	v := p.value()
	p.skipSpace()
	if p.pos < len(p.text) {
		p.fail(errAfterJSON, p.pos)
	}
	return v
}

// value reads one value, nested ones included, iteratively.
func (p *parser) value() goja.Value {
	var v goja.Value
	for {
		p.st.step(1)
		p.skipSpace()
		if p.pos >= len(p.text) {
			p.unexpected(p.pos)
		}
		start := p.pos
		switch c := p.text[p.pos]; {
		case c == '{' || c == '[':
			if len(p.frames) >= MaxParseDepth {
				p.r.overflow()
			}
			p.pos++
			p.skipSpace()
			if c == '[' {
				if p.pos < len(p.text) && p.text[p.pos] == ']' {
					p.pos++
					v = p.rt.NewArray()
					break
				}
				p.frames = append(p.frames, frame{base: len(p.vals)})
				continue
			}
			if p.pos < len(p.text) && p.text[p.pos] == '}' {
				p.pos++
				v = p.rt.NewObject()
				break
			}
			p.frames = append(p.frames, frame{object: true, base: len(p.vals), nbase: len(p.names)})
			p.member(errPropNameOrRBrace)
			continue
		case c == '"':
			v = p.stringValue()
		case c == '-' || c >= '0' && c <= '9':
			v = p.number()
		case c == 't':
			p.literal("true")
			v = p.rt.ToValue(true)
		case c == 'f':
			p.literal("false")
			v = p.rt.ToValue(false)
		case c == 'n':
			p.literal("null")
			v = goja.Null()
		default:
			p.unexpected(p.pos)
		}
		// v is complete: add it to the open frames, closing those it completes.
		p.st.built += valueBytes + int64(p.pos-start)
		for {
			if len(p.frames) == 0 {
				return v
			}
			f := &p.frames[len(p.frames)-1]
			p.vals = append(p.vals, v)
			p.skipSpace()
			if p.pos < len(p.text) && p.text[p.pos] == ',' {
				p.pos++
				if f.object {
					p.skipSpace()
					p.member(errDoubleQuotedName)
				}
				break
			}
			if !f.object {
				if p.pos >= len(p.text) || p.text[p.pos] != ']' {
					p.fail(errCommaOrRBrack, p.pos)
				}
				p.pos++
				v = p.array(p.vals[f.base:])
				p.vals = p.vals[:f.base]
			} else {
				if p.pos >= len(p.text) || p.text[p.pos] != '}' {
					p.fail(errCommaOrRBrace, p.pos)
				}
				p.pos++
				v = p.object(p.names[f.nbase:], p.vals[f.base:])
				p.vals, p.names = p.vals[:f.base], p.names[:f.nbase]
			}
			p.frames = p.frames[:len(p.frames)-1]
			p.st.built += valueBytes + containerBytes
		}
	}
}

// member reads a property name and its colon; msg is the error when there is no name.
func (p *parser) member(msg string) {
	if p.pos >= len(p.text) || p.text[p.pos] != '"' {
		p.fail(msg, p.pos)
	}
	p.names = append(p.names, p.key())
	p.skipSpace()
	if p.pos >= len(p.text) || p.text[p.pos] != ':' {
		p.fail(errColon, p.pos)
	}
	p.pos++
}

// array makes an array of vals.
func (p *parser) array(vals []goja.Value) goja.Value {
	items := p.items[:0]
	for _, v := range vals {
		items = append(items, v)
	}
	a := p.rt.NewArray(items...)
	clear(items)
	p.items = items[:0]
	return a
}

// object makes a plain object with the properties names[i]: vals[i], each made as CreateDataProperty does (a name
// given twice keeps its first place and its last value).
func (p *parser) object(names []unistring.String, vals []goja.Value) goja.Value {
	o := p.rt.NewObject()
	if p.fill && gojainternal.FillPlainObject(o, names, vals) {
		return o
	}
	for i, n := range names {
		_ = o.DefineDataProperty(n.String(), vals[i], goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	return o
}

func (p *parser) literal(word string) {
	for i := 0; i < len(word); i++ {
		if p.pos+i >= len(p.text) || p.text[p.pos+i] != word[i] {
			p.unexpected(p.pos + i)
		}
	}
	p.pos += len(word)
}

// number reads a number.
func (p *parser) number() goja.Value {
	start := p.pos
	neg := p.text[p.pos] == '-'
	if neg {
		p.pos++
		if p.pos >= len(p.text) || !isDigit(p.text[p.pos]) {
			p.fail(errNoNumberAfterMinus, p.pos)
		}
	}
	intStart := p.pos
	if p.text[p.pos] == '0' {
		p.pos++
		if p.pos < len(p.text) && isDigit(p.text[p.pos]) {
			p.failAt("Unexpected number in JSON at position ", p.pos)
		}
	} else {
		for p.pos < len(p.text) && isDigit(p.text[p.pos]) {
			p.pos++
		}
	}
	integer := true
	if p.pos < len(p.text) && p.text[p.pos] == '.' {
		integer = false
		p.pos++
		if p.pos >= len(p.text) || !isDigit(p.text[p.pos]) {
			p.fail(errFraction, p.pos)
		}
		for p.pos < len(p.text) && isDigit(p.text[p.pos]) {
			p.pos++
		}
	}
	if p.pos < len(p.text) && (p.text[p.pos] == 'e' || p.text[p.pos] == 'E') {
		integer = false
		p.pos++
		if p.pos < len(p.text) && (p.text[p.pos] == '+' || p.text[p.pos] == '-') {
			p.pos++
		}
		if p.pos >= len(p.text) || !isDigit(p.text[p.pos]) {
			p.fail(errExponent, p.pos)
		}
		for p.pos < len(p.text) && isDigit(p.text[p.pos]) {
			p.pos++
		}
	}
	if integer && p.pos-intStart <= 15 {
		var n int64
		for i := intStart; i < p.pos; i++ {
			n = n*10 + int64(p.text[i]-'0')
		}
		if neg {
			if n == 0 {
				return p.rt.ToValue(math.Copysign(0, -1))
			}
			n = -n
		}
		return p.int(n)
	}
	f, _ := strconv.ParseFloat(p.text[start:p.pos], 64) // ±Inf past the largest double, as in JSON.parse
	return p.rt.ToValue(f)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// int returns the goja integer n, from a slab where gojainternal can assemble one.
func (p *parser) int(n int64) goja.Value {
	if len(p.ints) == 0 {
		p.ints = make([]int64, 256)
	}
	p.ints[0] = n
	if v := gojainternal.NewInt(&p.ints[0]); v != nil {
		p.ints = p.ints[1:]
		return v
	}
	return p.rt.ToValue(n)
}

// scanString reads the string literal at pos: the text between the quotes, and whether it holds escapes (then
// decode must make the string). pos ends after the closing quote.
func (p *parser) scanString() (raw string, escaped bool) {
	p.pos++
	start, polled := p.pos, p.pos
	for p.pos < len(p.text) {
		c := p.text[p.pos]
		if p.pos-polled >= 1<<16 { // a long string: a step each 256 bytes, counted every 64 KiB
			p.st.step(1 << 8)
			polled = p.pos
		}
		switch {
		case c == '"':
			raw = p.text[start:p.pos]
			p.pos++
			p.st.step((p.pos - polled) >> 8)
			return raw, escaped
		case c == '\\':
			escaped = true
			p.pos++
			if p.pos >= len(p.text) {
				p.unexpected(p.pos)
			}
			switch p.text[p.pos] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos++
			case 'u':
				p.pos++
				for i := 0; i < 4; i++ {
					if p.pos >= len(p.text) || hexVal(p.text[p.pos]) < 0 {
						p.fail(errUnicodeEscape, p.pos)
					}
					p.pos++
				}
			default:
				p.fail(errEscape, p.pos)
			}
		case c < 0x20:
			p.fail(errControl, p.pos)
		default:
			p.pos++
		}
	}
	p.fail(errUnterminated, p.pos)
	return "", false
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// decode turns the payload of a string literal with escapes (valid: scanString checked it) into UTF-16 code
// units, p.u16[1:], after a byte-order mark at p.u16[0] (unistring's form); it reports whether all are ASCII.
func (p *parser) decode(raw string) (ascii bool) {
	u := append(p.u16[:0], unistring.BOM)
	ascii = true
	for i := 0; i < len(raw); {
		c := raw[i]
		if c == '\\' {
			var unit uint16
			switch raw[i+1] {
			case 'b':
				unit = '\b'
			case 'f':
				unit = '\f'
			case 'n':
				unit = '\n'
			case 'r':
				unit = '\r'
			case 't':
				unit = '\t'
			case 'u':
				unit = uint16(hexVal(raw[i+2])<<12 | hexVal(raw[i+3])<<8 | hexVal(raw[i+4])<<4 | hexVal(raw[i+5]))
				i += 4
			default:
				unit = uint16(raw[i+1])
			}
			i += 2
			if unit >= 0x80 {
				ascii = false
			}
			u = append(u, unit)
			continue
		}
		if c < 0x80 {
			u = append(u, uint16(c))
			i++
			continue
		}
		ascii = false
		j := i + 1
		for j < len(raw) && raw[j] >= 0x80 {
			j++
		}
		for _, r := range raw[i:j] {
			if r > 0xFFFF {
				r -= 0x10000
				u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			} else {
				u = append(u, uint16(r))
			}
		}
		i = j
	}
	p.u16 = u
	return ascii
}

func (p *parser) asciiOf(u []uint16) string {
	var b strings.Builder
	b.Grow(len(u))
	for _, c := range u {
		b.WriteByte(byte(c))
	}
	return b.String()
}

// stringValue reads a string literal as a value.
func (p *parser) stringValue() goja.Value {
	raw, escaped := p.scanString()
	if !escaped {
		return p.rt.ToValue(strings.Clone(raw)) // a copy: a small string must not keep a large text alive
	}
	if p.decode(raw) {
		return p.rt.ToValue(p.asciiOf(p.u16[1:]))
	}
	return goja.StringFromUTF16(p.u16[1:])
}

// key reads a string literal as a property name; names seen before are converted once.
func (p *parser) key() unistring.String {
	raw, escaped := p.scanString()
	if !escaped {
		if k, ok := p.keys[raw]; ok {
			return k
		}
		c := strings.Clone(raw)
		k := unistring.NewFromString(c)
		if p.keys == nil {
			p.keys = make(map[string]unistring.String)
		}
		if len(p.keys) < 4096 {
			p.keys[c] = k
		}
		return k
	}
	if p.decode(raw) {
		return unistring.String(p.asciiOf(p.u16[1:]))
	}
	return unistring.FromUtf16(append([]uint16(nil), p.u16...))
}
