package capi

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/jsworker/jsworker/clone"
)

// JSON text → structured clone frame, without a goja object on the host side (ZJSWorkerPostJSON).
//
// jsonToFrame parses the text as JSON.parse does and writes the frame clone.Serialize would write for the parsed
// value: the receiving worker deserializes it as any other message, in order with them. The text is parsed once,
// on the posting thread, so that invalid JSON fails before anything is queued. What JSON.parse and the clone agree
// on is kept: a duplicate key keeps its first position and its last value, array-index keys come first in
// ascending order; "__proto__" is an ordinary key; -0 stays
// -0; numbers that fit in int32 are written `I`, the others `N` (so 1e400 is Infinity, as in JSON.parse).

// frameHeader is the start of a version-2 frame with an empty manifest, padded so that the value starts 8-aligned.
var frameHeader = [8]byte{'J', 'S', 'W', 'C', 2, 0, 0, 0}

// Wire tags written and read here (docs/wire-format.md).
const (
	wUndefined = '_'
	wNull      = '0'
	wTrue      = 'T'
	wFalse     = 'F'
	wInt       = 'I'
	wNumber    = 'N'
	wOneByte   = '"'
	wTwoByte   = 'c'
	wObject    = 'o'
	wEnd       = '{'
	wArray     = 'A'
	wHole      = '-'
)

// maxCloneDepth is the clone's nesting limit: a container inside 256 others is the deepest allowed.
const maxCloneDepth = 256

// A jsonSyntaxError is invalid JSON text; it becomes a SyntaxError in the host's context.
type jsonSyntaxError struct {
	offset int
	msg    string
}

func (e *jsonSyntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.offset) }

// A jsonMember is one property written so far in an object being parsed: its key's and value's bytes in out.
type jsonMember struct{ key, val, end int }

// A jsonEncoder holds the scratch space of one conversion; encoders are pooled.
type jsonEncoder struct {
	in      []byte
	pos     int
	out     []byte
	limit   int // the largest frame accepted
	members []jsonMember
	units   []uint16
}

var jsonEncoders = sync.Pool{New: func() any { return new(jsonEncoder) }}

// errJSONTooLarge is returned when the frame would exceed the limit; the caller reports it as the channel would.
var errJSONTooLarge = clone.ErrFrameTooLarge

// jsonToFrame converts JSON text to a frame of at most limit bytes. Errors are a *jsonSyntaxError, a
// *clone.DataCloneError (nesting deeper than the clone allows, a name with an unpaired surrogate) or
// clone.ErrFrameTooLarge.
func jsonToFrame(text []byte, limit int) (*clone.Frame, error) {
	e := jsonEncoders.Get().(*jsonEncoder)
	defer func() {
		e.in, e.out = nil, nil
		e.members, e.units = e.members[:0], e.units[:0]
		jsonEncoders.Put(e)
	}()
	e.in, e.pos, e.limit = text, 0, limit
	e.out = make([]byte, 0, len(text)+len(frameHeader)+8)
	e.out = append(e.out, frameHeader[:]...)
	if err := e.value(0); err != nil {
		return nil, err
	}
	e.space()
	if e.pos < len(e.in) {
		return nil, e.syntax("unexpected data after the JSON value")
	}
	if len(e.out) > limit { // the last value's own bytes
		return nil, errJSONTooLarge
	}
	return clone.NewFrame(e.out), nil
}

func (e *jsonEncoder) syntax(msg string) error { return &jsonSyntaxError{offset: e.pos, msg: msg} }

// unexpected describes the byte at pos, or the end of the text.
func (e *jsonEncoder) unexpected() error {
	if e.pos >= len(e.in) {
		return e.syntax("unexpected end of JSON input")
	}
	c := e.in[e.pos]
	if c < 0x20 || c >= 0x7F {
		return e.syntax(fmt.Sprintf("unexpected byte 0x%02x", c))
	}
	return e.syntax(fmt.Sprintf("unexpected token '%c'", c))
}

// space skips JSON whitespace (tab, line feed, carriage return, space).
func (e *jsonEncoder) space() {
	for e.pos < len(e.in) {
		switch e.in[e.pos] {
		case ' ', '\t', '\n', '\r':
			e.pos++
		default:
			return
		}
	}
}

func (e *jsonEncoder) value(depth int) error {
	if len(e.out) > e.limit {
		return errJSONTooLarge
	}
	e.space()
	if e.pos >= len(e.in) {
		return e.unexpected()
	}
	switch c := e.in[e.pos]; c {
	case '{':
		return e.object(depth)
	case '[':
		return e.array(depth)
	case '"':
		return e.str(false)
	case 't':
		return e.literal("true", wTrue)
	case 'f':
		return e.literal("false", wFalse)
	case 'n':
		return e.literal("null", wNull)
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return e.number()
		}
	}
	return e.unexpected()
}

func (e *jsonEncoder) literal(word string, tag byte) error {
	if !bytes.HasPrefix(e.in[e.pos:], []byte(word)) {
		for i := 0; i < len(word) && e.pos < len(e.in) && e.in[e.pos] == word[i]; i++ {
			e.pos++
		}
		return e.unexpected()
	}
	e.pos += len(word)
	e.out = append(e.out, tag)
	return nil
}

func (e *jsonEncoder) tooDeep() error {
	return &clone.DataCloneError{Message: fmt.Sprintf("The JSON value nests deeper than %d levels and could not be cloned.", maxCloneDepth)}
}

func (e *jsonEncoder) object(depth int) error {
	if depth > maxCloneDepth {
		return e.tooDeep()
	}
	e.pos++ // {
	e.out = append(e.out, wObject)
	start, base := len(e.out), len(e.members)
	defer func() { e.members = e.members[:base] }()
	dup := false
	e.space()
	if e.pos < len(e.in) && e.in[e.pos] == '}' {
		e.pos++
		e.out = append(e.out, wEnd)
		return nil
	}
	for {
		e.space()
		if e.pos >= len(e.in) || e.in[e.pos] != '"' {
			return e.unexpected()
		}
		k := len(e.out)
		if err := e.str(true); err != nil {
			return err
		}
		v := len(e.out)
		_, isIndex := arrayIndex(e.out[k:v])
		dup = dup || isIndex || e.seen(base, e.out[k:v])
		e.space()
		if e.pos >= len(e.in) || e.in[e.pos] != ':' {
			return e.unexpected()
		}
		e.pos++
		if err := e.value(depth + 1); err != nil {
			return err
		}
		e.members = append(e.members, jsonMember{key: k, val: v, end: len(e.out)})
		e.space()
		if e.pos < len(e.in) && e.in[e.pos] == ',' {
			e.pos++
			continue
		}
		if e.pos < len(e.in) && e.in[e.pos] == '}' {
			e.pos++
			break
		}
		return e.unexpected()
	}
	if dup {
		e.reorder(start, e.members[base:])
	}
	e.out = append(e.out, wEnd)
	return nil
}

// seen reports whether the encoded key is already a key of the object whose members start at base. The writer's
// encoding of a string is canonical, so equal strings have equal bytes.
func (e *jsonEncoder) seen(base int, key []byte) bool {
	for _, m := range e.members[base:] {
		if bytes.Equal(e.out[m.key:m.val], key) {
			return true
		}
	}
	return false
}

// reorder rewrites the members of an object written from start in the order of JSON.parse's result: each key
// once, at its first position, with its last value; array indices first, in ascending order (the order of
// OrdinaryOwnPropertyKeys, which the clone's writer lists them in).
func (e *jsonEncoder) reorder(start int, ms []jsonMember) {
	last := make(map[string]int, len(ms))
	for i, m := range ms {
		last[string(e.out[m.key:m.val])] = i
	}
	type entry struct {
		index   uint32
		isIndex bool
		key     []byte
		val     []byte
	}
	list := make([]entry, 0, len(last))
	for _, m := range ms {
		k := e.out[m.key:m.val]
		i, ok := last[string(k)]
		if !ok {
			continue // written already
		}
		delete(last, string(k))
		n, isIndex := arrayIndex(k)
		list = append(list, entry{n, isIndex, k, e.out[ms[i].val:ms[i].end]})
	}
	slices.SortStableFunc(list, func(a, b entry) int {
		switch {
		case a.isIndex && b.isIndex:
			return cmp.Compare(a.index, b.index)
		case a.isIndex:
			return -1
		case b.isIndex:
			return 1
		}
		return 0
	})
	rebuilt := make([]byte, 0, len(e.out)-start)
	for _, x := range list {
		rebuilt = append(rebuilt, x.key...)
		rebuilt = append(rebuilt, x.val...)
	}
	e.out = append(e.out[:start], rebuilt...)
}

// arrayIndex reports whether an encoded key is an array index (a canonical integer below 2**32 - 1), and which.
func arrayIndex(key []byte) (uint32, bool) {
	if len(key) < 3 || key[0] != wOneByte || int(key[1]) != len(key)-2 || len(key) > 12 {
		return 0, false // not a one-byte string of 1 to 10 characters (whose length varint is one byte)
	}
	digits := key[2:]
	if digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	n := uint64(0)
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n >= math.MaxUint32 {
		return 0, false
	}
	return uint32(n), true
}

func (e *jsonEncoder) array(depth int) error {
	if depth > maxCloneDepth {
		return e.tooDeep()
	}
	e.pos++ // [
	e.out = append(e.out, wArray)
	at := len(e.out)
	n := uint64(0)
	e.space()
	if e.pos < len(e.in) && e.in[e.pos] == ']' {
		e.pos++
	} else {
		for {
			if err := e.value(depth + 1); err != nil {
				return err
			}
			n++
			e.space()
			if e.pos < len(e.in) && e.in[e.pos] == ',' {
				e.pos++
				continue
			}
			if e.pos < len(e.in) && e.in[e.pos] == ']' {
				e.pos++
				break
			}
			return e.unexpected()
		}
	}
	if n > math.MaxUint32 {
		return &clone.DataCloneError{Message: "The JSON array is longer than 2**32 - 1 elements and could not be cloned."}
	}
	// The length precedes the elements: move them up by the varint's size.
	var v [binary.MaxVarintLen32]byte
	k := binary.PutUvarint(v[:], n)
	end := len(e.out)
	e.out = append(e.out, v[:k]...)
	copy(e.out[at+k:], e.out[at:end])
	copy(e.out[at:], v[:k])
	return nil
}

func (e *jsonEncoder) number() error {
	start := e.pos
	if e.in[e.pos] == '-' {
		e.pos++
	}
	digits := func() int {
		s := e.pos
		for e.pos < len(e.in) && e.in[e.pos] >= '0' && e.in[e.pos] <= '9' {
			e.pos++
		}
		return e.pos - s
	}
	if e.pos < len(e.in) && e.in[e.pos] == '0' {
		e.pos++
	} else if digits() == 0 {
		return e.unexpected()
	}
	integral := true
	if e.pos < len(e.in) && e.in[e.pos] == '.' {
		e.pos++
		integral = false
		if digits() == 0 {
			return e.unexpected()
		}
	}
	if e.pos < len(e.in) && (e.in[e.pos] == 'e' || e.in[e.pos] == 'E') {
		e.pos++
		integral = false
		if e.pos < len(e.in) && (e.in[e.pos] == '+' || e.in[e.pos] == '-') {
			e.pos++
		}
		if digits() == 0 {
			return e.unexpected()
		}
	}
	text := e.in[start:e.pos]
	if integral && len(text) <= 10 { // at most 9 digits and a sign: fits in int32 and its parse is exact
		var n int64
		neg := text[0] == '-'
		for _, c := range text[btoi(neg):] {
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		if n >= math.MinInt32 && n <= math.MaxInt32 && !(neg && n == 0) {
			e.putInt(int32(n))
			return nil
		}
	}
	f, err := strconv.ParseFloat(string(text), 64) // ±Inf on overflow, as JSON.parse
	if err != nil && !isRange(err) {
		return e.syntax("invalid number")
	}
	e.putNumber(f)
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// putNumber writes f as the clone's writer does: `I` for an int32 that is not -0, else `N`.
func (e *jsonEncoder) putNumber(f float64) {
	if i := int32(f); float64(i) == f && !(f == 0 && math.Signbit(f)) {
		e.putInt(i)
		return
	}
	e.out = append(e.out, wNumber)
	e.out = binary.LittleEndian.AppendUint64(e.out, math.Float64bits(f))
}

func (e *jsonEncoder) putInt(i int32) {
	e.out = append(e.out, wInt)
	e.out = binary.AppendUvarint(e.out, uint64(uint32(i<<1)^uint32(i>>31)))
}
