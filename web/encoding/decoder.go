package encoding

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// InvalidDataError is what a fatal Decoder returns for malformed input; its
// message is Node's ERR_ENCODING_INVALID_ENCODED_DATA text.
type InvalidDataError struct{ Encoding string }

func (e *InvalidDataError) Error() string {
	return "The encoded data was not valid for encoding " + e.Encoding
}

// A Decoder is one TextDecoder's state: the encoding, its options, and
// between calls in stream mode the bytes of an incomplete sequence. A
// Decoder is used by one goroutine at a time.
type Decoder struct {
	name      string
	fatal     bool
	ignoreBOM bool
	bomSeen   bool // the start of the stream was looked at for a BOM
	impl      decoderImpl
}

// decoderImpl is one encoding's decoder: decode appends the text of b to
// out, keeping an incomplete trailing sequence for the next call unless
// flush; errors are reported through bad (which returns false to stop).
type decoderImpl interface {
	decode(out []rune, b []byte, flush bool, bad func() bool) []rune
	reset()
}

// NewDecoder returns a decoder for the encoding label names (see Lookup).
// fatal makes malformed input an error instead of U+FFFD; ignoreBOM keeps a
// leading byte order mark in the output (utf-8, utf-16le and utf-16be only
// strip one).
func NewDecoder(label string, fatal, ignoreBOM bool) (*Decoder, error) {
	name, err := Lookup(label)
	if err != nil {
		return nil, err
	}
	d := &Decoder{name: name, fatal: fatal, ignoreBOM: ignoreBOM}
	switch name {
	case "utf-8":
		d.impl = &utf8Decoder{}
	case "utf-16le":
		d.impl = &utf16Decoder{}
	case "utf-16be":
		d.impl = &utf16Decoder{be: true}
	default:
		if t := singleByteTable(name); t != nil {
			d.impl = &singleByteDecoder{table: t}
		} else if c := newCJKDecoder(name); c != nil {
			d.impl = c
		} else {
			return nil, &NotSupportedError{Label: label}
		}
	}
	return d, nil
}

// Encoding is the decoder's WHATWG encoding name.
func (d *Decoder) Encoding() string { return d.name }

// Fatal reports whether malformed input is an error.
func (d *Decoder) Fatal() bool { return d.fatal }

// IgnoreBOM reports whether a leading byte order mark is kept.
func (d *Decoder) IgnoreBOM() bool { return d.ignoreBOM }

// Decode returns the text of b. With stream, an incomplete sequence at the
// end of b is kept for the next call; without, the stream ends here (an
// incomplete sequence is malformed) and the next call starts a new one.
// A fatal decoder returns *InvalidDataError for malformed input, and then
// starts a new stream too.
func (d *Decoder) Decode(b []byte, stream bool) (string, error) {
	failed := false
	bad := func() bool {
		if d.fatal {
			failed = true
			return false
		}
		return true
	}
	out := d.impl.decode(make([]rune, 0, len(b)), b, !stream, bad)
	if failed {
		d.impl.reset()
		d.bomSeen = false
		return "", &InvalidDataError{Encoding: d.name}
	}
	if !d.bomSeen && len(out) > 0 {
		d.bomSeen = true
		if out[0] == 0xFEFF && !d.ignoreBOM && (d.name == "utf-8" || d.name == "utf-16le" || d.name == "utf-16be") {
			out = out[1:]
		}
	}
	if !stream {
		d.impl.reset()
		d.bomSeen = false
	}
	return runesToString(out), nil
}

// runesToString is string(r) without the per-rune validation cost for ASCII.
func runesToString(r []rune) string {
	var sb strings.Builder
	sb.Grow(len(r))
	for _, c := range r {
		if c < utf8.RuneSelf {
			sb.WriteByte(byte(c))
		} else {
			sb.WriteRune(c)
		}
	}
	return sb.String()
}

// utf8Decoder is the WHATWG UTF-8 decoder: one U+FFFD per maximal
// malformed subpart.
type utf8Decoder struct {
	cp, needed, seen int
	lower, upper     byte
}

func (d *utf8Decoder) reset() { *d = utf8Decoder{} }

func (d *utf8Decoder) decode(out []rune, b []byte, flush bool, bad func() bool) []rune {
	if d.lower == 0 {
		d.lower, d.upper = 0x80, 0xBF
	}
	for i := 0; i < len(b); {
		c := b[i]
		if d.needed == 0 {
			i++
			switch {
			case c <= 0x7F:
				out = append(out, rune(c))
			case c >= 0xC2 && c <= 0xDF:
				d.needed, d.cp = 1, int(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					d.lower = 0xA0
				} else if c == 0xED {
					d.upper = 0x9F
				}
				d.needed, d.cp = 2, int(c&0xF)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					d.lower = 0x90
				} else if c == 0xF4 {
					d.upper = 0x8F
				}
				d.needed, d.cp = 3, int(c&0x7)
			default:
				if !bad() {
					return out
				}
				out = append(out, utf8.RuneError)
			}
			continue
		}
		if c < d.lower || c > d.upper { // the sequence ends malformed; c is looked at again
			d.cp, d.needed, d.seen, d.lower, d.upper = 0, 0, 0, 0x80, 0xBF
			if !bad() {
				return out
			}
			out = append(out, utf8.RuneError)
			continue
		}
		i++
		d.lower, d.upper = 0x80, 0xBF
		d.cp = d.cp<<6 | int(c&0x3F)
		if d.seen++; d.seen == d.needed {
			out = append(out, rune(d.cp))
			d.cp, d.needed, d.seen = 0, 0, 0
		}
	}
	if flush && d.needed != 0 {
		d.reset()
		if !bad() {
			return out
		}
		out = append(out, utf8.RuneError)
	}
	return out
}

// utf16Decoder is the WHATWG UTF-16LE/BE decoder: an unpaired surrogate is
// malformed, and so is an odd byte at the end of the stream.
type utf16Decoder struct {
	be      bool
	odd     int // the byte carried to the next call, plus one (0: none)
	lead    uint16
	hasLead bool
}

func (d *utf16Decoder) reset() { *d = utf16Decoder{be: d.be} }

func (d *utf16Decoder) decode(out []rune, b []byte, flush bool, bad func() bool) []rune {
	if d.odd != 0 {
		b = append([]byte{byte(d.odd - 1)}, b...)
		d.odd = 0
	}
	for ; len(b) >= 2; b = b[2:] {
		u := uint16(b[0]) | uint16(b[1])<<8
		if d.be {
			u = uint16(b[0])<<8 | uint16(b[1])
		}
		switch {
		case d.hasLead && u >= 0xDC00 && u <= 0xDFFF:
			out = append(out, utf16.DecodeRune(rune(d.lead), rune(u)))
			d.hasLead = false
		case d.hasLead:
			d.hasLead = false
			if !bad() {
				return out
			}
			out = append(out, utf8.RuneError)
			if u >= 0xD800 && u <= 0xDBFF {
				d.lead, d.hasLead = u, true
			} else if u >= 0xDC00 && u <= 0xDFFF {
				if !bad() {
					return out
				}
				out = append(out, utf8.RuneError)
			} else {
				out = append(out, rune(u))
			}
		case u >= 0xD800 && u <= 0xDBFF:
			d.lead, d.hasLead = u, true
		case u >= 0xDC00 && u <= 0xDFFF:
			if !bad() {
				return out
			}
			out = append(out, utf8.RuneError)
		default:
			out = append(out, rune(u))
		}
	}
	if len(b) == 1 {
		d.odd = int(b[0]) + 1
	}
	if flush && (d.odd != 0 || d.hasLead) {
		d.reset()
		if !bad() {
			return out
		}
		out = append(out, utf8.RuneError)
	}
	return out
}
