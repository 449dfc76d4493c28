package clone

// Wire format constants. The encoding is specified in doc.go and
// docs/wire-format.md; keep the three in step.

// formatVersion is the version this package writes, the byte after the
// magic.
//
// WARNING: bumping it is a wire break: a reader only accepts the versions it
// knows, so workers built from different releases stop understanding each
// other. A tag keeps its meaning and its payload in every later version;
// retired tags are never reused.
const formatVersion = 2

// hostVersion is the version of a frame that holds a host object (tag
// 'H'). A frame without one is written as version 2, so that readers of
// the previous release still read it; one with a host object is version 3,
// which they refuse as an unknown version instead of misreading a tag.
// Version 3 is version 2 plus the tag 'H'.
const hostVersion = 3

// legacyVersion is the first byte of a version-1 frame, which has no magic
// and no manifest. Deserialize still reads such frames; nothing writes them.
const legacyVersion = 1

// magic opens every frame of version 2 and later: "JSWC", then the version
// byte. A version-1 frame starts with 0x01, which no magic starts with.
const magic = "JSWC"

// headerLen is the size of the magic and the version byte.
const headerLen = len(magic) + 1

// Value tags, one byte each. The letters follow V8's value serializer where
// the meaning matches; the payloads are this package's own. Tags marked v1
// exist since version 1 with the same payload.
const (
	tagUndefined  = '_' // v1: no payload
	tagNull       = '0' // v1: no payload
	tagTrue       = 'T' // v1: no payload
	tagFalse      = 'F' // v1: no payload
	tagInt32      = 'I' // v1: zigzag varint, value fits in int32, never -0
	tagDouble     = 'N' // v1: float64, 8 bytes little-endian IEEE 754
	tagBigInt     = 'Z' // v1: varint (len<<1 | sign), then len magnitude bytes little-endian
	tagOneByteStr = '"' // v1: varint n, then n Latin-1 code units (one byte each)
	tagTwoByteStr = 'c' // v1: varint n, then n UTF-16 code units (two bytes each, little-endian)
	tagObject     = 'o' // v1: (key value)* tagObjectEnd; key is a one- or two-byte string
	tagObjectEnd  = '{' // v1: ends an object ('o') or the named properties of an array ('P')
	tagDenseArray = 'A' // v1: varint length, then length elements (a value or tagHole)
	tagHole       = '-' // v1: a missing element, only inside a dense array
	tagSparseArr  = 'a' // v1: varint length, then (varint index+1, value)*, then varint 0
	tagDate       = 'D' // v1: float64 time value in ms, 8 bytes little-endian; NaN = invalid date
	tagObjectRef  = '^' // v1: varint id of an object already in the frame

	tagArrayProps  = 'P'  // v2: an 'A' or 'a' array value, then (key value)* tagObjectEnd: its named properties
	tagMap         = ';'  // v2: varint n, then n (key value) pairs in insertion order
	tagSet         = '\'' // v2: varint n, then n values in insertion order
	tagRegExp      = 'R'  // v2: source (a '"' or 'c' string), then varint flag bits (regexpFlags)
	tagError       = 'r'  // v2: error fields (errorProto*, errMessage, errStack, errCause), then errEnd
	tagTrueObject  = 'y'  // v2: new Boolean(true); no payload
	tagFalseObject = 'x'  // v2: new Boolean(false); no payload
	tagNumberObj   = 'n'  // v2: Number wrapper: float64, 8 bytes little-endian
	tagBigIntObj   = 'z'  // v2: BigInt wrapper: payload of 'Z'
	tagStringObj   = 's'  // v2: String wrapper: a '"' or 'c' string
	tagArrayBuffer = 'B'  // v2: varint n, zero padding to a multiple of 8 from the frame start, n bytes
	tagTransferred = 't'  // v2: varint index of a manifest entry of kind manifestTransfer
	tagShared      = 'u'  // v2: varint index of a manifest entry of kind manifestShared
	tagPort        = 'p'  // v2: varint index of a manifest entry of kind manifestPort
	tagView        = 'V'  // v2: view kind byte, buffer ('B', 't', 'u' or '^'), varint byteOffset, varint byteLength

	tagHost = 'H' // v3: kind name (a '"' string), varint n, n primitive fields, varint byteLength, the bytes (host.go)
)

// Error fields, in this order, each at most once, inside tagError.
const (
	errEvalProto      = 'E' // prototype EvalError.prototype; no payload
	errRangeProto     = 'R' // RangeError.prototype
	errReferenceProto = 'F' // ReferenceError.prototype
	errSyntaxProto    = 'S' // SyntaxError.prototype
	errTypeProto      = 'T' // TypeError.prototype
	errURIProto       = 'U' // URIError.prototype (no prototype field: Error.prototype)
	errMessage        = 'm' // a '"' or 'c' string: the own "message"
	errStack          = 's' // a '"' or 'c' string: the own "stack"
	errCause          = 'c' // any value: the own "cause"
	errEnd            = '.' // end of the error
)

// View kinds, the byte after tagView. Letters are V8's.
const (
	viewInt8         = 'b'
	viewUint8        = 'B'
	viewUint8Clamped = 'C'
	viewInt16        = 'w'
	viewUint16       = 'W'
	viewInt32        = 'd'
	viewUint32       = 'D'
	viewFloat32      = 'f'
	viewFloat64      = 'F'
	viewBigInt64     = 'q'
	viewBigUint64    = 'Q'
	viewDataView     = '?'
)

// viewKinds describes each view kind: its constructor's name and its
// element size in bytes.
var viewKinds = [...]struct {
	tag  byte
	name string
	size int
}{
	{viewInt8, "Int8Array", 1},
	{viewUint8, "Uint8Array", 1},
	{viewUint8Clamped, "Uint8ClampedArray", 1},
	{viewInt16, "Int16Array", 2},
	{viewUint16, "Uint16Array", 2},
	{viewInt32, "Int32Array", 4},
	{viewUint32, "Uint32Array", 4},
	{viewFloat32, "Float32Array", 4},
	{viewFloat64, "Float64Array", 8},
	{viewBigInt64, "BigInt64Array", 8},
	{viewBigUint64, "BigUint64Array", 8},
	{viewDataView, "DataView", 1},
}

// viewIndex returns the index of a view kind in viewKinds, or -1.
func viewIndex(tag byte) int {
	for i := range viewKinds {
		if viewKinds[i].tag == tag {
			return i
		}
	}
	return -1
}

// RegExp flag bits. Bits 6 and 7 name flags this engine does not implement;
// a reader refuses them with a DataCloneError, higher bits as malformed.
const (
	flagGlobal      = 1 << 0 // g
	flagIgnoreCase  = 1 << 1 // i
	flagMultiline   = 1 << 2 // m
	flagSticky      = 1 << 3 // y
	flagUnicode     = 1 << 4 // u
	flagDotAll      = 1 << 5 // s
	flagHasIndices  = 1 << 6 // d (not in goja)
	flagUnicodeSets = 1 << 7 // v (not in goja)
	flagsKnown      = 1<<8 - 1
)

// Manifest entry kinds. The manifest lists what a frame carries besides
// its bytes; the value refers to entry i with the tag of the same letter.
const (
	manifestTransfer = 't' // varint byteLength: a transferred ArrayBuffer, whose memory travels with the frame
	manifestShared   = 'u' // 16-byte token, then varint byteLength: a SharedArrayBuffer
	manifestPort     = 'p' // 16-byte token: a transferred MessagePort (port.go)
)

// tokenLen is the size of a shared-memory token.
const tokenLen = len(SharedToken{})

const (
	// maxDepth is the deepest allowed container (object, array, Map, Set,
	// Error); the root is at depth 0.
	maxDepth = 256

	// maxVarint is the largest value any varint in the format may hold.
	maxVarint = 1<<32 - 1

	// maxArrayLength is the largest JS array length, 2**32 - 1.
	maxArrayLength = 1<<32 - 1

	// maxTimeValue bounds a Date's time value (ECMA-262 TimeClip).
	maxTimeValue = 8.64e15

	// denseLimit is the longest array that is walked index by index and
	// written dense; longer ones are written sparse from their own keys so
	// that a huge, mostly empty array costs what it holds, not its length.
	denseLimit = 1 << 16

	// bufferAlign is the alignment, from the frame start, of the bytes of an
	// ArrayBuffer inside a frame, so that a reader may use them in place as
	// the memory of Float64Array or BigInt64Array views.
	bufferAlign = 8
)

// uvarintLen returns the number of bytes PutUvarint-style LEB128 needs for x.
func uvarintLen(x uint32) int {
	switch {
	case x < 1<<7:
		return 1
	case x < 1<<14:
		return 2
	case x < 1<<21:
		return 3
	case x < 1<<28:
		return 4
	}
	return 5
}

// appendUvarint appends x as unsigned LEB128 (7 bits per byte, low bits
// first, high bit set on every byte but the last).
func appendUvarint(b []byte, x uint32) []byte {
	for x >= 0x80 {
		b = append(b, byte(x)|0x80)
		x >>= 7
	}
	return append(b, byte(x))
}

// padLen returns the number of zero bytes that bring offset n to a multiple
// of bufferAlign.
func padLen(n int) int { return -n & (bufferAlign - 1) }

// zigzag maps signed to unsigned so that small magnitudes stay small:
// 0, -1, 1, -2 ... become 0, 1, 2, 3 ...
func zigzag(x int32) uint32 { return uint32(x<<1) ^ uint32(x>>31) }

// unzigzag inverts zigzag.
func unzigzag(u uint32) int32 { return int32(u>>1) ^ -int32(u&1) }
