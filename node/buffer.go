package node

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

//go:embed lib/buffer.js
var bufferJS string

// bufferSource is the buffer module and the Buffer global: Buffer is a Uint8Array subclass written in JavaScript;
// the byte encodings that are faster in Go (utf8, base64, base64url, hex) and the searches are natives here.
// utf16le, latin1 and ascii are done in JavaScript, on UTF-16 code units.
var bufferSource = jsutil.NewSource("node:buffer", bufferJS)

// bufferNatives are buffer.js's natives. Byte arguments are Uint8Arrays, seen from Go as the slice they view.
func bufferNatives(n *nodeState, def func(string, int, func(goja.FunctionCall) goja.Value)) {
	rt := n.r.Runtime()
	bytesArg := func(v goja.Value) []byte {
		b, _ := v.Export().([]byte)
		return b
	}
	// encode returns an ArrayBuffer holding string s in encoding enc (utf8, base64, base64url, hex).
	def("encode", 2, func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(rt.NewArrayBuffer(encodeString(c.Argument(0).String(), c.Argument(1).String())))
	})
	def("byteLength", 2, func(c goja.FunctionCall) goja.Value {
		s, enc := c.Argument(0).String(), c.Argument(1).String()
		if enc == "utf8" {
			return rt.ToValue(len(s))
		}
		return rt.ToValue(len(encodeString(s, enc)))
	})
	// write encodes s into b, at most len(b) bytes and never a partial UTF-8 sequence; it returns the bytes written.
	def("write", 3, func(c goja.FunctionCall) goja.Value {
		b := bytesArg(c.Argument(0))
		src := encodeString(c.Argument(1).String(), c.Argument(2).String())
		m := min(len(b), len(src))
		if c.Argument(2).String() == "utf8" && m < len(src) {
			for m > 0 && !utf8.RuneStart(src[m]) {
				m--
			}
		}
		return rt.ToValue(copy(b, src[:m]))
	})
	def("decode", 2, func(c goja.FunctionCall) goja.Value {
		b := bytesArg(c.Argument(0))
		switch c.Argument(1).String() {
		case "hex":
			return rt.ToValue(hex.EncodeToString(b))
		case "base64":
			return rt.ToValue(base64.StdEncoding.EncodeToString(b))
		case "base64url":
			return rt.ToValue(base64.RawURLEncoding.EncodeToString(b))
		}
		return rt.ToValue(decodeUTF8(b))
	})
	def("compare", 2, func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(bytes.Compare(bytesArg(c.Argument(0)), bytesArg(c.Argument(1))))
	})
	// indexOf returns the first (or, with last, the final) index of needle in hay at or after (before) from, or -1.
	def("indexOf", 4, func(c goja.FunctionCall) goja.Value {
		hay, needle := bytesArg(c.Argument(0)), bytesArg(c.Argument(1))
		from, last := int(c.Argument(2).ToInteger()), c.Argument(3).ToBoolean()
		if last {
			end := from + len(needle)
			if end > len(hay) {
				end = len(hay)
			}
			if end < 0 {
				return rt.ToValue(-1)
			}
			return rt.ToValue(bytes.LastIndex(hay[:end], needle))
		}
		if from > len(hay) {
			return rt.ToValue(-1)
		}
		i := bytes.Index(hay[from:], needle)
		if i < 0 {
			return rt.ToValue(-1)
		}
		return rt.ToValue(i + from)
	})
	def("isUtf8", 1, func(c goja.FunctionCall) goja.Value { return rt.ToValue(utf8.Valid(bytesArg(c.Argument(0)))) })
}

// encodeString returns s (as UTF-8, which is how goja hands strings to Go; lone surrogates are already U+FFFD)
// in one of the encodings done in Go. Decoding base64 and hex is lenient as in Node: base64 skips characters
// outside both alphabets and stops at '='; hex stops at the first pair that is not hexadecimal.
func encodeString(s, enc string) []byte {
	switch enc {
	case "hex":
		out := make([]byte, 0, len(s)/2)
		for i := 0; i+1 < len(s); i += 2 {
			hi, ok1 := hexVal(s[i])
			lo, ok2 := hexVal(s[i+1])
			if !ok1 || !ok2 {
				break
			}
			out = append(out, hi<<4|lo)
		}
		return out
	case "base64", "base64url":
		out := make([]byte, 0, len(s)*3/4)
		var acc uint32
		bits := 0
		for i := 0; i < len(s); i++ {
			ch := s[i]
			if ch == '=' {
				break
			}
			v, ok := b64Val(ch)
			if !ok {
				continue
			}
			acc = acc<<6 | uint32(v)
			bits += 6
			if bits >= 8 {
				bits -= 8
				out = append(out, byte(acc>>uint(bits)))
			}
		}
		return out
	}
	return []byte(s)
}

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func b64Val(c byte) (byte, bool) {
	switch {
	case c >= 'A' && c <= 'Z':
		return c - 'A', true
	case c >= 'a' && c <= 'z':
		return c - 'a' + 26, true
	case c >= '0' && c <= '9':
		return c - '0' + 52, true
	case c == '+' || c == '-':
		return 62, true
	case c == '/' || c == '_':
		return 63, true
	}
	return 0, false
}

// decodeUTF8 decodes b as the WHATWG UTF-8 decoder does: each maximal invalid subsequence becomes one U+FFFD.
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			sb.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			sb.WriteString(string(b[i : i+size]))
			i += size
			continue
		}
		// invalid: skip the longest prefix of a valid sequence (the maximal subpart), then write one U+FFFD
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c == 0xE0:
			need, lo = 2, 0xA0
		case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
			need = 2
		case c == 0xED:
			need, hi = 2, 0x9F
		case c == 0xF0:
			need, lo = 3, 0x90
		case c >= 0xF1 && c <= 0xF3:
			need = 3
		case c == 0xF4:
			need, hi = 3, 0x8F
		}
		j := i + 1
		for k := 0; k < need && j < len(b); k++ {
			if b[j] < lo || b[j] > hi {
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		sb.WriteString("\uFFFD")
		i = j
	}
	return sb.String()
}
