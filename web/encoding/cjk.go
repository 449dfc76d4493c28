package encoding

import (
	"errors"
	"unicode/utf8"

	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
)

// cjkNames are the WHATWG multi-byte encodings, decoded by golang.org/x/text.
var cjkNames = map[string]bool{
	"gbk": true, "gb18030": true, "big5": true, "euc-jp": true, "iso-2022-jp": true, "shift_jis": true, "euc-kr": true,
}

// cjkDecoder wraps an x/text decoder: bytes of an incomplete sequence wait
// in pending for the next call. x/text writes U+FFFD for malformed input;
// none of these encodings but gb18030 can encode U+FFFD itself, so in
// fatal mode a U+FFFD in the output is the error (for gb18030, its
// four-byte encoding of U+FFFD, 84 31 A4 37, is told apart).
type cjkDecoder struct {
	name    string
	t       transform.Transformer
	pending []byte
}

func newCJKDecoder(name string) *cjkDecoder {
	if !cjkNames[name] {
		return nil
	}
	e, err := htmlindex.Get(name)
	if err != nil {
		return nil
	}
	return &cjkDecoder{name: name, t: e.NewDecoder()}
}

func (d *cjkDecoder) reset() {
	d.t.Reset()
	d.pending = nil
}

func (d *cjkDecoder) decode(out []rune, b []byte, flush bool, bad func() bool) []rune {
	src := append(d.pending, b...)
	d.pending = nil
	dst := make([]byte, 4*len(src)+16)
	for len(src) > 0 {
		nDst, nSrc, err := d.t.Transform(dst, src, flush)
		text := dst[:nDst]
		for len(text) > 0 {
			r, n := utf8.DecodeRune(text)
			text = text[n:]
			if r == utf8.RuneError && !(d.name == "gb18030" && containsFFFD(src[:nSrc])) {
				if !bad() {
					return out
				}
			}
			out = append(out, r)
		}
		src = src[nSrc:]
		switch {
		case err == nil:
		case errors.Is(err, transform.ErrShortDst):
			dst = make([]byte, 2*len(dst))
		case errors.Is(err, transform.ErrShortSrc):
			if flush { // cannot happen with atEOF, but never loop
				if !bad() {
					return out
				}
				return append(out, utf8.RuneError)
			}
			d.pending = append([]byte(nil), src...)
			return out
		default:
			if !bad() {
				return out
			}
			out = append(out, utf8.RuneError)
			if nSrc == 0 {
				src = src[1:]
			}
		}
		if err == nil && nSrc == 0 {
			break
		}
	}
	if flush {
		d.t.Reset()
	}
	return out
}

// containsFFFD reports whether b holds gb18030's encoding of U+FFFD.
func containsFFFD(b []byte) bool {
	for i := 0; i+3 < len(b); i++ {
		if b[i] == 0x84 && b[i+1] == 0x31 && b[i+2] == 0xA4 && b[i+3] == 0x37 {
			return true
		}
	}
	return false
}
