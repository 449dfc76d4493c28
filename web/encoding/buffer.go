package encoding

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// BufferEncoding normalizes a Buffer encoding name as Node does,
// case-insensitively: "utf8"/"utf-8" → "utf8"; "utf16le", "utf-16le",
// "ucs2", "ucs-2" → "utf16le"; "latin1", "binary" → "latin1"; "ascii",
// "base64", "base64url", "hex" as they are. ok=false for anything else
// (Node's ERR_UNKNOWN_ENCODING).
func BufferEncoding(name string) (string, bool) {
	switch strings.ToLower(name) {
	case "utf8", "utf-8":
		return "utf8", true
	case "utf16le", "utf-16le", "ucs2", "ucs-2":
		return "utf16le", true
	case "latin1", "binary":
		return "latin1", true
	case "ascii":
		return "ascii", true
	case "base64":
		return "base64", true
	case "base64url":
		return "base64url", true
	case "hex":
		return "hex", true
	}
	return "", false
}

// UnknownEncodingError is EncodeString's and DecodeBytes's error for an
// encoding name BufferEncoding does not know; the message is Node's.
type UnknownEncodingError struct{ Name string }

func (e *UnknownEncodingError) Error() string { return "Unknown encoding: " + e.Name }

// EncodeString is Buffer.from(s, encoding): s as UTF-16 code units, the
// bytes Node writes for it.
//   - utf8: lone surrogates become EF BF BD (U+FFFD).
//   - utf16le: each unit, little-endian.
//   - latin1 and ascii: the low byte of each unit.
//   - base64 and base64url: decoded leniently, either alphabet: characters
//     outside it are skipped, decoding stops at the first "=", a final
//     lone character is dropped; only the low byte of a unit counts.
//   - hex: pairs of hex digits, up to the first pair that is not one (the
//     low byte of each unit counts, as for base64).
func EncodeString(s []uint16, encoding string) ([]byte, error) {
	enc, ok := BufferEncoding(encoding)
	if !ok {
		return nil, &UnknownEncodingError{Name: encoding}
	}
	switch enc {
	case "utf8":
		return utf8Bytes(s), nil
	case "utf16le":
		b := make([]byte, 2*len(s))
		for i, u := range s {
			b[2*i], b[2*i+1] = byte(u), byte(u>>8)
		}
		return b, nil
	case "latin1", "ascii":
		b := make([]byte, len(s))
		for i, u := range s {
			b[i] = byte(u)
		}
		return b, nil
	case "base64", "base64url":
		return decodeBase64Lenient(s), nil
	default: // hex
		b := make([]byte, 0, len(s)/2)
		for i := 0; i+1 < len(s); i += 2 {
			hi, ok1 := unhex(s[i])
			lo, ok2 := unhex(s[i+1])
			if !ok1 || !ok2 {
				break
			}
			b = append(b, hi<<4|lo)
		}
		return b, nil
	}
}

// utf8Bytes is the UTF-8 of UTF-16 units, lone surrogates as U+FFFD.
func utf8Bytes(s []uint16) []byte {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		r := rune(s[i])
		switch {
		case r < utf8.RuneSelf:
			b = append(b, byte(r))
			continue
		case r >= 0xD800 && r <= 0xDBFF && i+1 < len(s) && s[i+1] >= 0xDC00 && s[i+1] <= 0xDFFF:
			r = utf16.DecodeRune(r, rune(s[i+1]))
			i++
		case r >= 0xD800 && r <= 0xDFFF:
			r = utf8.RuneError
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// unhex is the value of a hex digit; like Node it looks at the low byte of
// the unit only.
func unhex(u uint16) (byte, bool) {
	u &= 0xFF
	switch {
	case u >= '0' && u <= '9':
		return byte(u - '0'), true
	case u >= 'a' && u <= 'f':
		return byte(u - 'a' + 10), true
	case u >= 'A' && u <= 'F':
		return byte(u - 'A' + 10), true
	}
	return 0, false
}

// unbase64 is the value of a base64 or base64url digit, or -1.
func unbase64(u uint16) int {
	switch {
	case u >= 'A' && u <= 'Z':
		return int(u - 'A')
	case u >= 'a' && u <= 'z':
		return int(u-'a') + 26
	case u >= '0' && u <= '9':
		return int(u-'0') + 52
	case u == '+' || u == '-':
		return 62
	case u == '/' || u == '_':
		return 63
	}
	return -1
}

// decodeBase64Lenient is Node's base64 decoder (both alphabets, skipping
// what is not a digit, stopping at "="). Like Node, it looks at the low
// byte of each code unit only: U+263D is "=" to it.
func decodeBase64Lenient(s []uint16) []byte {
	out := make([]byte, 0, len(s)*3/4)
	var acc, n int
	for _, u := range s {
		u &= 0xFF
		if u == '=' {
			break
		}
		v := unbase64(u)
		if v < 0 {
			continue
		}
		acc = acc<<6 | v
		n++
		if n == 4 {
			out = append(out, byte(acc>>16), byte(acc>>8), byte(acc))
			acc, n = 0, 0
		}
	}
	switch n {
	case 2:
		out = append(out, byte(acc>>4))
	case 3:
		out = append(out, byte(acc>>10), byte(acc>>2))
	}
	return out
}

// DecodeBytes is buf.toString(encoding): b as the UTF-16 code units of a
// JavaScript string.
//   - utf8: malformed sequences become U+FFFD, one per maximal subpart (a
//     leading BOM is kept).
//   - utf16le: each pair of bytes (an odd last byte is dropped), lone
//     surrogates kept.
//   - latin1: each byte as a unit; ascii: each byte with its top bit
//     cleared.
//   - base64 with padding, base64url without, hex in lowercase.
func DecodeBytes(b []byte, encoding string) ([]uint16, error) {
	enc, ok := BufferEncoding(encoding)
	if !ok {
		return nil, &UnknownEncodingError{Name: encoding}
	}
	switch enc {
	case "utf8":
		var d utf8Decoder
		runes := d.decode(make([]rune, 0, len(b)), b, true, func() bool { return true })
		return utf16.Encode(runes), nil
	case "utf16le":
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return u, nil
	case "latin1", "ascii":
		mask := byte(0xFF)
		if enc == "ascii" {
			mask = 0x7F
		}
		u := make([]uint16, len(b))
		for i, c := range b {
			u[i] = uint16(c & mask)
		}
		return u, nil
	case "base64":
		return asciiUnits(base64.StdEncoding.EncodeToString(b)), nil
	case "base64url":
		return asciiUnits(base64.RawURLEncoding.EncodeToString(b)), nil
	default: // hex
		return asciiUnits(hex.EncodeToString(b)), nil
	}
}

func asciiUnits(s string) []uint16 {
	u := make([]uint16, len(s))
	for i := 0; i < len(s); i++ {
		u[i] = uint16(s[i])
	}
	return u
}

// ByteLength is Buffer.byteLength(s, encoding): the bytes EncodeString
// writes, except for base64 and base64url, where it is Node's estimate
// from the length (3/4 of it, less the padding), which Buffer.from then
// trims to what decoding gives.
func ByteLength(s []uint16, encoding string) (int, error) {
	enc, ok := BufferEncoding(encoding)
	if !ok {
		return 0, &UnknownEncodingError{Name: encoding}
	}
	switch enc {
	case "utf8":
		n := 0
		for i := 0; i < len(s); i++ {
			switch u := s[i]; {
			case u < 0x80:
				n++
			case u < 0x800:
				n += 2
			case u >= 0xD800 && u <= 0xDBFF && i+1 < len(s) && s[i+1] >= 0xDC00 && s[i+1] <= 0xDFFF:
				n += 4
				i++
			default:
				n += 3
			}
		}
		return n, nil
	case "utf16le":
		return 2 * len(s), nil
	case "latin1", "ascii":
		return len(s), nil
	case "hex":
		return len(s) / 2, nil
	default: // base64, base64url
		n := len(s)
		if n > 0 && s[n-1] == '=' {
			n--
		}
		if n > 1 && s[n-1] == '=' {
			n--
		}
		return n * 3 / 4, nil
	}
}
