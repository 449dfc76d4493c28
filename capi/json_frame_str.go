package capi

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/jsworker/jsworker/clone"
)

// The strings of JSON text → frame (json_frame.go): JSON's escapes and UTF-8 decoded to UTF-16 code units, written
// in the clone writer's form.

// str parses a JSON string at pos and writes it: one-byte when every code unit is at most 0xFF, else two-byte. A
// key with an unpaired surrogate cannot be cloned.
func (e *jsonEncoder) str(key bool) error {
	e.pos++ // "
	start := e.pos
	for e.pos < len(e.in) {
		c := e.in[e.pos]
		if c == '"' {
			s := e.in[start:e.pos]
			e.pos++
			e.out = append(e.out, wOneByte)
			e.out = binary.AppendUvarint(e.out, uint64(len(s)))
			e.out = append(e.out, s...)
			return nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		e.pos++
	}
	// Escapes or non-ASCII text: decode into code units.
	u := e.units[:0]
	for _, c := range e.in[start:e.pos] {
		u = append(u, uint16(c))
	}
	for {
		if e.pos >= len(e.in) {
			return e.syntax("unterminated string")
		}
		c := e.in[e.pos]
		switch {
		case c == '"':
			e.pos++
			e.units = u
			return e.putUnits(u, key)
		case c < 0x20:
			return e.syntax(fmt.Sprintf("bad control character 0x%02x in a string", c))
		case c == '\\':
			if e.pos+1 >= len(e.in) {
				e.pos++
				return e.syntax("unterminated string")
			}
			e.pos++
			esc := e.in[e.pos]
			e.pos++
			switch esc {
			case '"', '\\', '/':
				u = append(u, uint16(esc))
			case 'b':
				u = append(u, '\b')
			case 'f':
				u = append(u, '\f')
			case 'n':
				u = append(u, '\n')
			case 'r':
				u = append(u, '\r')
			case 't':
				u = append(u, '\t')
			case 'u':
				if e.pos+4 > len(e.in) {
					return e.syntax("bad Unicode escape")
				}
				x, err := strconv.ParseUint(string(e.in[e.pos:e.pos+4]), 16, 16)
				if err != nil {
					return e.syntax("bad Unicode escape")
				}
				e.pos += 4
				u = append(u, uint16(x))
			default:
				e.pos -= 2
				return e.syntax("bad escaped character")
			}
		case c < utf8.RuneSelf:
			u = append(u, uint16(c))
			e.pos++
		default:
			r, n := utf8.DecodeRune(e.in[e.pos:])
			if r == utf8.RuneError && n <= 1 {
				return e.syntax("invalid UTF-8 in a string")
			}
			e.pos += n
			if r >= 0x10000 {
				a, b := utf16.EncodeRune(r)
				u = append(u, uint16(a), uint16(b))
			} else {
				u = append(u, uint16(r))
			}
		}
	}
}

func (e *jsonEncoder) putUnits(u []uint16, key bool) error {
	wide := false
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c > 0xFF {
			wide = true
		}
		if key && c >= 0xD800 && c < 0xE000 {
			if c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000 {
				i++
				continue
			}
			return &clone.DataCloneError{Message: "A property name with an unpaired surrogate could not be cloned."}
		}
	}
	if !wide {
		e.out = append(e.out, wOneByte)
		e.out = binary.AppendUvarint(e.out, uint64(len(u)))
		for _, c := range u {
			e.out = append(e.out, byte(c))
		}
		return nil
	}
	e.out = append(e.out, wTwoByte)
	e.out = binary.AppendUvarint(e.out, uint64(len(u)))
	for _, c := range u {
		e.out = binary.LittleEndian.AppendUint16(e.out, c)
	}
	return nil
}
