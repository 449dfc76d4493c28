package encoding

import (
	"fmt"
	"math/rand"
	"testing"
)

// A bufferCase is Buffer.from(string, enc), Buffer.byteLength(string, enc)
// and buf.toString(enc) for a string and a byte array.
type bufferCase struct {
	Units []uint16 `json:"units"` // the string, as UTF-16 code units
	Bytes []int    `json:"bytes"`
	Enc   string   `json:"enc"`
}

type bufferResult struct {
	Hex        string   `json:"hex"` // Buffer.from(string, enc) in hex, or the error code
	ByteLength int      `json:"byteLength"`
	Units      []uint16 `json:"units"` // buf.toString(enc) as code units
	Err        string   `json:"err"`
}

const bufferNode = `
const out = INPUT.map((c) => {
	const s = String.fromCharCode(...c.units);
	try {
		const dec = Buffer.from(c.bytes).toString(c.enc);
		const units = [];
		for (let i = 0; i < dec.length; i++) units.push(dec.charCodeAt(i));
		return { hex: Buffer.from(s, c.enc).toString('hex'), byteLength: Buffer.byteLength(s, c.enc), units, err: '' };
	} catch (e) { return { hex: '', byteLength: 0, units: [], err: e.code }; }
});
process.stdout.write(JSON.stringify(out));
`

func bufferGo(c bufferCase) bufferResult {
	b, err := EncodeString(c.Units, c.Enc)
	if err != nil {
		return bufferResult{Units: []uint16{}, Err: "ERR_UNKNOWN_ENCODING"}
	}
	n, _ := ByteLength(c.Units, c.Enc)
	in := make([]byte, len(c.Bytes))
	for i, x := range c.Bytes {
		in[i] = byte(x)
	}
	u, _ := DecodeBytes(in, c.Enc)
	if u == nil {
		u = []uint16{}
	}
	return bufferResult{Hex: fmt.Sprintf("%x", b), ByteLength: n, Units: u}
}

func units(s string) []uint16 {
	var u []uint16
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
		} else {
			u = append(u, uint16(r))
		}
	}
	if u == nil {
		u = []uint16{}
	}
	return u
}

func bufferCases() []bufferCase {
	encs := []string{"utf8", "utf-8", "UTF8", "utf16le", "utf-16le", "ucs2", "ucs-2", "latin1", "binary", "ascii", "base64",
		"base64url", "hex", "HEX", "Base64"}
	strs := [][]uint16{
		units(""), units("abc"), units("héllo wörld"), units("€uro"), units("😀 emoji"), units("日本語"),
		{0xD800}, {0xDC00, 0x61}, {0x61, 0xD83D}, {0xD83D, 0xDE00, 0xD83D}, {0xFF, 0x100, 0xFFFF},
		units("YWJj"), units("YWJjZA=="), units("YWJjZA"), units("YW=Jj"), units("Y W\nJ j"), units("YWJj===="),
		units("YW-_"), units("YW+/"), units("a"), units("YQ"), units("YQ="), units("!!!"), units("aGVsbG8gd29ybGQ"),
		units("0123456789abcdefABCDEF"), units("abzz12"), units("abc"), units("0g"), units("  12"), units("1234 5678"),
		units("\x00\x7f\x80"), {0x161, 0x162}, {0x161, 'b', 0x3d, 'Y'}, {'Y', 'W', 0x163, 0x14a}, units("=abc"), units("ab=c="), units("SGVsbG8gV29ybGQh\r\n"),
	}
	byteInputs := [][]int{
		{}, {0x61, 0x62, 0x63}, {0xC3, 0xA9}, {0xFF, 0xFE, 0xFD}, {0xE2, 0x82}, {0xF0, 0x9F, 0x98, 0x80}, {0xEF, 0xBB, 0xBF, 0x61},
		{0xED, 0xA0, 0x80}, {0x00, 0xD8, 0x61, 0x00}, {0x3D, 0xD8, 0x00, 0xDE, 0x61}, {0x80, 0x81, 0xFF}, {0xFB, 0xFF},
		{0x00}, {0x01, 0x02, 0x03, 0x04, 0x05},
	}
	rng := rand.New(rand.NewSource(6))
	for i := 0; i < 30; i++ {
		b := make([]int, rng.Intn(10))
		for j := range b {
			b[j] = rng.Intn(256)
		}
		byteInputs = append(byteInputs, b)
		s := make([]uint16, rng.Intn(8))
		for j := range s {
			switch rng.Intn(4) {
			case 0:
				s[j] = uint16(rng.Intn(0x80))
			case 1:
				s[j] = uint16(0xD800 + rng.Intn(0x800))
			default:
				s[j] = uint16(rng.Intn(0x10000))
			}
		}
		strs = append(strs, s)
	}
	var cs []bufferCase
	for _, e := range encs {
		for i, s := range strs {
			cs = append(cs, bufferCase{Units: s, Bytes: byteInputs[i%len(byteInputs)], Enc: e})
		}
	}
	cs = append(cs, bufferCase{Units: units("x"), Bytes: []int{}, Enc: "utf32"})
	return cs
}

func TestBufferMatchesNode(t *testing.T) {
	cases := bufferCases()
	var want []bufferResult
	runNode(t, bufferNode, cases, &want)
	if len(want) != len(cases) {
		t.Fatalf("node answered %d cases of %d", len(want), len(cases))
	}
	fails := 0
	for i, c := range cases {
		got := bufferGo(c)
		if fmt.Sprint(got) != fmt.Sprint(want[i]) {
			if fails++; fails <= 30 {
				t.Errorf("%s string %04x bytes % x:\nnode:     %+v\njsworker: %+v", c.Enc, c.Units, c.Bytes, want[i], got)
			}
		}
	}
	t.Logf("%d cases, %d differ", len(cases), fails)
}
