package encoding

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// singleByteNames are the WHATWG single-byte encodings.
var singleByteNames = []string{
	"ibm866", "iso-8859-2", "iso-8859-3", "iso-8859-4", "iso-8859-5", "iso-8859-6", "iso-8859-7", "iso-8859-8",
	"iso-8859-8-i", "iso-8859-10", "iso-8859-13", "iso-8859-14", "iso-8859-15", "iso-8859-16", "koi8-r", "koi8-u",
	"macintosh", "windows-874", "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
	"windows-1255", "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic",
}

// A byteTable maps each byte to its code point; -1 marks a byte the index
// leaves undefined (malformed).
type byteTable [256]rune

// nodeOverrides are the bytes Node (whose tables are ICU's) decodes
// differently from golang.org/x/text's tables, beyond the C1 rule (see
// singleByteTables). -1: malformed. Each was found by decoding all 256
// bytes under node v20 (TestDecoderMatchesNode keeps them true).
var nodeOverrides = map[string]map[byte]rune{
	"ibm866":       {0x1A: 0x1C, 0x1C: 0x7F, 0x7F: 0x1A},
	"koi8-u":       {0xAE: 0x255D, 0xBE: 0x256C},
	"windows-874":  {0xDB: 0xF8C1, 0xDC: 0xF8C2, 0xDD: 0xF8C3, 0xDE: 0xF8C4, 0xFC: 0xF8C5, 0xFD: 0xF8C6, 0xFE: 0xF8C7, 0xFF: 0xF8C8},
	"windows-1253": {0xAA: 0xAA},
	"windows-1255": {0xCA: -1},
}

// singleByteTables are the decoding tables: golang.org/x/text's charmaps,
// where a byte 0x80–0x9F it leaves undefined is U+0080–U+009F (as the
// WHATWG indexes and Node have it), then nodeOverrides. windows-1252 (the
// encoding of the labels latin1, ascii and iso-8859-1) is ISO-8859-1 in
// Node — every byte is the code point of the same value, 0x80–0x9F
// included — and so it is here.
var singleByteTables = sync.OnceValue(func() map[string]*byteTable {
	m := map[string]*byteTable{}
	for _, name := range singleByteNames {
		src := name
		if name == "iso-8859-8-i" {
			src = "iso-8859-8" // the same bytes; only the text direction differs
		}
		e, err := htmlindex.Get(src)
		if err != nil {
			continue
		}
		cm, ok := e.(*charmap.Charmap)
		if !ok {
			continue
		}
		t := new(byteTable)
		for b := 0; b < 256; b++ {
			r := cm.DecodeByte(byte(b))
			switch {
			case name == "windows-1252":
				r = rune(b)
			case r == utf8.RuneError && b >= 0x80 && b <= 0x9F:
				r = rune(b)
			case r == utf8.RuneError:
				r = -1
			}
			t[b] = r
		}
		for b, r := range nodeOverrides[name] {
			t[b] = r
		}
		m[name] = t
	}
	return m
})

// singleByteTable is the table of a single-byte encoding, nil for others.
func singleByteTable(name string) *byteTable { return singleByteTables()[name] }

// singleByteDecoder decodes with a table; it keeps no state between calls.
type singleByteDecoder struct{ table *byteTable }

func (d *singleByteDecoder) reset() {}

func (d *singleByteDecoder) decode(out []rune, b []byte, _ bool, bad func() bool) []rune {
	for _, c := range b {
		r := d.table[c]
		if r < 0 {
			if !bad() {
				return out
			}
			r = utf8.RuneError
		}
		out = append(out, r)
	}
	return out
}
