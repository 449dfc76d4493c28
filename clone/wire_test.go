package clone_test

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/jsworker/jsworker/clone"
)

// hdr is the header of a version-2 frame with an empty manifest.
var hdr = []byte{
	'J', 'S', 'W', 'C', // magic
	0x02,       // version 2
	0x00,       // manifest: 0 entries
	0x00, 0x00, // padding: the value starts at byte 8
}

// v2 returns a version-2 frame with an empty manifest holding value.
func v2(value ...byte) []byte { return append(append([]byte(nil), hdr...), value...) }

// wireCases are frames written out byte by byte. Serialize must produce
// exactly these bytes and Deserialize must read them back (V8's
// value-serializer-unittest style).
var wireCases = []struct {
	name  string
	src   string // the value, in JS
	frame []byte
	cond  string // what the decoded v must satisfy
}{
	{"small object", `({i: 1, s: "hello"})`, v2(
		'o',            // begin object
		'"', 0x01, 'i', // key: one-byte string of length 1, "i"
		'I', 0x02, // int32, zigzag(1) = 2
		'"', 0x01, 's', // key "s"
		'"', 0x05, 'h', 'e', 'l', 'l', 'o', // one-byte string of length 5
		'{', // end of object
	), `Object.keys(v).join() === "i,s" && v.i === 1 && v.s === "hello"`},

	{"numbers", `[-1, -0, 2**31, NaN]`, v2(
		'A', 0x04, // dense array of length 4
		'I', 0x01, // int32, zigzag(-1) = 1
		'N', 0, 0, 0, 0, 0, 0, 0, 0x80, // double -0, little-endian
		'N', 0, 0, 0, 0, 0, 0, 0xE0, 0x41, // double 2**31 = 0x41E0000000000000
		'N', 0, 0, 0, 0, 0, 0, 0xF8, 0x7F, // double NaN, canonical quiet NaN
	), `v.length === 4 && v[0] === -1 && Object.is(v[1], -0) && v[2] === 2**31 && Number.isNaN(v[3])`},

	{"strings", `["é", "€", "\ud800x", ""]`, v2(
		'A', 0x04, // dense array of length 4
		'"', 0x01, 0xE9, // one-byte string: U+00E9 fits in Latin-1
		'c', 0x01, 0xAC, 0x20, // two-byte string of 1 code unit: U+20AC, little-endian
		'c', 0x02, 0x00, 0xD8, 'x', 0x00, // two-byte: lone surrogate D800, then "x"
		'"', 0x00, // empty string
	), `v[0] === "é" && v[1] === "€" && v[2] === "\ud800x" && v[3] === ""`},

	{"holes, BigInt, Date", `[1, , -256n, new Date(NaN)]`, v2(
		'A', 0x04, // dense array of length 4
		'I', 0x02, // 1
		'-',                   // hole
		'Z', 0x05, 0x00, 0x01, // BigInt: (2 bytes << 1) | negative; magnitude 0x0100 least significant first
		'D', 0, 0, 0, 0, 0, 0, 0xF8, 0x7F, // Date, time value NaN (invalid date)
	), `v.length === 4 && !(1 in v) && v[2] === -256n && v[3] instanceof Date && isNaN(v[3])`},

	{"cycle and shared reference", `var o = {}; o.self = o; o.arr = [o]; o`, v2(
		'o',                           // object #0
		'"', 0x04, 's', 'e', 'l', 'f', // key "self"
		'^', 0x00, // back-reference to object #0
		'"', 0x03, 'a', 'r', 'r', // key "arr"
		'A', 0x01, // object #1: dense array of length 1
		'^', 0x00, // back-reference to object #0
		'{', // end of object #0
	), `v.self === v && v.arr[0] === v && Object.keys(v).join() === "self,arr"`},

	{"sparse array", `var a = []; a[3] = true; a.length = 70000; a`, v2(
		'a', 0xF0, 0xA2, 0x04, // sparse array, length 70000 = 0x11170 as varint
		0x04, 'T', // index 3 (written as 3+1), true
		0x00, // end of elements
	), `v.length === 70000 && v[3] === true && Object.keys(v).join() === "3"`},

	{"docs/wire-format.md example", `var a = [1, , "é"]; ({a, b: a, n: -0})`, v2(
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
	), `v.a === v.b && v.a.length === 3 && !(1 in v.a) && v.a[2] === "é" && Object.is(v.n, -0)`},

	{"primitives at the root", `null`, v2('0'), `v === null`},

	{"array with a named property", `var a = [1, 2]; a.x = "y"; a`, v2(
		'P',       // the array that follows has named properties
		'A', 0x02, // object #0: dense array of length 2
		'I', 0x02, // 1
		'I', 0x04, // 2
		'"', 0x01, 'x', // key "x"
		'"', 0x01, 'y', // "y"
		'{', // end of the named properties
	), `Array.isArray(v) && v.length === 2 && v[1] === 2 && v.x === "y" && Object.keys(v).join() === "0,1,x"`},

	{"Map", `new Map([[1, "a"], ["b", true]])`, v2(
		';', 0x02, // object #0: Map of 2 entries
		'I', 0x02, '"', 0x01, 'a', // key 1, value "a"
		'"', 0x01, 'b', 'T', // key "b", value true
	), `v instanceof Map && v.size === 2 && v.get(1) === "a" && v.get("b") === true && [...v.keys()].join() === "1,b"`},

	{"Set", `new Set([1, "a"])`, v2(
		'\'', 0x02, // object #0: Set of 2 values
		'I', 0x02, // 1
		'"', 0x01, 'a', // "a"
	), `v instanceof Set && v.size === 2 && [...v].join() === "1,a"`},

	{"RegExp", `var r = /a.b/gi; r.lastIndex = 3; r`, v2(
		'R',                      // object #0: RegExp
		'"', 0x03, 'a', '.', 'b', // source "a.b"
		0x03, // flags: global (1) | ignoreCase (2)
	), `v instanceof RegExp && v.source === "a.b" && v.flags === "gi" && v.lastIndex === 0`},

	{"Error", `var e = new TypeError("bad"); e.stack = "TypeError: bad\n"; e`, v2(
		'r',                      // object #0: Error
		'T',                      // prototype: TypeError.prototype
		'm',                      // message
		'"', 0x03, 'b', 'a', 'd', // "bad"
		's', // stack
		'"', 0x0F, 'T', 'y', 'p', 'e', 'E', 'r', 'r', 'o', 'r', ':', ' ', 'b', 'a', 'd', '\n',
		'.', // end of the Error
	), `v instanceof TypeError && v.name === "TypeError" && v.message === "bad" && v.stack === "TypeError: bad\n" &&
		!Object.getOwnPropertyDescriptor(v, "message").enumerable`},

	{"Error with a cause", `var e = new Error("x", {cause: 1}); delete e.stack; e`, v2(
		'r',                 // object #0: Error, prototype Error.prototype
		'm', '"', 0x01, 'x', // message "x"
		'c', 'I', 0x02, // cause: 1
		'.', // end
	), `Object.getPrototypeOf(v) === Error.prototype && v.message === "x" && v.cause === 1`},

	{"wrappers", `[new Boolean(true), new Boolean(false), new Number(1.5), Object(-1n), new String("é")]`, v2(
		'A', 0x05, // object #0: dense array of length 5
		'y',                               // object #1: new Boolean(true)
		'x',                               // object #2: new Boolean(false)
		'n', 0, 0, 0, 0, 0, 0, 0xF8, 0x3F, // object #3: new Number(1.5)
		'z', 0x03, 0x01, // object #4: Object(-1n): length 1, negative; magnitude 0x01
		's', '"', 0x01, 0xE9, // object #5: new String("é")
	), `v[0] instanceof Boolean && v[0].valueOf() === true && v[1].valueOf() === false &&
		v[2] instanceof Number && v[2].valueOf() === 1.5 && typeof v[3] === "object" && v[3].valueOf() === -1n &&
		v[4] instanceof String && v[4].valueOf() === "é"`},

	{"ArrayBuffer", `new Uint8Array([1, 2, 3]).buffer`, v2(
		'B', 0x03, // object #0: ArrayBuffer of 3 bytes
		0, 0, 0, 0, 0, 0, // padding: the bytes start at byte 16, a multiple of 8
		0x01, 0x02, 0x03, // the bytes
	), `v instanceof ArrayBuffer && v.byteLength === 3 && new Uint8Array(v).join() === "1,2,3"`},

	{"views sharing a buffer", `var b = new ArrayBuffer(8); [new Uint16Array(b, 2, 2), new DataView(b, 1, 3)]`, v2(
		'A', 0x02, // object #0: dense array of length 2
		'V', 'W', // object #1: a view, Uint16Array
		'B', 0x08, // object #2: its buffer, 8 bytes
		0, 0, // padding to byte 16
		0, 0, 0, 0, 0, 0, 0, 0, // the bytes
		0x02, 0x04, // byte offset 2, byte length 4
		'V', '?', // object #3: a view, DataView
		'^', 0x02, // its buffer: object #2
		0x01, 0x03, // byte offset 1, byte length 3
	), `v[0] instanceof Uint16Array && v[0].length === 2 && v[0].byteOffset === 2 && v[1] instanceof DataView &&
		v[1].byteOffset === 1 && v[1].byteLength === 3 && v[0].buffer === v[1].buffer && v[0].buffer.byteLength === 8`},
}

// legacyCases are version-1 frames, which Deserialize still reads.
var legacyCases = []struct {
	name  string
	frame []byte
	cond  string
}{
	{"small object", []byte{
		0x01,           // version 1 (no magic, no manifest)
		'o',            // begin object
		'"', 0x01, 'i', // key "i"
		'I', 0x02, // 1
		'"', 0x01, 's', // key "s"
		'"', 0x05, 'h', 'e', 'l', 'l', 'o', // "hello"
		'{', // end of object
	}, `Object.keys(v).join() === "i,s" && v.i === 1 && v.s === "hello"`},
	{"cycle, hole, Date", []byte{
		0x01,                          // version 1
		'o',                           // object #0
		'"', 0x04, 's', 'e', 'l', 'f', // key "self"
		'^', 0x00, // back-reference to object #0
		'"', 0x01, 'a', // key "a"
		'A', 0x02, // object #1: dense array of length 2
		'-',                               // hole
		'D', 0, 0, 0, 0, 0, 0, 0xF0, 0x3F, // object #2: Date, time value 1
		'{', // end of object #0
	}, `v.self === v && v.a.length === 2 && !(0 in v.a) && v.a[1].getTime() === 1`},
	{"primitive", []byte{0x01, 'c', 0x02, 0x00, 0xD8, 'x', 0x00}, `v === "\ud800x"`},
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
	for _, tc := range legacyCases {
		t.Run("version 1/"+tc.name, func(t *testing.T) {
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
		{"sparse array with a named property", v2('P', 'a', 0x03, 0x02, 'T', 0x00, '"', 0x01, 'x', '_', '{'),
			`v.length === 3 && v[1] === true && "x" in v && Object.keys(v).join() === "1,x"`},
		{"Map keyed by itself", v2(';', 0x01, '^', 0x00, 'I', 0x02), `v.get(v) === 1`},
		{"Error whose cause is itself", v2('r', 'c', '^', 0x00, '.'), `v.cause === v && !("message" in v && v.hasOwnProperty("message"))`},
		{"view over a buffer seen before", v2('A', 0x02, 'B', 0x04, 0, 0, 0, 0, 1, 2, 3, 4, 'V', 'B', '^', 0x01, 0x01, 0x02),
			`v[1] instanceof Uint8Array && v[1].buffer === v[0] && v[1].join() === "2,3"`},
		{"RegExp with a two-byte source", v2('R', 'c', 0x01, 0x00, 0xD8, 0x10), `v.source === "\ud800" && v.unicode`},
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

// validFrames returns the valid frames of the fuzz seeds.
func validFrames(t testing.TB) [][]byte {
	var frames [][]byte
	for _, s := range fuzzSeeds(t) {
		if strings.HasPrefix(s.name, "valid") {
			frames = append(frames, s.frame)
		}
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

// malformedCases are frames Deserialize must reject, each with part of the
// error message it must give.
var malformedCases = []struct {
	name  string
	frame []byte
	want  string // part of the message
}{
	{"empty", []byte{}, "empty frame"},
	{"no magic", []byte{0x00, '_'}, "not a frame"},
	{"short magic", []byte{'J', 'S', 'W'}, "not a frame"},
	{"version 0", []byte{'J', 'S', 'W', 'C', 0x00, 0x00, 0x00, 0x00, '_'}, "version 0"},
	{"version 4", []byte{'J', 'S', 'W', 'C', 0x04, 0x00, 0x00, 0x00, '_'}, "version 4"},
	{"host object in a version-2 frame", []byte{'J', 'S', 'W', 'C', 0x02, 0x00, 0x00, 0x00, 'H', '"', 0x01, 'X', 0x00, 0x00}, "tag 'H'"},
	{"version 255", []byte{'J', 'S', 'W', 'C', 0xFF}, "version 255"},
	{"no manifest", []byte{'J', 'S', 'W', 'C', 0x02}, "end of frame"},
	{"no padding", []byte{'J', 'S', 'W', 'C', 0x02, 0x00}, "padding"},
	{"non-zero padding", []byte{'J', 'S', 'W', 'C', 0x02, 0x00, 0x00, 0x01, '_'}, "non-zero padding"},
	{"no value", v2(), "end of frame"},
	{"unknown tag", v2('X'), "unknown tag 0x58"},
	{"hole outside an array", v2('-'), "unknown tag 0x2d"},
	{"object end at the root", v2('{'), "unknown tag 0x7b"},
	{"number as a key", v2('o', 'I', 0x02, '_', '{'), "where a property name was expected"},
	{"object end in an array", v2('A', 0x01, '{'), "unknown tag"},
	{"trailing bytes", v2('_', '_'), "1 trailing bytes"},
	{"back-reference with no objects", v2('^', 0x00), "back-reference to object 0 of 0"},
	{"back-reference ahead", v2('o', '"', 0x01, 'a', '^', 0x01, '{'), "back-reference to object 1 of 1"},
	{"back-reference huge", v2('A', 0x01, '^', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F), "back-reference"},
	{"overlong varint", v2('I', 0x80, 0x00), "overlong varint"},
	{"varint over 5 bytes", v2('I', 0x80, 0x80, 0x80, 0x80, 0x80, 0x01), "varint too long"},
	{"varint over 32 bits", v2('I', 0xFF, 0xFF, 0xFF, 0xFF, 0x1F), "varint out of range"},
	{"BigInt minus zero", v2('Z', 0x01), "non-canonical BigInt"},
	{"BigInt top zero byte", v2('Z', 0x04, 0x01, 0x00), "non-canonical BigInt"},
	{"Date with a fraction", v2('D', 0, 0, 0, 0, 0, 0, 0xE0, 0x3F), "invalid Date"},
	{"Date out of range", v2('D', 0, 0, 0, 0, 0, 0, 0xF0, 0x7F), "invalid Date"},
	{"sparse index repeated", v2('a', 0x05, 0x02, '_', 0x02, '_', 0x00), "out of order"},
	{"sparse index past length", v2('a', 0x02, 0x03, '_', 0x00), "not below length"},
	{"lone surrogate key", v2('o', 'c', 0x01, 0x00, 0xD8, '_', '{'), "unpaired surrogate"},
	{"reversed surrogate key", v2('o', 'c', 0x02, 0x00, 0xDC, 0x00, 0xD8, '_', '{'), "unpaired surrogate"},

	// Version 2 kinds.
	{"version 1 with a Map", []byte{0x01, ';', 0x00}, "unknown tag 0x3b"},
	{"named properties of an object", v2('P', 'o', '{', '{'), "not an array"},
	{"index among named properties", v2('P', 'A', 0x00, '"', 0x01, '0', '_', '{'), `"0" among an array's named properties`},
	{"length among named properties", v2('P', 'A', 0x00, '"', 0x06, 'l', 'e', 'n', 'g', 't', 'h', 'I', 0x02, '{'), `"length" among`},
	{"Map short of entries", v2(';', 0x02, '_', '_', '_'), "exceeds"},
	{"Map entry truncated", v2(';', 0x02, '_', '_', '_', 'o'), "end of frame"},
	{"Set short of values", v2('\'', 0x02, '_'), "exceeds"},
	{"RegExp with a number source", v2('R', 'I', 0x02, 0x00), "where a string was expected"},
	{"RegExp unknown flag bits", v2('R', '"', 0x00, 0x80, 0x02), "unknown RegExp flag bits"},
	{"RegExp that does not compile", v2('R', '"', 0x01, '(', 0x00), "does not compile"},
	{"Error fields out of order", v2('r', 'm', '"', 0x00, 'T', '.'), "unexpected byte 0x54 in an Error"},
	{"Error unterminated", v2('r', 'm', '"', 0x00), "end of frame"},
	{"Error message not a string", v2('r', 'm', 'I', 0x02, '.'), "where a string was expected"},
	{"reference into an unfinished Error", v2('r', 'm', '^', 0x00, '.'), "where a string was expected"},
	{"ArrayBuffer past the end", v2('B', 0x10, 0, 0, 0, 0, 0, 0, 1, 2), "exceeds"},
	{"ArrayBuffer non-zero padding", v2('B', 0x01, 0, 0, 0, 0, 0, 1, 7), "non-zero padding"},
	{"view of a non-buffer", v2('V', 'B', 'o', '{', 0x00, 0x00), "must be an ArrayBuffer"},
	{"view referring to a non-buffer", v2('A', 0x02, 'o', '{', 'V', 'B', '^', 0x01, 0x00, 0x00), "not an ArrayBuffer"},
	{"view referring to itself", v2('V', 'B', '^', 0x00, 0x00, 0x00), "cannot refer to itself"},
	{"view kind unknown", v2('V', 'X', 'B', 0x00, 0, 0, 0, 0, 0, 0, 0x00, 0x00), "unknown view kind 0x58"},
	{"view past its buffer", v2('V', 'B', 'B', 0x02, 0, 0, 0, 0, 0, 0, 1, 2, 0x01, 0x02), "does not fit"},
	{"view misaligned", v2('V', 'W', 'B', 0x04, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0x01, 0x02), "does not fit"},
	{"view odd length", v2('V', 'd', 'B', 0x04, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0x00, 0x02), "does not fit"},
	{"transferred buffer not in the manifest", v2('t', 0x00), "manifest entry 0"},
	{"shared buffer not in the manifest", v2('u', 0x00), "manifest entry 0"},
	{"manifest lists a transfer the frame lacks", []byte{'J', 'S', 'W', 'C', 0x02, 0x01, 't', 0x00, '_'}, "more transferred buffers"},
	{"manifest entry kind unknown", []byte{'J', 'S', 'W', 'C', 0x02, 0x01, 'x', 0x00, '_'}, "unknown manifest entry kind 0x78"},
	{"manifest count past the end", []byte{'J', 'S', 'W', 'C', 0x02, 0x7F, 'u', 0x00}, "exceeds"},
	{"manifest token truncated", []byte{'J', 'S', 'W', 'C', 0x02, 0x01, 'u', 1, 2, 3}, "token"},
	// Claimed lengths far beyond the frame: rejected before allocating.
	{"huge one-byte string", v2('"', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a'), "exceeds"},
	{"huge two-byte string", v2('c', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a', 0), "exceeds"},
	{"huge key", v2('o', '"', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 'a'), "exceeds"},
	{"huge dense array", v2('A', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, '_'), "exceeds"},
	{"huge BigInt", v2('Z', 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x01), "exceeds"},
	{"huge Map", v2(';', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, '_', '_'), "exceeds"},
	{"huge Set", v2('\'', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, '_'), "exceeds"},
	{"huge ArrayBuffer", v2('B', 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0), "exceeds"},
	{"huge manifest", []byte{'J', 'S', 'W', 'C', 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, "exceeds"},
}

func TestRejectMalformed(t *testing.T) {
	for _, tt := range malformedCases {
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
