package jsonbuiltin

import (
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

const hexDigits = "0123456789abcdef"

// needsEscape marks the ASCII bytes QuoteJSONString escapes.
var needsEscape = func() (t [utf8.RuneSelf]bool) {
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t['"'], t['\\'] = true, true
	return t
}()

// escapeASCII appends the escape of the ASCII character c, one needsEscape marks.
func (s *serializer) escapeASCII(c byte) {
	switch c {
	case '"', '\\':
		s.buf = append(s.buf, '\\', c)
	case '\b':
		s.buf = append(s.buf, '\\', 'b')
	case '\t':
		s.buf = append(s.buf, '\\', 't')
	case '\n':
		s.buf = append(s.buf, '\\', 'n')
	case '\f':
		s.buf = append(s.buf, '\\', 'f')
	case '\r':
		s.buf = append(s.buf, '\\', 'r')
	default:
		s.buf = append(s.buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
	}
}

// quote is QuoteJSONString of a goja string.
func (s *serializer) quote(str goja.String) {
	if gojainternal.IsASCII(str) {
		s.quoteString(str.String())
		return
	}
	if u, ok := gojainternal.UTF16(str); ok {
		s.quoteUnits(u)
		return
	}
	n := str.Length()
	u := make([]uint16, n)
	for i := range u {
		u[i] = str.CharAt(i)
	}
	s.quoteUnits(u)
}

// quoteUni is QuoteJSONString of a property name.
func (s *serializer) quoteUni(name unistring.String) {
	if u := name.AsUtf16(); u != nil {
		s.quoteUnits(u[1:])
		return
	}
	s.quoteString(string(name))
}

// quoteString is QuoteJSONString of a Go string (UTF-8: no lone surrogates).
func (s *serializer) quoteString(str string) {
	if len(str) >= 1<<8 {
		s.st.step(len(str) >> 8) // a step each 256 bytes
		s.checkLengthPlus(len(str))
	}
	s.buf = append(s.buf, '"')
	start := 0
	for i := 0; i < len(str); i++ {
		c := str[i]
		if c < utf8.RuneSelf {
			if needsEscape[c] {
				s.buf = append(s.buf, str[start:i]...)
				s.escapeASCII(c)
				start = i + 1
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(str[i:])
		if r > 0xFFFF {
			s.extra += size - 2
		} else {
			s.extra += size - 1
		}
		i += size - 1
	}
	s.buf = append(s.buf, str[start:]...)
	s.buf = append(s.buf, '"')
}

// quoteUnits is QuoteJSONString of UTF-16 code units: pairs are written as UTF-8, a lone surrogate as \udxxx.
func (s *serializer) quoteUnits(u []uint16) {
	if len(u) >= 1<<8 {
		s.st.step(len(u) >> 8)
		s.checkLengthPlus(len(u))
	}
	s.buf = append(s.buf, '"')
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c < utf8.RuneSelf:
			if needsEscape[c] {
				s.escapeASCII(byte(c))
			} else {
				s.buf = append(s.buf, byte(c))
			}
		case c >= 0xD800 && c <= 0xDBFF && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF:
			r := (rune(c)-0xD800)<<10 | (rune(u[i+1]) - 0xDC00) + 0x10000
			s.buf = utf8.AppendRune(s.buf, r)
			s.extra += 4 - 2
			i++
		case c >= 0xD800 && c <= 0xDFFF:
			s.buf = append(s.buf, '\\', 'u', hexDigits[c>>12], hexDigits[c>>8&0xF], hexDigits[c>>4&0xF], hexDigits[c&0xF])
		default:
			n := len(s.buf)
			s.buf = utf8.AppendRune(s.buf, rune(c))
			s.extra += len(s.buf) - n - 1
		}
	}
	s.buf = append(s.buf, '"')
}

// appendUTF8 appends text a Go json.Marshaler wrote.
func (s *serializer) appendUTF8(b []byte) {
	s.checkLengthPlus(len(b))
	for _, r := range string(b) {
		if r >= utf8.RuneSelf {
			n := utf8.RuneLen(r)
			if r > 0xFFFF {
				s.extra += n - 2
			} else {
				s.extra += n - 1
			}
		}
	}
	s.buf = append(s.buf, b...)
}

// checkLengthPlus throws RangeError "Invalid string length" if n more code units would make the result too long.
func (s *serializer) checkLengthPlus(n int) {
	if len(s.buf)-s.extra+n > maxLength {
		s.buf = nil
		s.r.rangeError("Invalid string length")
	}
}
