// Package clone implements the HTML structured clone algorithm for goja
// values: Serialize copies a value graph out of one runtime into a Frame, a
// self-contained byte string that belongs to no runtime; Deserialize builds
// the same graph in another runtime. docs/wire-format.md is the user-facing
// copy of this description, with a worked example.
//
// # Encoding (wire format version 1)
//
// All multi-byte numbers are little-endian, whatever the host: the frame is
// portable between machines. A varint is unsigned LEB128 (7 bits per byte,
// low bits first, high bit set on all bytes but the last), minimal (no
// trailing 0x00 byte), at most 5 bytes and at most 2**32-1. A frame is
//
//	version:byte (= 0x01)  value  (nothing after it)
//
// and a value is one tag byte followed by its payload:
//
//	'_' 0x5F  undefined         no payload
//	'0' 0x30  null              no payload
//	'T' 0x54  true              no payload
//	'F' 0x46  false             no payload
//	'I' 0x49  number (int32)    varint zigzag(n); n fits in int32 and is not -0
//	'N' 0x4E  number            float64, 8 bytes IEEE 754 (any number: -0, NaN, ±Infinity, 2**53)
//	'Z' 0x5A  BigInt            varint (len<<1 | sign), then len bytes of magnitude, least significant first;
//	                            canonical: no top 0x00 byte, zero is len 0 with sign 0
//	'"' 0x22  string, one-byte  varint n, then n bytes, each one UTF-16 code unit 0x00..0xFF (Latin-1)
//	'c' 0x63  string, two-byte  varint n (code units, not bytes), then n code units of 2 bytes each;
//	                            lone surrogates allowed in values
//	'o' 0x6F  object            (key value)* then '{'; key is a '"' or 'c' string (well-formed UTF-16)
//	'{' 0x7B  end of object     no payload; only where a key may start
//	'A' 0x41  array, dense      varint length, then exactly length elements, each a value or '-'
//	'-' 0x2D  hole              no payload; only as an element of 'A'
//	'a' 0x61  array, sparse     varint length, then (varint index+1, value)* with strictly increasing
//	                            indices below length, then varint 0
//	'D' 0x44  Date              float64 time value in ms since the epoch; NaN for an invalid date;
//	                            otherwise an integer within ±8.64e15
//	'^' 0x5E  back-reference    varint id of an object written earlier in this frame
//
// Objects ('o', 'A', 'a', 'D') are numbered 0, 1, 2 ... in the order their tags
// appear; '^' names one of them, possibly one still being written (a cycle).
// A container ('o', 'A', 'a') nested inside k containers is at depth k; the
// root is at depth 0 and depth 256 is the deepest allowed.
//
// Design note: the tag letters are V8's (value-serializer.cc) so that a hex
// dump reads the same, but the payloads are not V8's and neither are the
// rules: this format has no host byte order, no padding, counts ahead of
// items only where the reader must bound an allocation ('A', strings,
// BigInt), and end markers where a getter may drop an entry while the writer
// walks ('o', 'a'). A reader checks every length against the bytes left before
// allocating, so a forged frame costs at most its own size. Strings keep
// their UTF-16 code units exactly; a value's string uses one byte per unit
// when every unit fits. Arrays shorter than 65,537 elements are walked index
// by index and written dense; longer ones are written sparse from their own
// keys, so an array with length 2**32-1 and one element costs a few bytes.
//
// # Version history
//
//	1  first version: primitives, strings, plain objects, arrays, Date, references.
//
// WARNING: changing the meaning of a byte requires a new version number, and
// a new version is a wire break between releases: readers reject versions
// they do not know. Retired tags are never reused.
//
// # What version 1 clones
//
// Supported: undefined, null, booleans, numbers (exact bits: -0, NaN), BigInt,
// strings (lone surrogates kept), plain objects and class instances (as plain
// objects: own enumerable string keys in order, values read with [[Get]] so
// getters run, prototype and symbols dropped), arrays (length and elements;
// holes are kept as holes; named properties such as a.foo are dropped), Date
// (invalid dates too), shared references and cycles.
//
// Rejected with a *DataCloneError: functions, symbols, and every other object
// kind (Map, Set, RegExp, Error, Boolean/Number/String/BigInt/Symbol wrappers,
// ArrayBuffer, typed arrays, DataView, Proxy, Promise, WeakMap, WeakSet,
// generators, iterators, arguments objects, Go values wrapped by
// Runtime.ToValue, ...), property names that contain U+FFFD or a lone surrogate
// (goja's Keys hands them out as U+FFFD, so they cannot be told apart),
// nesting deeper than 256, and a non-empty transfer list. A later version
// adds the rest of the HTML algorithm.
//
// Object kinds are identified by the Go type goja implements them with (see
// kinds.go), which JS code cannot forge, rather than by prototype chains.
package clone
