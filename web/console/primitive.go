package console

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/dop251/goja"
)

// formatPrimitive is Node's formatPrimitive: strings quoted and escaped
// (long ones cut at maxStringLength and, inside objects, split at their
// newlines), -0, 1n, Symbol(x), undefined, null, booleans.
func (in *inspector) formatPrimitive(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	if goja.IsNull(v) {
		return "null"
	}
	switch x := v.(type) {
	case goja.String:
		units := toUnits(x)
		trailer := ""
		if len(units) > in.maxString {
			rem := len(units) - in.maxString
			units = units[:in.maxString]
			trailer = "... " + strconv.Itoa(rem) + " more character"
			if rem > 1 {
				trailer += "s"
			}
		}
		if in.o.Compact != CompactTrue && len(units) > 16 && len(units) > in.o.BreakLength-in.indent-4 {
			var parts []string
			start := 0
			for i, u := range units {
				if u == '\n' && i+1 < len(units) {
					parts = append(parts, strEscapeUnits(units[start:i+1]))
					start = i + 1
				}
			}
			parts = append(parts, strEscapeUnits(units[start:]))
			return strings.Join(parts, " +\n"+spaces(in.indent+2)) + trailer
		}
		return strEscapeUnits(units) + trailer
	case *goja.Symbol:
		return escapeSequences(symbolString(x))
	}
	return in.formatNumber(v)
}

// formatNumber prints a number as JavaScript does, but -0 as -0, and a
// BigInt with its n; with NumericSeparator, digits are grouped as Node
// groups them.
func (in *inspector) formatNumber(v goja.Value) string {
	switch x := v.Export().(type) {
	case float64:
		if !in.o.NumericSeparator {
			if x == 0 && math.Signbit(x) {
				return "-0"
			}
			break
		}
		integer := math.Trunc(x)
		is := in.p.rt.ToValue(integer).String()
		if integer == x {
			if math.IsInf(x, 0) || strings.Contains(is, "e") {
				return is
			}
			return addNumericSeparator(is)
		}
		if math.IsNaN(x) {
			return is
		}
		full := v.String()
		frac := ""
		if len(is)+1 <= len(full) {
			frac = full[len(is)+1:]
		}
		return addNumericSeparator(is) + "." + addNumericSeparatorEnd(frac)
	case int64:
		if in.o.NumericSeparator {
			return addNumericSeparator(v.String())
		}
	case *big.Int:
		if in.o.NumericSeparator {
			return addNumericSeparator(x.String()) + "n"
		}
		return x.String() + "n"
	}
	return v.String()
}

// addNumericSeparator groups an integer's digits by three from the right.
func addNumericSeparator(s string) string {
	start := 0
	if strings.HasPrefix(s, "-") {
		start = 1
	}
	result := ""
	i := len(s)
	for ; i >= start+4; i -= 3 {
		result = "_" + s[i-3:i] + result
	}
	if i == len(s) {
		return s
	}
	return s[:i] + result
}

// addNumericSeparatorEnd groups a fraction's digits by three from the left.
func addNumericSeparatorEnd(s string) string {
	result := ""
	i := 0
	for ; i < len(s)-3; i += 3 {
		result += s[i:i+3] + "_"
	}
	if i == 0 {
		return s
	}
	return result + s[i:]
}

// toUnits is s as UTF-16 code units.
func toUnits(s goja.String) []uint16 {
	n := s.Length()
	u := make([]uint16, n)
	for i := 0; i < n; i++ {
		u[i] = s.CharAt(i)
	}
	return u
}

// meta is how Node escapes the code units it escapes.
func meta(c uint16) string {
	switch c {
	case '\b':
		return `\b`
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	case '\'':
		return `\'`
	case '\\':
		return `\\`
	}
	return `\x` + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:])
}

// strEscape quotes a string value as Node does.
func strEscape(v goja.Value) string {
	if s, ok := v.(goja.String); ok {
		return strEscapeUnits(toUnits(s))
	}
	return strEscapeUnits(utf16.Encode([]rune(v.String())))
}

// strEscapeUnits is Node's strEscape: single quotes, unless the string has
// some and no double quotes (then double quotes), or has both but no
// backtick nor "${" (then backticks); control characters, the chosen quote,
// backslashes and lone surrogates escaped.
func strEscapeUnits(u []uint16) string {
	quote := uint16('\'')
	has := func(c uint16) bool {
		for _, x := range u {
			if x == c {
				return true
			}
		}
		return false
	}
	if has('\'') {
		if !has('"') {
			quote = '"'
		} else if !has('`') && !strings.Contains(string(utf16.Decode(u)), "${") {
			quote = '`'
		}
	}
	return string(rune(quote)) + escapeUnits(u, quote) + string(rune(quote))
}

// escapeUnits escapes u for printing between quote (0: no quote to escape,
// but ' still is, as Node's key and symbol escaping does).
func escapeUnits(u []uint16, quote uint16) string {
	var b strings.Builder
	out := make([]uint16, 0, len(u))
	flush := func() {
		b.WriteString(string(utf16.Decode(out)))
		out = out[:0]
	}
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == quote || c == '\\' || c < 0x20 || (c > 0x7e && c < 0xa0):
			flush()
			b.WriteString(meta(c))
		case c >= 0xd800 && c <= 0xdfff:
			if c <= 0xdbff && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff {
				out = append(out, c, u[i+1])
				i++
				continue
			}
			flush()
			b.WriteString(`\u` + strconv.FormatUint(uint64(c), 16))
		default:
			out = append(out, c)
		}
	}
	flush()
	return b.String()
}

// escapeSequences is Node's strEscapeSequencesReplacer applied to a key or
// a symbol's description: escapes without quoting.
func escapeSequences(s string) string {
	return escapeUnits(utf16.Encode([]rune(s)), '\'')
}

// jsLen is the length of s in UTF-16 code units, as JavaScript counts it.
func jsLen(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// stringWidth approximates Node's getStringWidth: the columns s takes on a
// terminal (wide East Asian characters 2, combining marks 0).
func stringWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || r < 0x20 || (r >= 0x7f && r < 0xa0):
		case isWide(r):
			n += 2
		default:
			n++
		}
	}
	return n
}

func isWide(r rune) bool {
	return r >= 0x1100 && (r <= 0x115f || r == 0x2329 || r == 0x232a ||
		(r >= 0x2e80 && r <= 0x3247 && r != 0x303f) || (r >= 0x3250 && r <= 0x4dbf) ||
		(r >= 0x4e00 && r <= 0xa4c6) || (r >= 0xa960 && r <= 0xa97c) || (r >= 0xac00 && r <= 0xd7a3) ||
		(r >= 0xf900 && r <= 0xfaff) || (r >= 0xfe10 && r <= 0xfe19) || (r >= 0xfe30 && r <= 0xfe6b) ||
		(r >= 0xff01 && r <= 0xff60) || (r >= 0xffe0 && r <= 0xffe6) || (r >= 0x1b000 && r <= 0x1b001) ||
		(r >= 0x1f200 && r <= 0x1f251) || (r >= 0x1f300 && r <= 0x1f64f) || (r >= 0x1f900 && r <= 0x1f9ff) ||
		(r >= 0x20000 && r <= 0x3fffd))
}

func spaces(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat(" ", n)
}

// symbolString is Symbol.prototype.toString's text: "Symbol(desc)".
func symbolString(s *goja.Symbol) string { return "Symbol(" + s.String() + ")" }
