package inspector

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// jsonString encodes a JavaScript string as a JSON string literal, unit by
// unit, so that a lone surrogate travels as a \uXXXX escape (as V8 sends it)
// instead of being replaced by U+FFFD.
func jsonString(s goja.String) json.RawMessage {
	n := s.Length()
	out := make([]byte, 0, n+2)
	out = append(out, '"')
	for i := 0; i < n; i++ {
		c := s.CharAt(i)
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', byte(c))
		case c == '\n':
			out = append(out, '\\', 'n')
		case c == '\r':
			out = append(out, '\\', 'r')
		case c == '\t':
			out = append(out, '\\', 't')
		case c < 0x20 || c == 0x2028 || c == 0x2029:
			out = appendEscape(out, c)
		case c < utf8.RuneSelf:
			out = append(out, byte(c))
		case utf16.IsSurrogate(rune(c)):
			if c < 0xDC00 && i+1 < n {
				if d := s.CharAt(i + 1); d >= 0xDC00 && d <= 0xDFFF {
					out = utf8.AppendRune(out, utf16.DecodeRune(rune(c), rune(d)))
					i++
					continue
				}
			}
			out = appendEscape(out, c)
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return append(out, '"')
}

func appendEscape(out []byte, c uint16) []byte {
	const hex = "0123456789abcdef"
	return append(out, '\\', 'u', hex[c>>12], hex[c>>8&0xF], hex[c>>4&0xF], hex[c&0xF])
}
