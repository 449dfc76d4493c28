package clone

// Wire format constants. The encoding is specified in doc.go and
// docs/wire-format.md; keep the three in step.

// formatVersion is the first byte of every frame this package writes.
//
// WARNING: bumping it is a wire break: a reader only accepts the versions it
// knows, so workers built from different releases stop understanding each
// other. Add tags within a version only when older readers may safely reject
// them as malformed; retired tags are never reused.
const formatVersion = 1

// Tags, one byte each. The letters follow V8's value serializer where the
// meaning matches; the payloads are this package's own.
const (
	tagUndefined  = '_' // no payload
	tagNull       = '0' // no payload
	tagTrue       = 'T' // no payload
	tagFalse      = 'F' // no payload
	tagInt32      = 'I' // zigzag varint, value fits in int32, never -0
	tagDouble     = 'N' // float64, 8 bytes little-endian IEEE 754
	tagBigInt     = 'Z' // varint (len<<1 | sign), then len magnitude bytes little-endian
	tagOneByteStr = '"' // varint n, then n Latin-1 code units (one byte each)
	tagTwoByteStr = 'c' // varint n, then n UTF-16 code units (two bytes each, little-endian)
	tagObject     = 'o' // (key value)* tagObjectEnd; key is a one- or two-byte string
	tagObjectEnd  = '{' // ends an object
	tagDenseArray = 'A' // varint length, then length elements (a value or tagHole)
	tagHole       = '-' // a missing element, only inside a dense array
	tagSparseArr  = 'a' // varint length, then (varint index+1, value)*, then varint 0
	tagDate       = 'D' // float64 time value in ms, 8 bytes little-endian; NaN = invalid date
	tagObjectRef  = '^' // varint id of an object already in the frame
)

const (
	// maxDepth is the deepest allowed container (object or array); the root
	// is at depth 0.
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

// zigzag maps signed to unsigned so that small magnitudes stay small:
// 0, -1, 1, -2 ... become 0, 1, 2, 3 ...
func zigzag(x int32) uint32 { return uint32(x<<1) ^ uint32(x>>31) }

// unzigzag inverts zigzag.
func unzigzag(u uint32) int32 { return int32(u>>1) ^ -int32(u&1) }
