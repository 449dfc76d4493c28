package capi

import (
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja/ftoa"
)

// Structured clone frame → JSON text, without a goja object (ZJSWorkerReceiveJSON).
//
// frameJSON writes what JSON.stringify gives for the value the frame holds, for the frames that hold only what
// JSON.parse can make, plus undefined and holes: undefined, null, booleans, numbers, strings, plain objects and
// dense arrays. Any other tag (Map, Date, typed arrays, back-references …), a manifest, or a frame it cannot read
// makes it answer false, and the caller deserializes the frame and calls JSON.stringify in its realm instead, so
// the text is the same either way. The output is what the builtin JSON.stringify writes: NaN and ±Infinity are
// null, -0 is 0, an undefined property is left out and an undefined element is null, a lone surrogate is written
// \udXXX (so the text is always valid UTF-8).

// A jsonWriter reads one frame's value and appends its JSON text.
type jsonWriter struct {
	in  []byte
	pos int
	out []byte
}

// frameJSON appends the JSON text of the frame's value to out. ok is false when the frame needs the full path;
// undefined is true when the value is undefined (which has no JSON text).
func frameJSON(data, out []byte) (text []byte, undefined, ok bool) {
	if len(data) < len(frameHeader) || [8]byte(data[:8]) != frameHeader {
		return out, false, false
	}
	w := jsonWriter{in: data, pos: len(frameHeader), out: out}
	undef, ok := w.value(0)
	if !ok || w.pos != len(w.in) {
		return out, false, false
	}
	return w.out, undef, true
}

func (w *jsonWriter) byte() (byte, bool) {
	if w.pos >= len(w.in) {
		return 0, false
	}
	w.pos++
	return w.in[w.pos-1], true
}

// uvarint reads a varint of at most 32 bits; n also fits in the bytes left when perByte > 0.
func (w *jsonWriter) uvarint(perByte int) (int, bool) {
	v, k := binary.Uvarint(w.in[w.pos:])
	if k <= 0 || v > math.MaxUint32 {
		return 0, false
	}
	w.pos += k
	if perByte > 0 && v > uint64((len(w.in)-w.pos)/perByte) {
		return 0, false
	}
	return int(v), true
}

// value writes one value; it returns undefined (nothing written) for `_`.
func (w *jsonWriter) value(depth int) (undefined, ok bool) {
	if depth > maxCloneDepth {
		return false, false
	}
	tag, ok := w.byte()
	if !ok {
		return false, false
	}
	switch tag {
	case wUndefined:
		return true, true
	case wNull:
		w.out = append(w.out, "null"...)
	case wTrue:
		w.out = append(w.out, "true"...)
	case wFalse:
		w.out = append(w.out, "false"...)
	case wInt:
		z, ok := w.uvarint(0)
		if !ok {
			return false, false
		}
		n := int64(int32(uint32(z)>>1) ^ -int32(uint32(z)&1))
		w.out = strconv.AppendInt(w.out, n, 10)
	case wNumber:
		if len(w.in)-w.pos < 8 {
			return false, false
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(w.in[w.pos:]))
		w.pos += 8
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			w.out = append(w.out, "null"...)
		case f == 0:
			w.out = append(w.out, '0')
		default:
			w.out = ftoa.FToStr(f, ftoa.ModeStandard, 0, w.out)
		}
	case wOneByte, wTwoByte:
		return false, w.str(tag)
	case wObject:
		return false, w.object(depth)
	case wArray:
		return false, w.array(depth)
	default:
		return false, false
	}
	return false, true
}

func (w *jsonWriter) object(depth int) bool {
	w.out = append(w.out, '{')
	first := true
	for {
		tag, ok := w.byte()
		if !ok {
			return false
		}
		if tag == wEnd {
			w.out = append(w.out, '}')
			return true
		}
		if tag != wOneByte && tag != wTwoByte {
			return false
		}
		mark := len(w.out)
		if !first {
			w.out = append(w.out, ',')
		}
		if !w.str(tag) {
			return false
		}
		w.out = append(w.out, ':')
		undef, ok := w.value(depth + 1)
		if !ok {
			return false
		}
		if undef { // JSON.stringify leaves the property out
			w.out = w.out[:mark]
			continue
		}
		first = false
	}
}

func (w *jsonWriter) array(depth int) bool {
	n, ok := w.uvarint(1)
	if !ok {
		return false
	}
	w.out = append(w.out, '[')
	for i := 0; i < n; i++ {
		if i > 0 {
			w.out = append(w.out, ',')
		}
		if w.pos < len(w.in) && w.in[w.pos] == wHole {
			w.pos++
			w.out = append(w.out, "null"...)
			continue
		}
		undef, ok := w.value(depth + 1)
		if !ok {
			return false
		}
		if undef {
			w.out = append(w.out, "null"...)
		}
	}
	w.out = append(w.out, ']')
	return true
}

const hexDigits = "0123456789abcdef"

// str writes a `"` or `c` string's payload as a JSON string, escaped as JSON.stringify does.
func (w *jsonWriter) str(tag byte) bool {
	size := 1
	if tag == wTwoByte {
		size = 2
	}
	n, ok := w.uvarint(size)
	if !ok {
		return false
	}
	w.out = append(w.out, '"')
	if size == 1 {
		for _, c := range w.in[w.pos : w.pos+n] {
			w.unit(uint16(c))
		}
		w.pos += n
	} else {
		b := w.in[w.pos : w.pos+2*n]
		w.pos += 2 * n
		for i := 0; i < n; i++ {
			c := binary.LittleEndian.Uint16(b[2*i:])
			if c >= 0xD800 && c < 0xDC00 && i+1 < n {
				if d := binary.LittleEndian.Uint16(b[2*i+2:]); d >= 0xDC00 && d < 0xE000 {
					w.out = utf8.AppendRune(w.out, utf16.DecodeRune(rune(c), rune(d)))
					i++
					continue
				}
			}
			w.unit(c)
		}
	}
	w.out = append(w.out, '"')
	return true
}

// unit writes one UTF-16 code unit that is not part of a surrogate pair.
func (w *jsonWriter) unit(c uint16) {
	switch {
	case c == '"':
		w.out = append(w.out, '\\', '"')
	case c == '\\':
		w.out = append(w.out, '\\', '\\')
	case c == '\b':
		w.out = append(w.out, '\\', 'b')
	case c == '\f':
		w.out = append(w.out, '\\', 'f')
	case c == '\n':
		w.out = append(w.out, '\\', 'n')
	case c == '\r':
		w.out = append(w.out, '\\', 'r')
	case c == '\t':
		w.out = append(w.out, '\\', 't')
	case c < 0x20 || c >= 0xD800 && c < 0xE000:
		w.out = append(w.out, '\\', 'u', hexDigits[c>>12], hexDigits[c>>8&15], hexDigits[c>>4&15], hexDigits[c&15])
	case c < utf8.RuneSelf:
		w.out = append(w.out, byte(c))
	default:
		w.out = utf8.AppendRune(w.out, rune(c))
	}
}
