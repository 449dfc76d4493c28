// Package clone implements the HTML structured clone algorithm for goja
// values: Serialize copies a value graph out of one runtime into a Frame, a
// self-contained byte string (plus the memory of transferred ArrayBuffers)
// that belongs to no runtime; Deserialize builds the same graph in another
// runtime; InstallStructuredClone gives a realm the structuredClone global.
// docs/wire-format.md is the user-facing copy of this description, with
// worked examples.
//
// # Encoding (wire format versions 2 and 3)
//
// All multi-byte numbers are little-endian, whatever the host: the frame is
// portable between machines. A varint is unsigned LEB128 (7 bits per byte,
// low bits first, high bit set on all bytes but the last), minimal (no
// trailing 0x00 byte), at most 5 bytes and at most 2**32-1. A frame is
//
//	magic "JSWC"  version:byte (= 0x02; 0x03 when the value holds a host object)  manifest  padding  value
//
// (nothing after the value). Version 3 is version 2 plus the tag 'H'; it is
// written only for frames holding a host object, so that readers of the
// previous release still read every other frame and refuse those by their
// version. A version-2 frame with an 'H' is malformed.
//
// The manifest lists what the frame carries besides its bytes: varint n,
// then n entries, each a kind byte and its payload:
//
//	't' 0x74  transferred ArrayBuffer   varint byteLength; the memory travels beside the bytes,
//	                                    the i-th 't' entry naming the frame's i-th buffer
//	'u' 0x75  SharedArrayBuffer         16-byte token (random, single use), varint byteLength when sent
//	                                    (a growable buffer may have grown by the time it is read)
//	'p' 0x70  transferred MessagePort   16-byte token (random, single use) of the MessagePorts hook (port.go);
//	                                    these entries follow the 't' entries, before the 'u' ones
//
// The padding is zero bytes up to the next multiple of 8 from the frame
// start, so that the value starts 8-aligned. A value is one tag byte
// followed by its payload:
//
//	'_'  0x5F  undefined             no payload
//	'0'  0x30  null                  no payload
//	'T'  0x54  true                  no payload
//	'F'  0x46  false                 no payload
//	'I'  0x49  number (int32)        varint zigzag(n); n fits in int32 and is not -0
//	'N'  0x4E  number                float64, 8 bytes IEEE 754 (any number: -0, NaN, ±Infinity, 2**53)
//	'Z'  0x5A  BigInt                varint (len<<1 | sign), then len bytes of magnitude, least significant first;
//	                                 canonical: no top 0x00 byte, zero is len 0 with sign 0
//	'"'  0x22  string, one-byte      varint n, then n bytes, each one UTF-16 code unit 0x00..0xFF (Latin-1)
//	'c'  0x63  string, two-byte      varint n (code units, not bytes), then n code units of 2 bytes each;
//	                                 lone surrogates allowed in values
//	'o'  0x6F  object                (key value)* then '{'; key is a '"' or 'c' string (well-formed UTF-16)
//	'{'  0x7B  end                   no payload; ends an 'o' or the properties of a 'P'
//	'A'  0x41  array, dense          varint length, then exactly length elements, each a value or '-'
//	'-'  0x2D  hole                  no payload; only as an element of 'A'
//	'a'  0x61  array, sparse         varint length, then (varint index+1, value)* with strictly increasing
//	                                 indices below length, then varint 0
//	'P'  0x50  array with properties an 'A' or 'a' array, then (key value)* then '{': its named properties;
//	                                 no key is an array index or "length"
//	'D'  0x44  Date                  float64 time value in ms since the epoch; NaN for an invalid date;
//	                                 otherwise an integer within ±8.64e15
//	'R'  0x52  RegExp                source (a '"' or 'c' string), then varint flags: g 1, i 2, m 4, y 8,
//	                                 u 16, s 32, d 64, v 128 (d and v: refused by this engine)
//	';'  0x3B  Map                   varint n, then n (key value) pairs in insertion order
//	'\'' 0x27  Set                   varint n, then n values in insertion order
//	'r'  0x72  Error                 fields, each at most once and in this order, then '.':
//	                                   prototype: 'E' EvalError, 'R' RangeError, 'F' ReferenceError,
//	                                   'S' SyntaxError, 'T' TypeError, 'U' URIError (none: Error);
//	                                   'm' message (a string); 's' stack (a string); 'c' cause (a value)
//	'y'  0x79  Boolean object, true  no payload
//	'x'  0x78  Boolean object, false no payload
//	'n'  0x6E  Number object         float64, 8 bytes
//	'z'  0x7A  BigInt object         payload of 'Z'
//	's'  0x73  String object         a '"' or 'c' string
//	'B'  0x42  ArrayBuffer           varint n, zero padding to a multiple of 8 from the frame start, n bytes
//	't'  0x74  ArrayBuffer, moved    varint index of a 't' manifest entry
//	'u'  0x75  SharedArrayBuffer     varint index of a 'u' manifest entry
//	'p'  0x70  MessagePort           varint index of a 'p' manifest entry (only a port in the transfer list)
//	'V'  0x56  view                  kind byte, the buffer (a 'B', 't', 'u' or '^' value), varint byteOffset,
//	                                 varint byteLength; kinds: 'b' Int8, 'B' Uint8, 'C' Uint8Clamped,
//	                                 'w' Int16, 'W' Uint16, 'd' Int32, 'D' Uint32, 'f' Float32,
//	                                 'F' Float64, 'q' BigInt64, 'Q' BigUint64 (…Array), '?' DataView;
//	                                 offset and length are multiples of the element size, within the buffer
//	'^'  0x5E  back-reference        varint id of an object written earlier in this frame
//	'H'  0x48  host object (v3)      kind name (a '"' string, 1 to 64 ASCII bytes), varint n, n primitive
//	                                 fields (tags _ 0 T F I N Z " c), varint byteLength, the bytes (host.go)
//
// Objects ('o', 'A', 'a', 'D', 'R', ';', 0x27, 'r', 'y', 'x', 'n', 'z', 's',
// 'B', 't', 'u', 'V', 'H') are numbered 0, 1, 2 ... in the order their tags
// appear; '^' names one of them, possibly a container still being written
// (a cycle). A view's id
// comes before its buffer's, an Error's before its fields. Each manifest
// entry is named by at most one 't' or 'u' (later mentions are '^').
// A container ('o', 'A', 'a', ';', 0x27, 'r') nested inside k containers
// is at depth k; the root is at depth 0 and depth 256 is the deepest
// allowed.
//
// Design note: the tag letters are V8's (value-serializer.cc) so that a hex
// dump reads the same, but the payloads are not V8's and neither are the
// rules: this format has no host byte order, counts ahead of items only
// where the reader must bound an allocation, and end markers where a getter
// may drop an entry while the writer walks ('o', 'a', 'P'). A reader checks
// the whole manifest, then every count and length against the bytes left
// before allocating, so a forged frame costs at most its own size. Strings
// keep their UTF-16 code units exactly; a value's string uses one byte per
// unit when every unit fits. Arrays shorter than 65,537 elements are walked
// index by index and written dense; longer ones are written sparse from their
// own keys, so an array with length 2**32-1 and one element costs a few
// bytes. ArrayBuffer bytes are 8-aligned so that a reader may use the
// frame's memory in place. Version 2 kept every tag of version 1 with its
// payload: a version-1 frame (first byte 0x01, no magic, no manifest, only
// the tags of version 1) is still read.
//
// # Version history
//
//	1  first version: primitives, strings, plain objects, arrays, Date, references.
//	   Frame: version byte 0x01, value.
//	2  magic, manifest and padding before the value; added 'P', 'R', ';', 0x27, 'r',
//	   'y', 'x', 'n', 'z', 's', 'B', 't', 'u', 'V'. Version-1 tags unchanged.
//	3  added 'H' (host objects). Only frames holding one are version 3.
//
// WARNING: changing the meaning of a byte requires a new version number, and
// a new version is a wire break between releases: readers reject versions
// they do not know. Retired tags are never reused.
//
// # What is cloned
//
// Supported, following the HTML algorithm: undefined, null, booleans,
// numbers (exact bits: -0, NaN), BigInt, strings (lone surrogates kept);
// plain objects and class instances (as plain objects: own enumerable string
// keys in order, values read with [[Get]] so getters run, prototype and
// symbols dropped), and the other ordinary objects (Math, builtin
// prototypes); arrays (length, holes, and named properties such as a.foo);
// Date (invalid dates too); RegExp (source and flags; lastIndex is 0);
// Map and Set (insertion order, read through the realm's intrinsic
// Map.prototype.forEach and Set storage, never through a patchable
// @@iterator); Error, EvalError, RangeError, ReferenceError, SyntaxError,
// TypeError and URIError (prototype chosen by the "name" property as HTML
// says, own data properties message, stack and cause); Boolean, Number,
// BigInt and String objects; ArrayBuffer (bytes copied, or moved when
// transferred); every typed array kind and DataView (as views of their
// cloned buffer: views sharing a buffer share it after the clone); shared
// references and cycles; the realm's host objects (SetHostKinds: the Node
// layer's Blob, File and DOMException), built by the receiving realm's own
// kinds. Subclass instances arrive as instances of the builtin class. Own properties of anything but objects and arrays are not
// cloned.
//
// Rejected with a *DataCloneError: functions, symbols, Proxy, Promise,
// WeakMap, WeakSet, Symbol objects, generators, iterators, arguments
// objects, the global object, Go values wrapped by Runtime.ToValue,
// detached ArrayBuffers and views of them, property names containing U+FFFD
// or a lone surrogate (goja's Keys hands both out as U+FFFD), and nesting
// deeper than 256. goja has no WeakRef, FinalizationRegistry, module
// namespace objects, resizable ArrayBuffers or Float16Array; were they to
// appear they would be rejected as unknown kinds until supported.
//
// Object kinds are identified by the Go type goja implements them with (see
// kinds.go), which JS code cannot forge, rather than by prototype chains.
//
// # Transfer and shared memory
//
// Options.Transfer moves ArrayBuffers: the frame takes their memory without
// copying it; SerializeTransfer detaches the sender's buffers only when the
// caller commits (see transfer.go). SharedArrayBuffers travel by reference
// through the manifest; package sharedmem implements them and plugs in with
// SetSharedMemory (see shared.go).
package clone
