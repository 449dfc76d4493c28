package web

import (
	_ "embed"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/jsutil"
)

// TextEncoder and TextDecoder in every realm (the WHATWG Encoding standard, UTF-8 — and UTF-16LE for decoding),
// lazy globals like URL: a realm that never uses them pays two accessor properties. The classes are small
// JavaScript wrappers around Go functions that do the byte work.

// installTextGlobals defines the lazy TextEncoder and TextDecoder globals of rt.
func installTextGlobals(rt *goja.Runtime) error {
	var classes *goja.Object // made on first use, on the realm's goroutine
	build := func() *goja.Object {
		if classes == nil {
			v, err := textSource.Call(rt,
				rt.ToValue(func(s string) goja.Value { return newUint8Array(rt, []byte(s)) }),
				rt.ToValue(func(s string, dest goja.Value) goja.Value { return encodeInto(rt, s, dest) }),
				rt.ToValue(func(kind string, fatal, ignoreBOM bool) goja.Value { return newDecoder(rt, kind, fatal, ignoreBOM) }))
			if err != nil {
				panic(err)
			}
			classes = v.(*goja.Object)
		}
		return classes
	}
	for _, name := range []string{"TextEncoder", "TextDecoder"} {
		if err := jsutil.DefineLazyGlobal(rt, name, func() goja.Value { return build().Get(name) }); err != nil {
			return err
		}
	}
	return nil
}

//go:embed js/encoding.js
var encodingJS string

// textSource builds the TextEncoder and TextDecoder classes of a realm.
var textSource = jsutil.NewSource("jsworker:encoding", encodingJS)

// newUint8Array returns a new Uint8Array of rt holding a copy of b.
func newUint8Array(rt *goja.Runtime, b []byte) goja.Value {
	ctor := rt.GlobalObject().Get("Uint8Array").(*goja.Object)
	v, err := rt.New(ctor, rt.ToValue(rt.NewArrayBuffer(b)))
	if err != nil {
		panic(err)
	}
	return v
}

// bufferBytes returns the bytes an ArrayBuffer, a SharedArrayBuffer or a view of one covers (the live memory, not
// a copy), or false.
func bufferBytes(v goja.Value) ([]byte, bool) {
	if ab, ok := v.Export().(goja.ArrayBuffer); ok {
		return ab.Bytes(), true
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	buf, ok := o.Get("buffer").(*goja.Object)
	if !ok {
		return nil, false
	}
	ab, ok := buf.Export().(goja.ArrayBuffer)
	if !ok {
		return nil, false
	}
	all := ab.Bytes()
	off, n := o.Get("byteOffset").ToInteger(), o.Get("byteLength").ToInteger()
	if off < 0 || n < 0 || off+n > int64(len(all)) {
		return nil, false
	}
	return all[off : off+n], true
}

// encodeInto writes the UTF-8 of s into dest (a Uint8Array), whole code points only, and reports how many UTF-16
// units it read and bytes it wrote.
func encodeInto(rt *goja.Runtime, s string, dest goja.Value) goja.Value {
	b, ok := bufferBytes(dest)
	if !ok {
		panic(rt.NewTypeError("TextEncoder.encodeInto: the destination must be a Uint8Array"))
	}
	read, written := 0, 0
	for _, r := range s {
		n := utf8.RuneLen(r)
		if n < 0 {
			r, n = utf8.RuneError, 3
		}
		if written+n > len(b) {
			break
		}
		utf8.EncodeRune(b[written:], r)
		written += n
		read += utf16.RuneLen(r)
	}
	res := rt.NewObject()
	_ = res.Set("read", read)
	_ = res.Set("written", written)
	return res
}

// A decoder is one TextDecoder's state between calls (stream mode).
type decoder struct {
	rt               *goja.Runtime
	utf16            bool
	fatal, ignoreBOM bool
	bomDone          bool // the start of the stream was looked at for a BOM

	// UTF-8 (the WHATWG decoder's state): the code point so far, the bytes it needs and has, and the range the
	// next byte must fall in.
	cp, needed, seen int
	lower, upper     byte
	// UTF-16LE: an odd byte, and a lead surrogate, carried to the next call.
	odd     []byte
	lead    uint16
	hasLead bool
}

func newDecoder(rt *goja.Runtime, kind string, fatal, ignoreBOM bool) goja.Value {
	d := &decoder{rt: rt, utf16: kind == "utf-16le", fatal: fatal, ignoreBOM: ignoreBOM, lower: 0x80, upper: 0xBF}
	return rt.ToValue(func(input goja.Value, stream bool) string {
		var b []byte
		if input != nil && !goja.IsUndefined(input) {
			var ok bool
			if b, ok = bufferBytes(input); !ok {
				panic(rt.NewTypeError("TextDecoder.decode: the input must be an ArrayBuffer, a SharedArrayBuffer or a view of one"))
			}
		}
		return d.decode(b, stream)
	})
}

// fail reports a malformed sequence: a TypeError when fatal, else U+FFFD into out.
func (d *decoder) fail(out []rune) []rune {
	if d.fatal {
		d.reset()
		panic(d.rt.NewTypeError("TextDecoder.decode: the input is not valid " + map[bool]string{false: "UTF-8", true: "UTF-16LE"}[d.utf16]))
	}
	return append(out, utf8.RuneError)
}

func (d *decoder) reset() {
	d.cp, d.needed, d.seen, d.lower, d.upper = 0, 0, 0, 0x80, 0xBF
	d.odd, d.hasLead, d.bomDone = nil, false, false
}

// decode decodes b, continuing the previous call's sequence; without stream it also ends the stream (an incomplete
// sequence at the end is malformed) and the next call starts a new one.
func (d *decoder) decode(b []byte, stream bool) string {
	var out []rune
	if d.utf16 {
		out = d.decodeUTF16(b, out)
	} else {
		out = d.decodeUTF8(b, out)
	}
	if !stream {
		if d.needed != 0 || len(d.odd) != 0 || d.hasLead {
			out = d.fail(out)
		}
		d.reset()
	}
	return string(out)
}

// decodeUTF8 is the WHATWG UTF-8 decoder: one U+FFFD per maximal malformed subpart.
func (d *decoder) decodeUTF8(b []byte, out []rune) []rune {
	for i := 0; i < len(b); {
		c := b[i]
		if d.needed == 0 {
			i++
			switch {
			case c <= 0x7F:
				out = d.emit(out, rune(c))
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
				out = d.fail(out)
			}
			continue
		}
		if c < d.lower || c > d.upper { // the sequence ends malformed; c is looked at again
			d.cp, d.needed, d.seen, d.lower, d.upper = 0, 0, 0, 0x80, 0xBF
			out = d.fail(out)
			continue
		}
		i++
		d.lower, d.upper = 0x80, 0xBF
		d.cp = d.cp<<6 | int(c&0x3F)
		if d.seen++; d.seen == d.needed {
			out = d.emit(out, rune(d.cp))
			d.cp, d.needed, d.seen = 0, 0, 0
		}
	}
	return out
}

// decodeUTF16 decodes little-endian UTF-16; an unpaired surrogate is malformed.
func (d *decoder) decodeUTF16(b []byte, out []rune) []rune {
	if len(d.odd) != 0 {
		b = append(d.odd, b...)
		d.odd = nil
	}
	for ; len(b) >= 2; b = b[2:] {
		u := uint16(b[0]) | uint16(b[1])<<8
		switch {
		case d.hasLead && u >= 0xDC00 && u <= 0xDFFF:
			out = d.emit(out, utf16.DecodeRune(rune(d.lead), rune(u)))
			d.hasLead = false
		case d.hasLead:
			d.hasLead = false
			out = d.fail(out)
			b = append([]byte{0, 0}, b...) // look at u again
		case u >= 0xD800 && u <= 0xDBFF:
			d.lead, d.hasLead = u, true
		case u >= 0xDC00 && u <= 0xDFFF:
			out = d.fail(out)
		default:
			out = d.emit(out, rune(u))
		}
	}
	if len(b) == 1 {
		d.odd = []byte{b[0]}
	}
	return out
}

// emit appends r, dropping a byte order mark at the start of the stream unless ignoreBOM.
func (d *decoder) emit(out []rune, r rune) []rune {
	if !d.bomDone {
		d.bomDone = true
		if r == 0xFEFF && !d.ignoreBOM {
			return out
		}
	}
	return append(out, r)
}
