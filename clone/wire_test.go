package clone_test

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/jsworker/jsworker/clone"
)

// wireCases are frames written out byte by byte. Serialize must produce
// exactly these bytes and Deserialize must read them back (V8's
// value-serializer-unittest style).
var wireCases = []struct {
	name  string
	src   string // the value, in JS
	frame []byte
	cond  string // what the decoded v must satisfy
}{
	{"small object", `({i: 1, s: "hello"})`, []byte{
		0x01,           // version 1
		'o',            // begin object
		'"', 0x01, 'i', // key: one-byte string of length 1, "i"
		'I', 0x02, // int32, zigzag(1) = 2
		'"', 0x01, 's', // key "s"
		'"', 0x05, 'h', 'e', 'l', 'l', 'o', // one-byte string of length 5
		'{', // end of object
	}, `Object.keys(v).join() === "i,s" && v.i === 1 && v.s === "hello"`},

	{"numbers", `[-1, -0, 2**31, NaN]`, []byte{
		0x01,      // version 1
		'A', 0x04, // dense array of length 4
		'I', 0x01, // int32, zigzag(-1) = 1
		'N', 0, 0, 0, 0, 0, 0, 0, 0x80, // double -0, little-endian
		'N', 0, 0, 0, 0, 0, 0, 0xE0, 0x41, // double 2**31 = 0x41E0000000000000
		'N', 0, 0, 0, 0, 0, 0, 0xF8, 0x7F, // double NaN, canonical quiet NaN
	}, `v.length === 4 && v[0] === -1 && Object.is(v[1], -0) && v[2] === 2**31 && Number.isNaN(v[3])`},

	{"strings", `["é", "€", "\ud800x", ""]`, []byte{
		0x01,      // version 1
		'A', 0x04, // dense array of length 4
		'"', 0x01, 0xE9, // one-byte string: U+00E9 fits in Latin-1
		'c', 0x01, 0xAC, 0x20, // two-byte string of 1 code unit: U+20AC, little-endian
		'c', 0x02, 0x00, 0xD8, 'x', 0x00, // two-byte: lone surrogate D800, then "x"
		'"', 0x00, // empty string
	}, `v[0] === "é" && v[1] === "€" && v[2] === "\ud800x" && v[3] === ""`},

	{"holes, BigInt, Date", `[1, , -256n, new Date(NaN)]`, []byte{
		0x01,      // version 1
		'A', 0x04, // dense array of length 4
		'I', 0x02, // 1
		'-',                   // hole
		'Z', 0x05, 0x00, 0x01, // BigInt: (2 bytes << 1) | negative; magnitude 0x0100 least significant first
		'D', 0, 0, 0, 0, 0, 0, 0xF8, 0x7F, // Date, time value NaN (invalid date)
	}, `v.length === 4 && !(1 in v) && v[2] === -256n && v[3] instanceof Date && isNaN(v[3])`},

	{"cycle and shared reference", `var o = {}; o.self = o; o.arr = [o]; o`, []byte{
		0x01,                          // version 1
		'o',                           // object #0
		'"', 0x04, 's', 'e', 'l', 'f', // key "self"
		'^', 0x00, // back-reference to object #0
		'"', 0x03, 'a', 'r', 'r', // key "arr"
		'A', 0x01, // object #1: dense array of length 1
		'^', 0x00, // back-reference to object #0
		'{', // end of object #0
	}, `v.self === v && v.arr[0] === v && Object.keys(v).join() === "self,arr"`},

	{"sparse array", `var a = []; a[3] = true; a.length = 70000; a`, []byte{
		0x01,                  // version 1
		'a', 0xF0, 0xA2, 0x04, // sparse array, length 70000 = 0x11170 as varint
		0x04, 'T', // index 3 (written as 3+1), true
		0x00, // end of elements
	}, `v.length === 70000 && v[3] === true && Object.keys(v).join() === "3"`},

	{"docs/wire-format.md example", `var a = [1, , "é"]; ({a, b: a, n: -0})`, []byte{
		0x01,           // version 1
		'o',            // begin object #0
		'"', 0x01, 'a', // key "a"
		'A', 0x03, // object #1: dense array of length 3
		'I', 0x02, // 1
		'-',             // hole
		'"', 0x01, 0xE9, // "é"
		'"', 0x01, 'b', // key "b"
		'^', 0x01, // back-reference to object #1
		'"', 0x01, 'n', // key "n"
		'N', 0, 0, 0, 0, 0, 0, 0, 0x80, // -0
		'{', // end of object #0
	}, `v.a === v.b && v.a.length === 3 && !(1 in v.a) && v.a[2] === "é" && Object.is(v.n, -0)`},

	{"primitives at the root", `null`, []byte{0x01, '0'}, `v === null`},
}

func TestWireEncode(t *testing.T) {
	for _, tc := range wireCases {
		t.Run(tc.name, func(t *testing.T) {
			f := mustSerialize(t, tc.src)
			defer f.Release()
			if !bytes.Equal(f.Bytes(), tc.frame) {
				t.Errorf("Serialize(%s) =\n% x\nwant\n% x", tc.src, f.Bytes(), tc.frame)
			}
		})
	}
}

func TestWireDecode(t *testing.T) {
	for _, tc := range wireCases {
		t.Run(tc.name, func(t *testing.T) {
			rt, v, err := deserialize(tc.frame)
			if err != nil {
				t.Fatal(err)
			}
			check(t, rt, v, tc.cond)
		})
	}
	// Encodings the writer does not choose but the format allows.
	for _, tc := range []struct {
		name  string
		frame []byte
		cond  string
	}{
		{"integer as double", []byte{0x01, 'N', 0, 0, 0, 0, 0, 0, 0xF0, 0x3F}, `v === 1`},
		{"ASCII as two-byte", []byte{0x01, 'c', 0x01, 'a', 0x00}, `v === "a"`},
		{"short sparse array", []byte{0x01, 'a', 0x03, 0x02, '_', 0x00}, `v.length === 3 && (1 in v) && !(0 in v)`},
		{"non-ASCII Latin-1 key", []byte{0x01, 'o', '"', 0x01, 0xE9, 'T', '{'}, `v["é"] === true`},
		{"surrogate pair key", []byte{0x01, 'o', 'c', 0x02, 0x3D, 0xD8, 0x00, 0xDE, 'T', '{'}, `v["😀"] === true`},
		{"duplicate key", []byte{0x01, 'o', '"', 0x01, 'a', 'T', '"', 0x01, 'a', 'F', '{'}, `v.a === false`},
		{"huge empty array", []byte{0x01, 'a', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00}, `v.length === 2**32 - 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rt, v, err := deserialize(tc.frame)
			if err != nil {
				t.Fatal(err)
			}
			check(t, rt, v, tc.cond)
		})
	}
}

// validFrames returns frames of several values, for truncation and fuzzing.
func validFrames(t testing.TB) [][]byte {
	var frames [][]byte
	for _, tc := range wireCases {
		frames = append(frames, tc.frame)
	}
	for _, src := range []string{
		`({a: [1, , {b: "c", d: new Date(5)}], e: 2n**70n, f: "日本", g: -0.5})`,
		`var s = {x: [true, false, null, undefined]}; var o = {s, t: s, u: [s, s]}; o.o = o; o`,
		`["\udc00", "é".repeat(3), {"é": {"€": 1}}]`,
	} {
		f := mustSerialize(t, src)
		frames = append(frames, bytes.Clone(f.Bytes()))
		f.Release()
	}
	return frames
}

func TestRejectTruncated(t *testing.T) {
	for _, frame := range validFrames(t) {
		for n := 0; n < len(frame); n++ {
			if _, _, err := deserialize(frame[:n]); !errors.Is(err, clone.ErrMalformedFrame) {
				t.Errorf("prefix %d of % x: got %v, want ErrMalformedFrame", n, frame, err)
			}
		}
	}
}

func TestRejectMalformed(t *testing.T) {
	tests := []struct {
		name  string
		frame []byte
		want  string // part of the message
	}{
		{"empty", []byte{}, "empty frame"},
		{"version 0", []byte{0x00, '_'}, "version 0"},
		{"version 2", []byte{0x02, '_'}, "version 2"},
		{"version 255", []byte{0xFF, 0x0F}, "version 255"},
		{"no value", []byte{0x01}, "end of frame"},
		{"unknown tag", []byte{0x01, 'x'}, "unknown tag 0x78"},
		{"hole outside an array", []byte{0x01, '-'}, "unknown tag 0x2d"},
		{"object end at the root", []byte{0x01, '{'}, "unknown tag 0x7b"},
		{"number as a key", []byte{0x01, 'o', 'I', 0x02, '_', '{'}, "where a property name was expected"},
		{"object end in an array", []byte{0x01, 'A', 0x01, '{'}, "unknown tag"},
		{"trailing bytes", []byte{0x01, '_', '_'}, "1 trailing bytes"},
		{"back-reference with no objects", []byte{0x01, '^', 0x00}, "back-reference to object 0 of 0"},
		{"back-reference ahead", []byte{0x01, 'o', '"', 0x01, 'a', '^', 0x01, '{'}, "back-reference to object 1 of 1"},
		{"back-reference huge", []byte{0x01, 'A', 0x01, '^', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, "back-reference"},
		{"overlong varint", []byte{0x01, 'I', 0x80, 0x00}, "overlong varint"},
		{"varint over 5 bytes", []byte{0x01, 'I', 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, "varint too long"},
		{"varint over 32 bits", []byte{0x01, 'I', 0xFF, 0xFF, 0xFF, 0xFF, 0x1F}, "varint out of range"},
		{"BigInt minus zero", []byte{0x01, 'Z', 0x01}, "non-canonical BigInt"},
		{"BigInt top zero byte", []byte{0x01, 'Z', 0x04, 0x01, 0x00}, "non-canonical BigInt"},
		{"Date with a fraction", []byte{0x01, 'D', 0, 0, 0, 0, 0, 0, 0xE0, 0x3F}, "invalid Date"},
		{"Date out of range", []byte{0x01, 'D', 0, 0, 0, 0, 0, 0, 0xF0, 0x7F}, "invalid Date"},
		{"sparse index repeated", []byte{0x01, 'a', 0x05, 0x02, '_', 0x02, '_', 0x00}, "out of order"},
		{"sparse index past length", []byte{0x01, 'a', 0x02, 0x03, '_', 0x00}, "not below length"},
		{"lone surrogate key", []byte{0x01, 'o', 'c', 0x01, 0x00, 0xD8, '_', '{'}, "unpaired surrogate"},
		{"reversed surrogate key", []byte{0x01, 'o', 'c', 0x02, 0x00, 0xDC, 0x00, 0xD8, '_', '{'}, "unpaired surrogate"},
		// Claimed lengths far beyond the frame: rejected before allocating.
		{"huge one-byte string", []byte{0x01, '"', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a'}, "exceeds"},
		{"huge two-byte string", []byte{0x01, 'c', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a', 0}, "exceeds"},
		{"huge key", []byte{0x01, 'o', '"', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a'}, "exceeds"},
		{"huge dense array", []byte{0x01, 'A', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, '_'}, "exceeds"},
		{"huge BigInt", []byte{0x01, 'Z', 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x01}, "exceeds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			_, _, err := deserialize(tt.frame)
			runtime.ReadMemStats(&ms)
			if !errors.Is(err, clone.ErrMalformedFrame) {
				t.Fatalf("got %v, want ErrMalformedFrame", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			// goja.New accounts for most of this; a claimed length would be GBs.
			if d := ms.TotalAlloc - before; d > 16<<20 {
				t.Errorf("allocated %d bytes", d)
			}
		})
	}
}
