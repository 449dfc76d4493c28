package clone

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Options for Serialize.
type Options struct {
	// MaxBytes caps the frame size in bytes (Frame.Len: header and manifest
	// included, transferred memory not); 0 (or less) means no cap.
	// Serialize stops with ErrFrameTooLarge as soon as a write would cross
	// it, so an oversized frame is never built.
	MaxBytes int

	// Transfer is the transfer list: ArrayBuffers whose memory moves into
	// the frame instead of being copied. See SerializeTransfer.
	Transfer []goja.Value
}

// Serialize walks v, a value of rt, and returns a frame holding its structured
// clone in the wire format described in the package documentation.
//
// The kinds it clones and the ones it rejects are listed in the package
// documentation. Unsupported values, nesting deeper than 256 containers
// (the root at depth 0), and a bad transfer list fail with a
// *DataCloneError, and nothing is changed.
//
// With a non-empty opts.Transfer, Serialize is SerializeTransfer followed
// at once by its commit: on success the listed ArrayBuffers are detached in
// rt. Callers that may still fail to deliver the frame (a full channel)
// should use SerializeTransfer and commit only once it is accepted.
//
// If a getter throws, Serialize returns that *goja.Exception unchanged, so a
// host function can rethrow it with panic(err). Uncatchable goja errors
// (*goja.InterruptedError, *goja.StackOverflowError) are returned as they are
// and should be re-panicked too. Serialize itself never panics.
//
// Serialize must be called on the goroutine that owns rt.
func Serialize(rt *goja.Runtime, v goja.Value, opts Options) (*Frame, error) {
	f, commit, err := SerializeTransfer(rt, v, opts)
	if err != nil {
		return nil, err
	}
	commit()
	return f, nil
}

// serialize writes a frame; tl is the validated transfer list, or nil.
func serialize(rt *goja.Runtime, v goja.Value, maxBytes int, tl *transferList) (f *Frame, err error) {
	if err := gojainternal.Kinds(); err != nil {
		return nil, err
	}
	e := encoderPool.Get().(*encoder)
	defer e.release()
	e.rt, e.tl, e.global = rt, tl, rt.GlobalObject()
	e.shared = sharedMemory()
	if h := messagePorts(); h != nil {
		e.isPort = h.Ports(rt)
	}
	if h, ok := hostKey.Get(rt); ok && h.pending == nil { // pending: SetReadHostKinds' kinds, none to write
		e.hosts = h
	}
	e.limit = math.MaxInt
	if maxBytes > 0 {
		e.limit = maxBytes
	}
	e.buf = e.appendHeader(e.buf[:0], nil)
	if len(e.buf) > e.limit {
		return nil, fmt.Errorf("%w: over the cap of %d bytes", ErrFrameTooLarge, e.limit)
	}
	e.valueStart, e.hdrLen = len(e.buf), len(e.buf)

	defer func() {
		if r := recover(); r != nil {
			f, err = nil, recoveredError(r)
		}
		if err != nil {
			e.dropRefs()
		}
	}()
	if ex := rt.Try(func() { e.writeValue(v, 0) }); ex != nil {
		return nil, ex
	}
	if e.err != nil {
		return nil, e.err
	}
	return e.frame(), nil
}

// appendHeader appends the magic, the version and the manifest: the
// transferred buffers, then the shared ones (sab), then zero padding so that
// the value starts at a multiple of bufferAlign.
func (e *encoder) appendHeader(b []byte, sab []sharedEntry) []byte {
	b = append(b, magic...)
	b = append(b, formatVersion)
	n := len(sab)
	if e.tl != nil {
		n += len(e.tl.buffers) + len(e.tl.portToks)
	}
	b = appendUvarint(b, uint32(n))
	if e.tl != nil {
		for _, ab := range e.tl.buffers {
			b = appendUvarint(append(b, manifestTransfer), uint32(len(ab.Bytes())))
		}
		for _, tok := range e.tl.portToks {
			b = append(append(b, manifestPort), tok[:]...)
		}
	}
	for _, s := range sab {
		b = append(append(b, manifestShared), s.tok[:]...)
		b = appendUvarint(b, uint32(s.length))
	}
	for range padLen(len(b)) {
		b = append(b, 0)
	}
	return b
}

// frame turns the encoder's buffer into a Frame, moving or copying the bytes.
func (e *encoder) frame() *Frame {
	var f *Frame
	switch data := e.buf; {
	case len(e.sab) > 0:
		// The manifest grew while walking: rebuild the header in front.
		hdr := e.appendHeader(nil, e.sab)
		data = make([]byte, 0, len(hdr)+len(e.buf)-e.valueStart)
		f = &Frame{data: append(append(data, hdr...), e.buf[e.valueStart:]...)}
	case len(data) >= 64<<10 && isLarge(data):
		// A large frame in a pooled buffer (bufpool.go): hand the buffer
		// over rather than copy it; Deserialize gives it back.
		e.buf = nil
		f = &Frame{data: data, recycle: true}
	case len(data) >= 64<<10 && cap(data)-len(data) <= len(data)/4:
		// A large frame with little slack: hand the buffer over rather
		// than copy it.
		e.buf = nil
		f = &Frame{data: data}
	default:
		f = newFrameCopy(data)
	}
	f.aligned = true
	if len(e.refs) > 0 {
		f.extra().refs = e.refs
	}
	if e.host {
		f.data[len(magic)] = hostVersion // a frame holding a host object (wire.go)
	}
	e.refs = nil
	if e.tl != nil && len(e.tl.buffers) > 0 {
		x := f.extra()
		x.buffers = make([][]byte, len(e.tl.buffers))
		for i, ab := range e.tl.buffers {
			b := ab.Bytes()
			x.buffers[i] = b[:len(b):len(b)]
		}
	}
	// Every frame's bytes start on an 8-byte boundary, so aligned holds:
	// those of a small frame follow its Frame (whose size is a multiple of
	// 8) in one allocation, and every larger one holding an ArrayBuffer is
	// at least 16 bytes long, so its memory comes from a size class. (The Go
	// allocator only packs smaller objects.)
	return f
}

// Small frames carry their bytes in the allocation of their Frame: one
// allocation per message instead of two. The bytes are owned by the frame
// alone, as the reader's in-place ArrayBuffers require (see aligned).
type (
	frame48 struct {
		f Frame
		b [48]byte
	}
	frame112 struct {
		f Frame
		b [112]byte
	}
	frame240 struct {
		f Frame
		b [240]byte
	}
)

// newFrameCopy returns a frame holding a copy of b.
func newFrameCopy(b []byte) *Frame {
	n := len(b)
	switch {
	case n <= 48:
		x := new(frame48)
		x.f.data = x.b[:copy(x.b[:], b):n]
		return &x.f
	case n <= 112:
		x := new(frame112)
		x.f.data = x.b[:copy(x.b[:], b):n]
		return &x.f
	case n <= 240:
		x := new(frame240)
		x.f.data = x.b[:copy(x.b[:], b):n]
		return &x.f
	}
	return &Frame{data: slices.Clone(b)}
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

// maxPooledIDs bounds the identity map an encoder keeps for its next use.
const maxPooledIDs = 1 << 16

// maxPooledNames is the longest names stack an encoder keeps when it goes
// back to the pool.
const maxPooledNames = 1 << 12

// An encoder is the state of one Serialize call. Encoders are pooled.
type encoder struct {
	rt     *goja.Runtime
	global *goja.Object
	realm  *realm // captured lazily, see realm.go
	buf    []byte
	limit  int
	hdrLen int   // length the header and manifest will have (grows with shared entries)
	err    error // sticky: once set, the walk unwinds and writes stop

	valueStart int
	tl         *transferList
	shared     SharedMemory
	isPort     func(*goja.Object) bool // nil when the realm has no MessagePorts
	hosts      *hostKinds              // nil when the realm has no host kinds
	host       bool                    // a host object was written: the frame is version 3
	sab        []sharedEntry
	refs       []Ref

	objs  []*goja.Object          // id -> object while few
	ids   map[*goja.Object]uint32 // object -> id once many
	nobjs uint32

	// names is a stack of the property names of the plain objects being
	// written (see writePlain), reused across messages.
	names []unistring.String

	// small is the encoder's own small buffer while buf is a pooled large
	// one (grow); release gives it back to buf.
	small []byte
}

type sharedEntry struct {
	tok    SharedToken
	length int
}

var encoderPool = sync.Pool{New: func() any { return &encoder{buf: make([]byte, 0, 512)} }}

func (e *encoder) release() {
	switch {
	case isLarge(e.buf):
		putLarge(e.buf) // (nil when the frame took it over)
		e.buf = nil
	case cap(e.buf) > 64<<10:
		e.buf = nil
	}
	if e.small != nil {
		e.buf, e.small = e.small, nil
	}
	if e.buf == nil {
		e.buf = make([]byte, 0, 512)
	}
	clear(e.objs)
	e.objs = e.objs[:0]
	if cap(e.names) > maxPooledNames {
		e.names = nil
	}
	clear(e.names) // (writePlain clears what it pops: only a failed call leaves names)
	e.names = e.names[:0]
	if e.nobjs > smallIDs { // the map was used
		if len(e.ids) > maxPooledIDs {
			e.ids = nil
		} else {
			clear(e.ids) // keeps the buckets: the next large graph does not regrow them
		}
	}
	e.nobjs = 0
	e.rt, e.global, e.realm, e.err, e.tl, e.shared, e.isPort = nil, nil, nil, nil, nil, nil, nil
	e.hosts, e.host = nil, false
	e.sab, e.refs = e.sab[:0], nil
	encoderPool.Put(e)
}

// dropRefs releases the shared-memory references taken by a failed call.
func (e *encoder) dropRefs() {
	for _, r := range e.refs {
		r.Release()
	}
	e.refs = nil
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
	if n > e.limit-e.hdrLen-(len(e.buf)-e.valueStart) {
		e.fail(fmt.Errorf("%w: over the cap of %d bytes", ErrFrameTooLarge, e.limit))
		return false
	}
	if cap(e.buf)-len(e.buf) < n {
		e.grow(n)
	}
	return true
}

// grow makes room for n more bytes: buf moves to a pooled buffer of at
// least twice its capacity (bufpool.go). The encoder's own small buffer is
// kept for its next call; a pooled one goes back to its pool. One write
// larger than all before it (an ArrayBuffer's bytes) is left to append,
// which sizes the buffer to fit, as a reader that uses those bytes in place
// keeps them all, and copies them into memory it need not clear first.
func (e *encoder) grow(n int) {
	want := 2 * cap(e.buf)
	if len(e.buf)+n > want {
		return
	}
	nb := append(getLarge(want), e.buf...)
	switch {
	case isLarge(e.buf):
		putLarge(e.buf)
	case e.small == nil && cap(e.buf) <= 64<<10: // (not a buffer append sized for one ArrayBuffer)
		e.small = e.buf[:0]
	}
	e.buf = nb
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
	if e.nobjs > smallIDs {
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

// register gives o the next id. Ids count objects in the order their tags
// appear in the frame; the reader numbers them the same way.
func (e *encoder) register(o *goja.Object) {
	switch {
	case e.nobjs > smallIDs:
		e.ids[o] = e.nobjs
	case e.nobjs < smallIDs:
		e.objs = append(e.objs, o)
	default:
		if e.ids == nil {
			e.ids = make(map[*goja.Object]uint32, 4*smallIDs)
		}
		for i, p := range e.objs {
			e.ids[p] = uint32(i)
		}
		e.ids[o] = e.nobjs
	}
	e.nobjs++
}

// needRealm returns the realm record with group g captured, or nil after
// failing the call.
func (e *encoder) needRealm(g group) *realm {
	if e.realm == nil {
		e.realm = realmOf(e.rt)
	}
	if err := e.realm.need(g); err != nil {
		e.fail(err)
		return nil
	}
	return e.realm
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
		e.writeBigInt(tagBigInt, v.Export())
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

// writeBigInt writes a BigInt (x is a *big.Int) with the given tag.
func (e *encoder) writeBigInt(tag byte, x any) {
	b, _ := x.(interface {
		Sign() int
		Bytes() []byte
	})
	if b == nil {
		e.reject("BigInt could not be cloned.")
		return
	}
	mag := b.Bytes() // big-endian, no leading zeros
	if len(mag) > maxVarint>>1 {
		e.reject("BigInt is too large to be cloned.")
		return
	}
	head := uint32(len(mag)) << 1
	if b.Sign() < 0 {
		head |= 1
	}
	if !e.room(1 + uvarintLen(head) + len(mag)) {
		return
	}
	e.buf = appendUvarint(append(e.buf, tag), head)
	for i := len(mag) - 1; i >= 0; i-- {
		e.buf = append(e.buf, mag[i])
	}
}

// writeString writes s exactly, lone surrogates included: one byte per code
// unit when all fit in Latin-1, else two.
func (e *encoder) writeString(s goja.String) {
	if gojainternal.IsASCII(s) {
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

// writeStringValue writes v, which must be a string; anything else is
// written as its ToString.
func (e *encoder) writeStringValue(v goja.Value) {
	s, ok := v.(goja.String)
	if !ok {
		// ToString of a number or boolean is itself; its String() is exact.
		w := v.ToString()
		if s, ok = w.(goja.String); !ok {
			s = e.rt.ToValue(w.String()).(goja.String)
		}
	}
	e.writeString(s)
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

// checkKey rejects a property name that Keys() may have mangled.
func (e *encoder) checkKey(k string) bool {
	if strings.ContainsRune(k, utf8.RuneError) {
		// Keys() maps a lone surrogate to U+FFFD: the name cannot be told
		// from a real U+FFFD nor read back with Get.
		e.reject("property names containing U+FFFD or unpaired surrogates cannot be cloned.")
		return false
	}
	return true
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
	k := kindOf(o)
	if k == gojainternal.KindInvalid {
		e.reject("an uninitialized goja.Object could not be cloned.")
		return
	}
	// The commonest kind first.
	if k == kindPlain && o.ClassName() == "Object" && o != e.global {
		if e.isPort != nil && e.isPort(o) {
			e.writePort(o)
			return
		}
		if e.hosts != nil && e.writeHost(o) {
			return
		}
		if e.enter(depth) {
			e.register(o)
			e.writePlain(o, depth)
		}
		return
	}
	switch k {
	case kindPlain, kindOrdinary:
		e.writeOrdinary(o, depth)
	case kindArray:
		if e.enter(depth) {
			e.register(o)
			e.writeArray(o, depth)
		}
	case kindDate:
		e.register(o)
		ms := math.NaN()
		if t, ok := o.Export().(interface{ UnixMilli() int64 }); ok {
			ms = float64(t.UnixMilli())
		}
		e.putTagFloat(tagDate, ms)
	case kindRegExp:
		e.writeRegExp(o)
	case kindMap:
		e.writeMap(o, depth)
	case kindSet:
		e.writeSet(o, depth)
	case kindError:
		if e.hosts != nil && e.writeHost(o) {
			return
		}
		e.writeError(o, depth)
	case kindWrapper:
		e.writeWrapper(o)
	case kindString:
		if r := e.needRealm(groupWrappers); r != nil {
			e.writeStringObject(o, r.stringValueOf)
		}
	case kindBuffer:
		e.writeBuffer(o)
	case kindTyped, kindDataView:
		e.writeView(o, k == kindDataView, depth)
	default:
		e.fail(rejectObject(e.rt, o))
	}
}

// writeOrdinary writes an ordinary object that is not a plain {} of goja's
// usual type (a builtin prototype, Math, JSON ...): as a plain object, except
// the global object, which is never cloneable, and Number.prototype and
// String.prototype, which are wrappers of 0 and "".
func (e *encoder) writeOrdinary(o *goja.Object, depth int) {
	if o == e.global {
		e.reject("the global object could not be cloned.")
		return
	}
	switch o.ClassName() {
	case "Object":
		if e.enter(depth) {
			e.register(o)
			e.writePlain(o, depth)
		}
	case "Number":
		if r := e.needRealm(groupWrappers); r != nil {
			v, err := r.numberValueOf(o)
			if err != nil {
				e.fail(err)
				return
			}
			e.register(o)
			e.putTagFloat(tagNumberObj, v.ToFloat())
		}
	case "String":
		if r := e.needRealm(groupWrappers); r != nil {
			e.writeStringObject(o, r.stringValueOf)
		}
	default:
		e.fail(rejectObject(e.rt, o))
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
	start := len(e.names)
	if names, ok := gojainternal.PlainKeys(o, e.names); ok {
		e.names = names
		e.writePlainProps(o, start, len(names), depth)
		clear(e.names[start:])
		e.names = e.names[:start]
	} else {
		e.writeProps(o, o.Keys(), 0, depth)
	}
	e.putTag(tagObjectEnd)
}

// writePlainProps writes the properties of a plain object whose own
// enumerable names are e.names[start:end], read by gojainternal (the same
// names, in the same order, as Keys() gives). As in writeProps, each value
// is read when its turn comes, so that a getter run meanwhile (of this
// object or of a nested one) is seen. e.names may grow and be reallocated
// by nested objects, which leave it as long as they found it.
func (e *encoder) writePlainProps(o *goja.Object, start, end, depth int) {
	for i := start; i < end; i++ {
		n := e.names[i]
		k := n.String()
		if !e.checkKey(k) {
			return
		}
		v, ok := gojainternal.PlainGet(o, n)
		if !ok {
			v = o.Get(k) // an accessor: [[Get]] runs its getter
		}
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
}

// writeProps writes the (key value) pairs of o for keys, skipping array
// indices below skipBelow+1 (skipBelow = 0 skips nothing; for an array it is
// length+1, so that only named properties are written).
func (e *encoder) writeProps(o *goja.Object, keys []string, skipBelow uint64, depth int) {
	for _, k := range keys {
		if skipBelow > 0 {
			if i, ok := parseIndex(k); ok && uint64(i) < skipBelow-1 {
				continue
			}
		}
		if !e.checkKey(k) {
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
}

// writeArray writes an array: its length and elements, and, wrapped in
// tagArrayProps, its named properties.
func (e *encoder) writeArray(o *goja.Object, depth int) {
	n, fast := gojainternal.ArrayLength(o)
	if !fast {
		l := o.Get("length").ToInteger()
		if l < 0 || l > maxArrayLength {
			e.reject("array length out of range.")
			return
		}
		n = uint32(l)
	}
	var keys []string
	named := false
	if n > denseLimit || !gojainternal.ArrayHasNoNames(o) {
		keys = o.Keys()
		for _, k := range keys {
			if i, ok := parseIndex(k); !ok || i >= n {
				named = true
				break
			}
		}
	}
	if named {
		e.putTag(tagArrayProps)
	}
	if n <= denseLimit {
		e.putTagUvarint(tagDenseArray, n)
		for i := uint32(0); i < n; i++ {
			// Each element is read when its turn comes (a getter run by an
			// earlier one may have changed the array).
			v, ok := gojainternal.ArrayElement(o, i)
			if !ok {
				v = o.Get(indexKey(i))
			}
			if v == nil {
				e.putTag(tagHole)
				continue
			}
			e.writeValue(v, depth+1)
			if e.err != nil {
				return
			}
		}
	} else {
		// Long array: visit only the elements it has, from its own keys.
		e.putTagUvarint(tagSparseArr, n)
		for _, k := range keys {
			i, ok := parseIndex(k)
			if !ok || i >= n {
				continue // a named property: written below
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
	if named {
		e.writeProps(o, keys, uint64(n)+1, depth)
		e.putTag(tagObjectEnd)
	}
}

// indexKeys caches the names of small array indices: substrings of one
// string of all their digits, so that making the table at load is one
// allocation, not one per name.
var indexKeys = func() (s [1024]string) {
	b := make([]byte, 0, 4*len(s))
	var ends [len(s)]int
	for i := range s {
		b = strconv.AppendInt(b, int64(i), 10)
		ends[i] = len(b)
	}
	all, start := string(b), 0
	for i := range s {
		s[i], start = all[start:ends[i]], ends[i]
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
