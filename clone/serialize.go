package clone

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Options for Serialize.
type Options struct {
	// MaxBytes caps the frame size in bytes, version byte included; 0 (or
	// less) means no cap. Serialize stops with ErrFrameTooLarge as soon as a write would
	// cross it, so an oversized frame is never built.
	MaxBytes int

	// Transfer is the transfer list. Version 1 transfers nothing: a non-empty
	// list fails with a *DataCloneError.
	Transfer []goja.Value
}

// Serialize walks v, a value of rt, and returns a frame holding its structured
// clone in the wire format described in the package documentation.
//
// Supported are undefined, null, booleans, numbers, BigInts, strings, plain
// objects (own enumerable string keys, values read with [[Get]], so getters
// run), arrays (length and elements; holes kept; named properties dropped)
// and Dates, with shared references and cycles preserved. Anything else
// fails with a *DataCloneError; so does nesting deeper than 256 containers
// (objects and arrays, the root at depth 0).
//
// If a getter throws, Serialize returns that *goja.Exception unchanged, so a
// host function can rethrow it with panic(err). Uncatchable goja errors
// (*goja.InterruptedError, *goja.StackOverflowError) are returned as they are
// and should be re-panicked too. Serialize itself never panics.
//
// Serialize must be called on the goroutine that owns rt.
func Serialize(rt *goja.Runtime, v goja.Value, opts Options) (f *Frame, err error) {
	if len(opts.Transfer) > 0 {
		return nil, &DataCloneError{Message: "transferring is not supported yet"}
	}
	if loadKinds(); probeErr != nil {
		return nil, probeErr
	}
	e := encoderPool.Get().(*encoder)
	defer e.release()
	e.rt = rt
	e.limit = math.MaxInt
	if opts.MaxBytes > 0 {
		e.limit = opts.MaxBytes
	}
	e.buf = append(e.buf[:0], formatVersion)

	defer func() {
		if r := recover(); r != nil {
			f, err = nil, recoveredError(r)
		}
	}()
	if ex := rt.Try(func() { e.writeValue(v, 0) }); ex != nil {
		return nil, ex
	}
	if e.err != nil {
		return nil, e.err
	}
	data := make([]byte, len(e.buf))
	copy(data, e.buf)
	return NewFrame(data), nil
}

// recoveredError turns a panic that escaped goja's own handling into an
// error. goja's uncatchable errors are errors and come back unchanged.
func recoveredError(r any) error {
	if panicOnInternalError {
		if _, ok := r.(error); !ok {
			panic(r)
		}
	}
	if err, ok := r.(error); ok {
		return err
	}
	return fmt.Errorf("jsworker: internal error in structured clone: %v", r)
}

// panicOnInternalError makes internal bugs (non-error panics) crash instead
// of turning into errors. Tests set it so that fuzzing sees them.
var panicOnInternalError = false

// smallIDs is how many objects an encoder tracks in a slice before it
// switches to a map.
const smallIDs = 16

// An encoder is the state of one Serialize call. Encoders are pooled.
type encoder struct {
	rt    *goja.Runtime
	buf   []byte
	limit int
	err   error // sticky: once set, the walk unwinds and writes stop

	objs  []*goja.Object          // id -> object while few
	ids   map[*goja.Object]uint32 // object -> id once many
	nobjs uint32
}

var encoderPool = sync.Pool{New: func() any { return &encoder{buf: make([]byte, 0, 512)} }}

func (e *encoder) release() {
	if cap(e.buf) > 64<<10 {
		e.buf = nil
	}
	clear(e.objs)
	e.objs = e.objs[:0]
	e.ids = nil
	e.nobjs = 0
	e.rt, e.err = nil, nil
	encoderPool.Put(e)
}

func (e *encoder) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *encoder) reject(msg string) { e.fail(&DataCloneError{Message: msg}) }

// room reports whether n more bytes fit under the cap, failing otherwise.
func (e *encoder) room(n int) bool {
	if e.err != nil {
		return false
	}
	if n > e.limit-len(e.buf) {
		e.fail(fmt.Errorf("%w: over the cap of %d bytes", ErrFrameTooLarge, e.limit))
		return false
	}
	return true
}

func (e *encoder) putTag(tag byte) {
	if e.room(1) {
		e.buf = append(e.buf, tag)
	}
}

func (e *encoder) putTagUvarint(tag byte, x uint32) {
	if e.room(1 + uvarintLen(x)) {
		e.buf = appendUvarint(append(e.buf, tag), x)
	}
}

func (e *encoder) putUvarint(x uint32) {
	if e.room(uvarintLen(x)) {
		e.buf = appendUvarint(e.buf, x)
	}
}

// putTagFloat writes a tag and a float64. NaN is written as the canonical
// quiet NaN 0x7FF8000000000000: JS cannot tell NaNs apart.
func (e *encoder) putTagFloat(tag byte, f float64) {
	bits := math.Float64bits(f)
	if f != f {
		bits = canonicalNaN
	}
	if e.room(9) {
		e.buf = binary.LittleEndian.AppendUint64(append(e.buf, tag), bits)
	}
}

const canonicalNaN = 0x7FF8000000000000

// lookup returns the id of o if it has been written already.
func (e *encoder) lookup(o *goja.Object) (uint32, bool) {
	if e.ids != nil {
		id, ok := e.ids[o]
		return id, ok
	}
	for i, p := range e.objs {
		if p == o {
			return uint32(i), true
		}
	}
	return 0, false
}

// register gives o the next id. Ids count objects in the order they first
// appear in the frame; the reader numbers them the same way.
func (e *encoder) register(o *goja.Object) {
	switch {
	case e.ids != nil:
		e.ids[o] = e.nobjs
	case len(e.objs) < smallIDs:
		e.objs = append(e.objs, o)
	default:
		e.ids = make(map[*goja.Object]uint32, 2*smallIDs)
		for i, p := range e.objs {
			e.ids[p] = uint32(i)
		}
		e.ids[o] = e.nobjs
	}
	e.nobjs++
}

// writeValue writes v at the given container depth. It runs inside rt.Try:
// a throwing getter unwinds it by panic.
func (e *encoder) writeValue(v goja.Value, depth int) {
	if e.err != nil {
		return
	}
	switch x := v.(type) {
	case nil:
		e.putTag(tagUndefined)
		return
	case *goja.Object:
		e.writeObject(x, depth)
		return
	case *goja.Symbol:
		e.reject("Symbol(" + x.String() + ") could not be cloned.")
		return
	case goja.String:
		e.writeString(x)
		return
	}
	switch {
	case goja.IsNumber(v):
		e.writeNumber(v.ToFloat())
	case goja.IsUndefined(v):
		e.putTag(tagUndefined)
	case goja.IsNull(v):
		e.putTag(tagNull)
	case v.ExportType() == boolType:
		if v.ToBoolean() {
			e.putTag(tagTrue)
		} else {
			e.putTag(tagFalse)
		}
	case goja.IsBigInt(v):
		e.writeBigInt(v)
	default:
		e.reject(v.String() + " could not be cloned.")
	}
}

var boolType = reflect.TypeFor[bool]()

func (e *encoder) writeNumber(f float64) {
	if i := int32(f); float64(i) == f && (i != 0 || !math.Signbit(f)) {
		e.putTagUvarint(tagInt32, zigzag(i))
		return
	}
	e.putTagFloat(tagDouble, f)
}

func (e *encoder) writeBigInt(v goja.Value) {
	x, _ := v.Export().(interface {
		Sign() int
		Bytes() []byte
	})
	if x == nil {
		e.reject("BigInt could not be cloned.")
		return
	}
	mag := x.Bytes() // big-endian, no leading zeros
	if len(mag) > maxVarint>>1 {
		e.reject("BigInt is too large to be cloned.")
		return
	}
	head := uint32(len(mag)) << 1
	if x.Sign() < 0 {
		head |= 1
	}
	if !e.room(1 + uvarintLen(head) + len(mag)) {
		return
	}
	e.buf = appendUvarint(append(e.buf, tagBigInt), head)
	for i := len(mag) - 1; i >= 0; i-- {
		e.buf = append(e.buf, mag[i])
	}
}

// writeString writes s exactly, lone surrogates included: one byte per code
// unit when all fit in Latin-1, else two.
func (e *encoder) writeString(s goja.String) {
	if reflect.TypeOf(s) == asciiStringType {
		// goja's ASCII representation: String() is exact and free.
		e.writeASCII(s.String())
		return
	}
	n := s.Length()
	if uint64(n) > maxVarint {
		e.reject("string is too long to be cloned.")
		return
	}
	wide := false
	for i := 0; i < n; i++ {
		if s.CharAt(i) > 0xFF {
			wide = true
			break
		}
	}
	if !wide {
		if !e.room(1 + uvarintLen(uint32(n)) + n) {
			return
		}
		e.buf = appendUvarint(append(e.buf, tagOneByteStr), uint32(n))
		for i := 0; i < n; i++ {
			e.buf = append(e.buf, byte(s.CharAt(i)))
		}
		return
	}
	if !e.room(1 + uvarintLen(uint32(n)) + 2*n) {
		return
	}
	e.buf = appendUvarint(append(e.buf, tagTwoByteStr), uint32(n))
	for i := 0; i < n; i++ {
		e.buf = binary.LittleEndian.AppendUint16(e.buf, s.CharAt(i))
	}
}

// writeASCII writes a Go string known to be ASCII as a one-byte string.
func (e *encoder) writeASCII(s string) {
	if uint64(len(s)) > maxVarint {
		e.reject("string is too long to be cloned.")
		return
	}
	if e.room(1 + uvarintLen(uint32(len(s))) + len(s)) {
		e.buf = append(appendUvarint(append(e.buf, tagOneByteStr), uint32(len(s))), s...)
	}
}

// writeKey writes a property name given as a Go string holding no U+FFFD
// (see writePlain), which makes its UTF-8 an exact image of the UTF-16 name.
func (e *encoder) writeKey(k string) bool {
	ascii := true
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		e.writeASCII(k)
		return e.err == nil
	}
	n, wide := 0, false
	for _, r := range k {
		switch {
		case r > 0xFFFF:
			n += 2
			wide = true
		case r > 0xFF:
			n++
			wide = true
		default:
			n++
		}
	}
	if !wide {
		if e.room(1 + uvarintLen(uint32(n)) + n) {
			e.buf = appendUvarint(append(e.buf, tagOneByteStr), uint32(n))
			for _, r := range k {
				e.buf = append(e.buf, byte(r))
			}
		}
		return e.err == nil
	}
	if e.room(1 + uvarintLen(uint32(n)) + 2*n) {
		e.buf = appendUvarint(append(e.buf, tagTwoByteStr), uint32(n))
		for _, r := range k {
			if r > 0xFFFF {
				r1, r2 := utf16.EncodeRune(r)
				e.buf = binary.LittleEndian.AppendUint16(e.buf, uint16(r1))
				e.buf = binary.LittleEndian.AppendUint16(e.buf, uint16(r2))
			} else {
				e.buf = binary.LittleEndian.AppendUint16(e.buf, uint16(r))
			}
		}
	}
	return e.err == nil
}

func (e *encoder) writeObject(o *goja.Object, depth int) {
	if o == nil {
		e.putTag(tagUndefined)
		return
	}
	if id, ok := e.lookup(o); ok {
		e.putTagUvarint(tagObjectRef, id)
		return
	}
	t := implType(o)
	if t == nil {
		e.reject("an uninitialized goja.Object could not be cloned.")
		return
	}
	switch t {
	case plainType:
		if o.ClassName() != "Object" {
			e.fail(rejectObject(e.rt, o, t))
			return
		}
		if !e.enter(depth) {
			return
		}
		e.register(o)
		e.writePlain(o, depth)
	case arrayType, sparseTyp:
		if !e.enter(depth) {
			return
		}
		e.register(o)
		e.writeArray(o, depth)
	case dateType:
		e.register(o)
		ms := math.NaN()
		if t, ok := o.Export().(interface{ UnixMilli() int64 }); ok {
			ms = float64(t.UnixMilli())
		}
		e.putTagFloat(tagDate, ms)
	default:
		e.fail(rejectObject(e.rt, o, t))
	}
}

// enter checks the depth of a container about to be written.
func (e *encoder) enter(depth int) bool {
	if depth > maxDepth {
		e.reject("the value is nested too deeply to be cloned (more than " + strconv.Itoa(maxDepth) + " levels).")
		return false
	}
	return true
}

func (e *encoder) writePlain(o *goja.Object, depth int) {
	e.putTag(tagObject)
	for _, k := range o.Keys() {
		if strings.ContainsRune(k, utf8.RuneError) {
			// Keys() maps a lone surrogate to U+FFFD: the name cannot be told
			// from a real U+FFFD nor read back with Get.
			e.reject("property names containing U+FFFD or unpaired surrogates cannot be cloned by this version.")
			return
		}
		v := o.Get(k)
		if v == nil {
			continue // deleted by an earlier getter
		}
		if !e.writeKey(k) {
			return
		}
		e.writeValue(v, depth+1)
		if e.err != nil {
			return
		}
	}
	e.putTag(tagObjectEnd)
}

func (e *encoder) writeArray(o *goja.Object, depth int) {
	l := o.Get("length").ToInteger()
	if l < 0 || l > maxArrayLength {
		e.reject("array length out of range.")
		return
	}
	n := uint32(l)
	if n <= denseLimit {
		e.putTagUvarint(tagDenseArray, n)
		for i := uint32(0); i < n; i++ {
			v := o.Get(indexKey(i))
			if v == nil {
				e.putTag(tagHole)
				continue
			}
			e.writeValue(v, depth+1)
			if e.err != nil {
				return
			}
		}
		return
	}
	// Long array: visit only the elements it has, from its own keys.
	e.putTagUvarint(tagSparseArr, n)
	for _, k := range o.Keys() {
		i, ok := parseIndex(k)
		if !ok || i >= n {
			continue // a named property: not kept by version 1
		}
		v := o.Get(k)
		if v == nil {
			continue
		}
		e.putUvarint(i + 1)
		e.writeValue(v, depth+1)
		if e.err != nil {
			return
		}
	}
	e.putUvarint(0)
}

// indexKeys caches the names of small array indices.
var indexKeys = func() (s [1024]string) {
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return
}()

func indexKey(i uint32) string {
	if i < uint32(len(indexKeys)) {
		return indexKeys[i]
	}
	return strconv.FormatUint(uint64(i), 10)
}

// parseIndex parses a canonical array index ("0", "17", never "017"), below
// 2**32 - 1.
func parseIndex(k string) (uint32, bool) {
	if len(k) == 0 || len(k) > 10 || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	var x uint64
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + uint64(c-'0')
	}
	if x >= maxArrayLength {
		return 0, false
	}
	return uint32(x), true
}
