package encoding

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// A decodeCase is a TextDecoder fed chunks: every chunk but the last with
// {stream: true}, the last without.
type decodeCase struct {
	Label     string  `json:"label"`
	Fatal     bool    `json:"fatal"`
	IgnoreBOM bool    `json:"ignoreBOM"`
	Chunks    [][]int `json:"chunks"`
}

// decodeNode is the node side: for each case the encoding name and the
// decoded strings, or "ERR " and the error code.
const decodeNode = `
const out = INPUT.map((c) => {
	let d;
	try { d = new TextDecoder(c.label, { fatal: c.fatal, ignoreBOM: c.ignoreBOM }); } catch (e) { return ['ERR ' + e.code]; }
	const res = [d.encoding];
	c.chunks.forEach((ch, i) => {
		try { res.push(d.decode(Uint8Array.from(ch), { stream: i < c.chunks.length - 1 })); } catch (e) { res.push('ERR ' + e.code); }
	});
	return res;
});
process.stdout.write(JSON.stringify(out));
`

func decodeGo(c decodeCase) []string {
	d, err := NewDecoder(c.Label, c.Fatal, c.IgnoreBOM)
	if err != nil {
		var ns *NotSupportedError
		if errors.As(err, &ns) {
			return []string{"ERR ERR_ENCODING_NOT_SUPPORTED"}
		}
		return []string{"ERR " + err.Error()}
	}
	res := []string{d.Encoding()}
	for i, ch := range c.Chunks {
		b := make([]byte, len(ch))
		for j, x := range ch {
			b[j] = byte(x)
		}
		s, err := d.Decode(b, i < len(c.Chunks)-1)
		if err != nil {
			var inv *InvalidDataError
			if errors.As(err, &inv) {
				s = "ERR ERR_ENCODING_INVALID_ENCODED_DATA"
			} else {
				s = "ERR " + err.Error()
			}
		}
		res = append(res, s)
	}
	return res
}

func bytesOf(xs ...int) []int { return append([]int{}, xs...) }

func allBytes() []int {
	b := make([]int, 256)
	for i := range b {
		b[i] = i
	}
	return b
}

func decodeCases() []decodeCase {
	var cs []decodeCase
	one := func(label string, fatal bool, chunks ...[]int) {
		cs = append(cs, decodeCase{Label: label, Fatal: fatal, Chunks: chunks})
	}
	// labels
	for _, l := range []string{"utf-8", "UTF8", " unicode-1-1-utf-8 ", "utf-16", "UTF-16LE", "utf-16be", "ucs-2", "unicodefffe",
		"latin1", "ascii", "us-ascii", "iso-8859-1", "ISO_8859-1:1987", "l1", "cp1252", "iso-8859-9", "latin5", "iso-8859-11",
		"tis-620", "cp866", "koi8", "koi8-ru", "mac", "x-mac-ukrainian", "cyrillic", "greek", "hebrew", "logical",
		"arabic", "csisolatin2", "l9", "dos-874", "windows-1258", "x-cp1250", "gb2312", "chinese", "x-gbk", "gb18030",
		"big5-hkscs", "cn-big5", "x-euc-jp", "csiso2022jp", "ms_kanji", "sjis", "windows-31j", "ks_c_5601-1987", "korean",
		"replacement", "csiso2022kr", "hz-gb-2312", "iso-2022-kr", "x-user-defined", "bogus", "", "utf-32", "utf-7"} {
		one(l, false, bytesOf(0x41))
	}
	// every single-byte encoding over all 256 bytes, replacing and fatal
	for _, n := range singleByteNames {
		if n == "iso-8859-16" {
			continue // WHATWG has it, Node (ICU) refuses it: TestISO885916
		}
		one(n, false, allBytes())
		one(n, true, allBytes())
		one(n, true, bytesOf(0x41, 0x80, 0xFF))
	}
	one("windows-1253", true, bytesOf(0xAA))
	one("windows-1253", false, bytesOf(0xAA, 0x41))
	// UTF-8: valid, malformed, BOM, streaming split at every byte
	utf8Inputs := [][]int{
		{}, {0x61}, {0xC3, 0xA9}, {0xE2, 0x82, 0xAC}, {0xF0, 0x9F, 0x98, 0x80}, {0xEF, 0xBB, 0xBF, 0x61}, {0xEF, 0xBB, 0xBF},
		{0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF}, {0x80}, {0xBF, 0x61}, {0xC0, 0x80}, {0xC1, 0xBF}, {0xC2}, {0xE0, 0x80, 0x80},
		{0xE0, 0xA0}, {0xED, 0xA0, 0x80}, {0xED, 0x9F, 0xBF}, {0xF0, 0x80, 0x80, 0x80}, {0xF4, 0x90, 0x80, 0x80},
		{0xF4, 0x8F, 0xBF, 0xBF}, {0xF5, 0x80}, {0xFE, 0xFF}, {0xF0, 0x9F, 0x98}, {0xF0, 0x9F, 0x61}, {0xE2, 0x61, 0x82},
		{0x61, 0xF0, 0x9F, 0x98, 0x80, 0xC3}, {0xC3, 0xC3, 0xA9},
	}
	for _, in := range utf8Inputs {
		one("utf-8", false, in)
		one("utf-8", true, in)
		cs = append(cs, decodeCase{Label: "utf-8", IgnoreBOM: true, Chunks: [][]int{in}})
		for cut := 1; cut < len(in); cut++ {
			one("utf-8", false, in[:cut], in[cut:])
			one("utf-8", true, in[:cut], in[cut:])
		}
		if len(in) > 0 {
			one("utf-8", false, in, bytesOf()) // the stream ends in a second call
			one("utf-8", false, in[:len(in)-1])
		}
	}
	one("utf-8", false, bytesOf(0xEF), bytesOf(0xBB), bytesOf(0xBF, 0x61))
	one("utf-8", false, bytesOf(0x61), bytesOf(0xEF, 0xBB, 0xBF))      // not at the start: kept
	one("utf-8", true, bytesOf(0xFF), bytesOf(0xEF, 0xBB, 0xBF, 0x62)) // after an error the stream restarts
	// UTF-16LE/BE
	utf16Inputs := [][]int{
		{}, {0x61, 0x00}, {0xFF, 0xFE, 0x61, 0x00}, {0xFE, 0xFF, 0x00, 0x61}, {0x3D, 0xD8, 0x00, 0xDE}, {0x00, 0xD8},
		{0x00, 0xDC, 0x61, 0x00}, {0x00, 0xD8, 0x00, 0xD8, 0x00, 0xDC}, {0x00, 0xD8, 0x61, 0x00}, {0x61}, {0x61, 0x00, 0x62},
		{0xD8, 0x3D, 0xDE, 0x00}, {0x00, 0x61, 0x00, 0x62}, {0xDC, 0x00}, {0xD8, 0x00, 0x00, 0x61},
	}
	for _, l := range []string{"utf-16le", "utf-16be"} {
		for _, in := range utf16Inputs {
			one(l, false, in)
			one(l, true, in)
			cs = append(cs, decodeCase{Label: l, IgnoreBOM: true, Chunks: [][]int{in}})
			for cut := 1; cut < len(in); cut++ {
				one(l, false, in[:cut], in[cut:])
			}
		}
	}
	// CJK: sample text, streaming splits, and random bytes
	cjk := map[string][]int{
		"shift_jis":   {0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x41, 0xB1},
		"euc-jp":      {0xC6, 0xFC, 0xCB, 0xDC, 0xB8, 0xEC, 0x8E, 0xB1},
		"gbk":         {0xD6, 0xD0, 0xCE, 0xC4, 0x80},
		"gb18030":     {0xD6, 0xD0, 0x81, 0x30, 0x81, 0x30, 0x84, 0x31, 0xA4, 0x37},
		"big5":        {0xA4, 0xA4, 0xA4, 0xE5, 0xA1, 0x40},
		"euc-kr":      {0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE},
		"iso-2022-jp": {0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x38, 0x6C, 0x1B, 0x28, 0x42, 0x61},
	}
	for _, name := range []string{"shift_jis", "euc-jp", "gbk", "gb18030", "big5", "euc-kr", "iso-2022-jp"} {
		in := cjk[name]
		one(name, false, in)
		one(name, true, in)
		for cut := 1; cut < len(in); cut++ {
			one(name, false, in[:cut], in[cut:])
		}
	}
	return cs
}

func TestDecoderMatchesNode(t *testing.T) {
	cases := decodeCases()
	var want [][]string
	runNode(t, decodeNode, cases, &want)
	if len(want) != len(cases) {
		t.Fatalf("node answered %d cases of %d", len(want), len(cases))
	}
	fails := 0
	for i, c := range cases {
		got := decodeGo(c)
		if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want[i]) {
			if fails++; fails <= 40 {
				t.Errorf("%s fatal=%v ignoreBOM=%v chunks=% x:\nnode:     %q\njsworker: %q", c.Label, c.Fatal, c.IgnoreBOM, c.Chunks, want[i], got)
			}
		}
	}
	t.Logf("%d cases, %d differ", len(cases), fails)
}

// TestCJKStreaming checks, on random input, that the multi-byte decoders
// give the same text however the input is split into stream chunks. (Node
// is not the reference here: ICU's CJK decoders differ from the WHATWG
// ones on malformed input and in the private-use areas; well-formed text
// is compared with Node in TestDecoderMatchesNode.)
func TestCJKStreaming(t *testing.T) {
	rng := rand.New(rand.NewSource(14))
	for name := range cjkNames {
		for i := 0; i < 300; i++ {
			b := make([]byte, rng.Intn(12))
			for j := range b {
				b[j] = byte(rng.Intn(256))
				if j > 0 && b[j-1] >= 0x80 && rng.Intn(2) == 0 {
					b[j] = byte(0x40 + rng.Intn(0xBF))
				}
			}
			d, err := NewDecoder(name, false, false)
			if err != nil {
				t.Fatal(err)
			}
			whole, _ := d.Decode(b, false)
			for cut := 0; cut <= len(b); cut++ {
				a, _ := d.Decode(b[:cut], true)
				c, _ := d.Decode(b[cut:], false)
				if a+c != whole {
					t.Fatalf("%s % x split at %d: %q+%q, whole %q", name, b, cut, a, c, whole)
				}
			}
			f, _ := NewDecoder(name, true, false)
			if s, err := f.Decode(b, false); err == nil && strings.ContainsRune(s, 0xFFFD) && name != "gb18030" {
				t.Fatalf("%s % x: fatal decoder gave U+FFFD without an error", name, b)
			} else if err != nil && !strings.ContainsRune(whole, 0xFFFD) {
				t.Fatalf("%s % x: fatal decoder failed on %q", name, b, whole)
			}
		}
	}
}

// TestISO885916 checks the one WHATWG encoding Node does not have, against
// bytes from the ISO 8859-16 standard.
func TestISO885916(t *testing.T) {
	d, err := NewDecoder("iso-8859-16", true, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Decode([]byte{0x41, 0xA1, 0xA4, 0xAA, 0xDE, 0xFF}, false)
	if err != nil || s != "AĄ€ȘȚÿ" {
		t.Fatalf("got %q, %v", s, err)
	}
}
