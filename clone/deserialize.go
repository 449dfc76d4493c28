package clone

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"weak"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Deserialize builds the value held by f in rt and returns it. It always
// consumes f: f.Release is called on success and on error, so the caller must
// not use f afterwards. It reads frames of wire format versions 1 and 2.
//
// Any defect in the bytes (unknown magic or version, truncation, a bad tag,
// length or back-reference, trailing bytes, nesting deeper than 256) fails
// with an error wrapping ErrMalformedFrame; every length and count is
// checked against the bytes left before anything is allocated for it, and
// the manifest is checked whole before anything is built. A frame holding a
// SharedArrayBuffer while no shared-memory implementation is registered
// fails with a *DataCloneError. Objects are made with CreateDataProperty
// semantics, so setters on Object.prototype or Array.prototype never run and
// "__proto__" stays an ordinary key. Maps, Sets, RegExps, Errors, Dates and
// views are made with the realm's own constructors (see realm.go), with the
// prototypes they had when the realm first needed them.
//
// Deserialize runs no script code except those builtins; an exception or
// uncatchable goja error raised there is returned as the error.
// Deserialize must be called on the goroutine that owns rt. It never panics.
func Deserialize(rt *goja.Runtime, f *Frame) (v goja.Value, err error) {
	defer f.Release()
	if f == nil || f.Released() {
		return nil, fmt.Errorf("%w: nil or released frame", ErrMalformedFrame)
	}
	if err := gojainternal.Kinds(); err != nil {
		return nil, err
	}
	d := decoderPool.Get().(*decoder)
	defer d.release()
	d.rt, d.data, d.pos = rt, f.Bytes(), 0
	if f.x != nil {
		d.buffers, d.exts = f.x.buffers, f.x.exts
	}
	d.alias = f.aligned
	if f.recycle {
		d.recycle = f.data // given back by release unless used in place (aliased)
	}
	d.fill = fillObjects && gojainternal.CanFillPlain()

	defer func() {
		if r := recover(); r != nil {
			v, err = nil, recoveredError(r)
		}
	}()
	if err := d.readHeader(); err != nil {
		return nil, err
	}
	if ex := rt.Try(func() {
		if err = d.readManifest(); err == nil {
			v, err = d.readValue(0)
		}
	}); ex != nil {
		return nil, ex
	}
	if err != nil {
		return nil, err
	}
	if d.pos != len(d.data) {
		return nil, d.malformed("%d trailing bytes", len(d.data)-d.pos)
	}
	return v, nil
}

// A decoder is the state of one Deserialize call. Decoders are pooled.
type decoder struct {
	rt          *goja.Runtime
	realm       *realm
	objectProto *goja.Object // the realm's Object.prototype
	data        []byte
	pos         int
	version     int
	alias       bool        // ArrayBuffer bytes may be used in place (Frame.aligned)
	aliased     bool        // some are: the frame's bytes are an ArrayBuffer's now
	recycle     []byte      // the frame's pooled bytes, to give back when read (Frame.recycle)
	buffers     [][]byte    // transferred memory
	exts        []*External // the frame's references to external memory (nil entries: Go memory); adopted ones are taken out

	manifest  []manifestEntry
	objs      []goja.Value               // id -> object; nil while a dense array is being read, unbuilt while another kind is
	items     []any                      // element stack for dense arrays; nil = hole
	units     []uint16                   // scratch for strings
	keys      map[string]string          // interned short ASCII property names, kept across calls (bounded)
	lastRT    weak.Pointer[goja.Runtime] // the runtime of lastProto
	lastProto weak.Pointer[goja.Object]  // Object.prototype of the last runtime (objectPrototype)
	fill      bool                       // gojainternal.FillPlainObject works: objects are built in one step
	pnames    []unistring.String         // property stack of the objects being read (readObject)
	pvals     []goja.Value
	strs      map[string]goja.Value             // shared short ASCII string values, kept across calls (bounded)
	slabs     slabs                             // memory of numbers and short strings (slab.go)
	shapes    [maxShapeDepth][]unistring.String // per depth, the ASCII names of the last object read there, by position
	layouts   [maxShapeDepth]layout             // per depth, shapes' names as objects may share them
}

type manifestEntry struct {
	kind   byte
	length uint32
	tok    SharedToken
	obj    *goja.Object
	used   bool
}

// unbuilt marks an object id whose object is not built yet and must not be
// referred to (a view while its buffer is read, an Error while its message
// is). Dense arrays use nil instead: see readRef.
var unbuilt = goja.Null()

const (
	maxInternedKeys = 4096
	maxInternedLen  = 64
	maxSharedStrs   = 4096
	maxSharedLen    = 16
)

var decoderPool = sync.Pool{New: func() any {
	return &decoder{keys: make(map[string]string), strs: make(map[string]goja.Value)}
}}

func (d *decoder) release() {
	clear(d.objs)
	clear(d.items)
	clear(d.manifest)
	d.objs, d.items, d.manifest = d.objs[:0], d.items[:0], d.manifest[:0]
	if cap(d.objs) > maxPooledIDs {
		d.objs = nil
	}
	if cap(d.items) > maxPooledIDs {
		d.items = nil
	}
	if cap(d.pnames) > 4096 {
		d.pnames, d.pvals = nil, nil
	}
	if cap(d.units) > 4096 {
		d.units = nil
	}
	if len(d.keys) >= maxInternedKeys {
		clear(d.keys)
	}
	if len(d.strs) >= maxSharedStrs {
		clear(d.strs)
	}
	if d.recycle != nil && !d.aliased {
		putLarge(d.recycle)
	}
	d.recycle, d.aliased = nil, false
	d.rt, d.realm, d.objectProto, d.data, d.buffers, d.exts = nil, nil, nil, nil, nil, nil
	decoderPool.Put(d)
}

func (d *decoder) malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format+" (at byte %d)", append([]any{ErrMalformedFrame}, append(args, d.pos)...)...)
}

func (d *decoder) remaining() int { return len(d.data) - d.pos }

// needRealm returns the realm record with group g captured.
func (d *decoder) needRealm(g group) (*realm, error) {
	if d.realm == nil {
		d.realm = realmOf(d.rt)
	}
	if err := d.realm.need(g); err != nil {
		return nil, err
	}
	return d.realm, nil
}

// readHeader reads the version (and, from version 2 on, the magic).
func (d *decoder) readHeader() error {
	if len(d.data) == 0 {
		return d.malformed("empty frame")
	}
	if d.data[0] == legacyVersion {
		d.version, d.pos = legacyVersion, 1
		return nil
	}
	if len(d.data) < headerLen || string(d.data[:len(magic)]) != magic {
		return d.malformed("not a frame (no magic, and not version 1)")
	}
	ver := d.data[len(magic)]
	if ver != formatVersion && ver != hostVersion {
		d.pos = len(magic)
		return d.malformed("unsupported wire format version %d (this reader knows versions 1 to %d)", ver, hostVersion)
	}
	d.version, d.pos = int(ver), headerLen
	return nil
}

// readManifest reads and checks the whole manifest, then makes the objects
// it names: the transferred ArrayBuffers (over the frame's memory) and the
// shared ones (through the registered SharedMemory).
func (d *decoder) readManifest() error {
	if d.version < 2 {
		if len(d.buffers) > 0 {
			return d.malformed("a version-1 frame carries transferred memory")
		}
		return nil
	}
	n, err := d.readLen(2) // every entry takes at least two bytes
	if err != nil {
		return err
	}
	transfers, shared, ports := 0, 0, 0
	for i := 0; i < n; i++ {
		k, err := d.readByte()
		if err != nil {
			return err
		}
		en := manifestEntry{kind: k}
		switch k {
		case manifestTransfer:
			if transfers >= len(d.buffers) {
				return d.malformed("the manifest lists more transferred buffers than the frame carries (%d)", len(d.buffers))
			}
			if en.length, err = d.readUvarint(); err != nil {
				return err
			}
			if uint64(en.length) != uint64(len(d.buffers[transfers])) {
				return d.malformed("transferred buffer %d has %d bytes, the manifest says %d",
					transfers, len(d.buffers[transfers]), en.length)
			}
			transfers++
		case manifestShared:
			if d.remaining() < tokenLen {
				return d.malformed("unexpected end of frame in a token")
			}
			copy(en.tok[:], d.data[d.pos:])
			d.pos += tokenLen
			if en.length, err = d.readUvarint(); err != nil {
				return err
			}
			shared++
		case manifestPort:
			if d.remaining() < tokenLen {
				return d.malformed("unexpected end of frame in a token")
			}
			copy(en.tok[:], d.data[d.pos:])
			d.pos += tokenLen
			ports++
		default:
			d.pos--
			return d.malformed("unknown manifest entry kind 0x%02x", k)
		}
		d.manifest = append(d.manifest, en)
	}
	if transfers != len(d.buffers) {
		return d.malformed("the frame carries %d transferred buffers, the manifest lists %d", len(d.buffers), transfers)
	}
	if err := d.readPadding(); err != nil {
		return err
	}
	// The manifest is valid: build what it names.
	var hook SharedMemory
	if shared > 0 {
		if hook = sharedMemory(); hook == nil {
			return &DataCloneError{Message: "SharedArrayBuffer is not supported yet."}
		}
	}
	var portsHook MessagePorts
	if ports > 0 {
		if portsHook = messagePorts(); portsHook == nil {
			return &DataCloneError{Message: "MessagePort is not supported here."}
		}
	}
	transfers = 0
	for i := range d.manifest {
		en := &d.manifest[i]
		switch en.kind {
		case manifestTransfer:
			en.obj = d.rt.ToValue(d.rt.NewArrayBuffer(d.buffers[transfers])).(*goja.Object)
			if transfers < len(d.exts) && d.exts[transfers] != nil {
				adopt(en.obj, d.exts[transfers]) // the frame's reference moves to the new buffer
				d.exts[transfers] = nil
			}
			transfers++
		case manifestPort:
			o, err := portsHook.Attach(d.rt, PortToken(en.tok))
			if err != nil {
				return err
			}
			en.obj = o
		case manifestShared:
			o, err := hook.Attach(d.rt, en.tok, int(en.length))
			if err != nil {
				return err
			}
			if o == nil || !isArrayBuffer(o) {
				return fmt.Errorf("jsworker: the shared-memory hook returned something other than an ArrayBuffer")
			}
			// A growable SharedArrayBuffer may have grown since it was sent,
			// never shrunk.
			if ab, _ := o.Export().(goja.ArrayBuffer); uint64(len(ab.Bytes())) < uint64(en.length) {
				return fmt.Errorf("jsworker: the shared-memory hook returned a buffer of %d bytes for one of %d",
					len(ab.Bytes()), en.length)
			}
			en.obj = o
		}
	}
	return nil
}

// readPadding skips the zero bytes up to the next multiple of bufferAlign.
func (d *decoder) readPadding() error {
	p := padLen(d.pos)
	if p > d.remaining() {
		return d.malformed("unexpected end of frame in padding")
	}
	for _, b := range d.data[d.pos : d.pos+p] {
		if b != 0 {
			return d.malformed("non-zero padding")
		}
	}
	d.pos += p
	return nil
}

func (d *decoder) readByte() (byte, error) {
	if d.pos >= len(d.data) {
		return 0, d.malformed("unexpected end of frame")
	}
	b := d.data[d.pos]
	d.pos++
	return b, nil
}

// peek returns the next byte without consuming it, or 0 at the end.
func (d *decoder) peek() byte {
	if d.pos >= len(d.data) {
		return 0
	}
	return d.data[d.pos]
}

// readUvarint reads a minimal LEB128 varint of at most 32 bits.
func (d *decoder) readUvarint() (uint32, error) {
	var x uint64
	for i := 0; i < 5; i++ {
		if d.pos >= len(d.data) {
			return 0, d.malformed("unexpected end of frame in varint")
		}
		b := d.data[d.pos]
		d.pos++
		x |= uint64(b&0x7F) << (7 * i)
		if b < 0x80 {
			if b == 0 && i > 0 {
				return 0, d.malformed("overlong varint")
			}
			if x > maxVarint {
				return 0, d.malformed("varint out of range")
			}
			return uint32(x), nil
		}
	}
	return 0, d.malformed("varint too long")
}

func (d *decoder) readFloat() (float64, error) {
	if d.remaining() < 8 {
		return 0, d.malformed("unexpected end of frame in number")
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(d.data[d.pos:]))
	d.pos += 8
	return f, nil
}

// readLen reads a count of items of size bytes each and checks that they
// can all be present: a count that cannot fit fails before any allocation
// or loop, and the result always fits in an int.
func (d *decoder) readLen(size int) (int, error) {
	n, err := d.readUvarint()
	if err != nil {
		return 0, err
	}
	if uint64(n)*uint64(size) > uint64(d.remaining()) {
		return 0, d.malformed("length %d exceeds the %d bytes left", n, d.remaining())
	}
	return int(n), nil
}

// v2 reports whether a tag of version 2 may appear.
func (d *decoder) v2(tag byte) error {
	if d.version < 2 {
		d.pos--
		return d.malformed("unknown tag 0x%02x", tag)
	}
	return nil
}

func (d *decoder) readValue(depth int) (goja.Value, error) {
	tag, err := d.readByte()
	if err != nil {
		return nil, err
	}
	switch tag {
	case tagUndefined:
		return goja.Undefined(), nil
	case tagNull:
		return goja.Null(), nil
	case tagTrue:
		return d.rt.ToValue(true), nil
	case tagFalse:
		return d.rt.ToValue(false), nil
	case tagInt32:
		u, err := d.readUvarint()
		if err != nil {
			return nil, err
		}
		return d.intValue(int64(unzigzag(u))), nil
	case tagDouble:
		f, err := d.readFloat()
		if err != nil {
			return nil, err
		}
		return d.floatValue(f), nil
	case tagBigInt:
		x, err := d.readBigInt()
		if err != nil {
			return nil, err
		}
		return d.rt.ToValue(x), nil
	case tagOneByteStr:
		return d.readOneByte()
	case tagTwoByteStr:
		return d.readTwoByte()
	case tagObject:
		return d.readObject(depth)
	case tagDenseArray:
		return d.readDense(depth)
	case tagSparseArr:
		return d.readSparse(depth)
	case tagDate:
		return d.readDate()
	case tagObjectRef:
		return d.readRef()
	}
	if err := d.v2(tag); err != nil {
		return nil, err
	}
	switch tag {
	case tagArrayProps:
		return d.readArrayProps(depth)
	case tagMap:
		return d.readMap(depth)
	case tagSet:
		return d.readSet(depth)
	case tagRegExp:
		return d.readRegExp()
	case tagError:
		return d.readError(depth)
	case tagTrueObject, tagFalseObject:
		return d.add(d.rt.ToValue(tag == tagTrueObject).ToObject(d.rt)), nil
	case tagNumberObj:
		f, err := d.readFloat()
		if err != nil {
			return nil, err
		}
		return d.add(d.rt.ToValue(f).ToObject(d.rt)), nil
	case tagBigIntObj:
		x, err := d.readBigInt()
		if err != nil {
			return nil, err
		}
		return d.add(d.rt.ToValue(x).ToObject(d.rt)), nil
	case tagStringObj:
		s, err := d.readString()
		if err != nil {
			return nil, err
		}
		return d.add(s.ToObject(d.rt)), nil
	case tagArrayBuffer:
		return d.readBuffer()
	case tagTransferred, tagShared, tagPort:
		return d.readManifestRef(tag)
	case tagView:
		return d.readView(depth)
	case tagHost:
		return d.readHost()
	}
	d.pos--
	return nil, d.malformed("unknown tag 0x%02x", tag)
}

// intValue returns the Number x. ToValue boxes a large integer twice (into
// an interface, then into a Value); gojainternal.NewInt not at all, given
// memory for it in a slab.
func (d *decoder) intValue(x int64) goja.Value {
	if x < 0 || x >= 256 { // (Go boxes small integers without allocating)
		if v := gojainternal.NewInt(d.slabs.int(x)); v != nil {
			return v
		}
	}
	return d.rt.ToValue(x)
}

// floatValue returns the Number f, a float64 in a slab when goja represents
// it as one (finite, not an integer: see gojainternal.NewFloat).
func (d *decoder) floatValue(f float64) goja.Value {
	if f != math.Trunc(f) && !math.IsNaN(f) && !math.IsInf(f, 0) {
		if v := gojainternal.NewFloat(d.slabs.float(f)); v != nil {
			return v
		}
	}
	return d.rt.ToValue(f)
}

// asciiValue returns the string of b, which is ASCII, its bytes and header
// in slabs when short.
func (d *decoder) asciiValue(b []byte) goja.Value {
	if len(b) <= maxSlabString {
		if v := gojainternal.NewASCII(d.slabs.str(b)); v != nil {
			return v
		}
	}
	return d.rt.ToValue(string(b))
}

// add gives o the next object id and returns it.
func (d *decoder) add(o *goja.Object) goja.Value {
	d.objs = append(d.objs, o)
	return o
}

func (d *decoder) readBigInt() (*big.Int, error) {
	head, err := d.readUvarint()
	if err != nil {
		return nil, err
	}
	n, neg := int(head>>1), head&1 == 1
	if n > d.remaining() {
		return nil, d.malformed("BigInt of %d bytes exceeds the %d bytes left", n, d.remaining())
	}
	mag := d.data[d.pos : d.pos+n]
	if (n == 0 && neg) || (n > 0 && mag[n-1] == 0) {
		return nil, d.malformed("non-canonical BigInt")
	}
	d.pos += n
	be := make([]byte, n)
	for i, b := range mag {
		be[n-1-i] = b
	}
	x := new(big.Int).SetBytes(be)
	if neg {
		x.Neg(x)
	}
	return x, nil
}

// readString reads a string value, tag included: a one- or two-byte string.
func (d *decoder) readString() (goja.String, error) {
	tag, err := d.readByte()
	if err != nil {
		return nil, err
	}
	var v goja.Value
	switch tag {
	case tagOneByteStr:
		v, err = d.readOneByte()
	case tagTwoByteStr:
		v, err = d.readTwoByte()
	default:
		d.pos--
		return nil, d.malformed("tag 0x%02x where a string was expected", tag)
	}
	if err != nil {
		return nil, err
	}
	return v.(goja.String), nil
}

func (d *decoder) readOneByte() (goja.Value, error) {
	n, err := d.readLen(1)
	if err != nil {
		return nil, err
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	for _, c := range b {
		if c >= utf8.RuneSelf {
			// Latin-1 beyond ASCII: widen to UTF-16.
			u := d.scratchUnits(n)
			for i, c := range b {
				u[i] = uint16(c)
			}
			return goja.StringFromUTF16(u), nil
		}
	}
	if n > maxSharedLen {
		return d.asciiValue(b), nil
	}
	// Short ASCII strings recur (enum-like fields, tags): share one value
	// per content. goja's ASCII strings are plain Go strings, immutable and
	// tied to no runtime, so the cache may outlive the call.
	if v, ok := d.strs[string(b)]; ok {
		return v, nil
	}
	v := d.asciiValue(b)
	if len(d.strs) < maxSharedStrs {
		d.strs[string(b)] = v
	}
	return v, nil
}

func (d *decoder) readUnits() ([]uint16, error) {
	n, err := d.readLen(2)
	if err != nil {
		return nil, err
	}
	u := d.scratchUnits(n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(d.data[d.pos+2*i:])
	}
	d.pos += 2 * n
	return u, nil
}

func (d *decoder) readTwoByte() (goja.Value, error) {
	u, err := d.readUnits()
	if err != nil {
		return nil, err
	}
	return goja.StringFromUTF16(u), nil
}

func (d *decoder) scratchUnits(n int) []uint16 {
	if cap(d.units) < n {
		d.units = make([]uint16, n)
	}
	return d.units[:n]
}

// readKey reads a property name. It returns done at the end of the object.
// Names are returned as Go strings, which goja maps back to the same UTF-16;
// that is exact for every well-formed name, and frames hold no others (the
// writer rejects lone surrogates in names).
func (d *decoder) readKey() (key string, done bool, err error) {
	tag, err := d.readByte()
	if err != nil {
		return "", false, err
	}
	switch tag {
	case tagObjectEnd:
		return "", true, nil
	case tagOneByteStr:
		n, err := d.readLen(1)
		if err != nil {
			return "", false, err
		}
		b := d.data[d.pos : d.pos+n]
		d.pos += n
		for _, c := range b {
			if c >= utf8.RuneSelf {
				r := make([]rune, n)
				for i, c := range b {
					r[i] = rune(c)
				}
				return string(r), false, nil
			}
		}
		if n > maxInternedLen {
			return string(b), false, nil
		}
		if k, ok := d.keys[string(b)]; ok {
			return k, false, nil
		}
		k := string(b)
		if len(d.keys) < maxInternedKeys {
			d.keys[k] = k
		}
		return k, false, nil
	case tagTwoByteStr:
		u, err := d.readUnits()
		if err != nil {
			return "", false, err
		}
		for i := 0; i < len(u); i++ {
			switch c := u[i]; {
			case c >= 0xD800 && c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000:
				i++
			case c >= 0xD800 && c < 0xE000:
				d.pos -= 2 * (len(u) - i)
				return "", false, d.malformed("unpaired surrogate in a property name")
			}
		}
		return string(utf16.Decode(u)), false, nil
	}
	d.pos--
	return "", false, d.malformed("tag 0x%02x where a property name was expected", tag)
}

func (d *decoder) enter(depth int) error {
	if depth > maxDepth {
		return d.malformed("nesting deeper than %d", maxDepth)
	}
	return nil
}

func (d *decoder) readObject(depth int) (goja.Value, error) {
	if err := d.enter(depth); err != nil {
		return nil, err
	}
	if d.objectProto == nil {
		d.objectProto = d.objectPrototype()
	}
	if !d.fill {
		return d.readObjectSet(depth)
	}
	// The object exists (and has its id) before its values are read, so
	// that they may refer to it; its properties are stacked and given to it
	// in one step at its end (gojainternal.FillPlainObject, which has
	// CreateDataProperty semantics whatever the prototype). Nothing can
	// observe the empty object meanwhile: no script runs while a frame is
	// read.
	o := d.rt.CreateObject(d.objectProto)
	d.objs = append(d.objs, o)
	base := len(d.pnames)
	defer func() {
		clear(d.pnames[base:])
		clear(d.pvals[base:])
		d.pnames, d.pvals = d.pnames[:base], d.pvals[:base]
	}()
	same := depth < maxShapeDepth // every name so far is the shape's at its position
	for i := 0; ; i++ {
		k, hit, done, err := d.readShapeName(depth, i)
		if err != nil {
			return nil, err
		}
		if done {
			same = same && i == len(d.shapes[depth])
			break
		}
		same = same && hit
		v, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		d.pnames, d.pvals = append(d.pnames, k), append(d.pvals, v)
	}
	if same {
		// The object has exactly the last layout read at its depth: it
		// shares that layout's names (gojainternal.SharedNames).
		if names := d.layoutNames(depth); names != nil && gojainternal.FillPlainObjectShared(o, names, d.pvals[base:]) {
			return o, nil
		}
	}
	if !gojainternal.FillPlainObject(o, d.pnames[base:], d.pvals[base:]) {
		return nil, fmt.Errorf("jsworker: internal error in structured clone: a new object could not be filled")
	}
	return o, nil
}

// fillObjects lets tests take readObjectSet, the path used when
// gojainternal cannot fill objects.
var fillObjects = true

// objectPrototype returns the realm's Object.prototype, which no script can
// replace (the property is read-only and not configurable). The decoder
// remembers the last one across calls through weak pointers, so that a
// pooled decoder keeps no runtime alive: while the prototype lives, so does
// its runtime, whose address therefore cannot be reused.
func (d *decoder) objectPrototype() *goja.Object {
	if d.lastRT.Value() == d.rt {
		if p := d.lastProto.Value(); p != nil {
			return p
		}
	}
	p := d.rt.NewObject().Prototype()
	d.lastRT, d.lastProto = weak.Make(d.rt), weak.Make(p)
	return p
}

// readObjectSet is readObject through goja's public API, for when
// gojainternal cannot fill objects: the object is built without a
// prototype and given Object.prototype when complete, so that a plain Set
// cannot meet a setter (or a read-only property) of the receiving realm's
// Object.prototype: it has CreateDataProperty semantics.
func (d *decoder) readObjectSet(depth int) (goja.Value, error) {
	o := d.rt.CreateObject(nil)
	d.objs = append(d.objs, o)
	for {
		k, done, err := d.readKey()
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
		v, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := o.Set(k, v); err != nil {
			return nil, err
		}
	}
	if err := o.SetPrototype(d.objectProto); err != nil {
		return nil, err
	}
	return o, nil
}

// Objects of one layout (the records of an array) recur: the same names in
// the same order. The decoder remembers the ASCII names of the last object
// read at each depth (up to maxShapeDepth, and maxShapeNames names), so that
// the i-th name of the next one there, when it is the same, is taken by
// comparing its bytes, without a map lookup or a conversion.
const (
	maxShapeDepth = 8
	maxShapeNames = 32
)

// readShapeName is readPropName for the i-th name of an object at depth;
// hit says that the name is the shape's at that position.
func (d *decoder) readShapeName(depth, i int) (k unistring.String, hit, done bool, err error) {
	if depth >= maxShapeDepth || i >= maxShapeNames {
		k, done, err = d.readPropName()
		return k, false, done, err
	}
	sh := d.shapes[depth]
	if i < len(sh) && d.pos+1 < len(d.data) && d.data[d.pos] == tagOneByteStr {
		// A length below 0x80 is a one-byte varint; the names kept are
		// ASCII, so equal bytes are an equal name.
		if k, n := sh[i], int(d.data[d.pos+1]); n < 0x80 && n == len(k) && n <= len(d.data)-d.pos-2 &&
			string(d.data[d.pos+2:d.pos+2+n]) == string(k) {
			d.pos += 2 + n
			return k, true, false, nil
		}
	}
	k, done, err = d.readPropName()
	if err != nil || done {
		return k, false, done, err
	}
	if k.AsUtf16() == nil { // ASCII (goja's other form starts with a byte-order mark)
		switch {
		case i < len(sh):
			sh[i] = k
			d.shapes[depth] = sh[:i+1] // what followed belonged to another layout
			d.layouts[depth] = layout{}
		case i == len(sh):
			d.shapes[depth] = append(sh, k)
			d.layouts[depth] = layout{}
		}
	}
	return k, false, false, nil
}

// A layout is a shape's names as new objects may share them.
type layout struct {
	names []unistring.String // gojainternal.SharedNames of the shape
	made  bool               // names was asked for (nil: not shareable)
}

// layoutNames returns the shared names of the shape at depth, or nil.
func (d *decoder) layoutNames(depth int) []unistring.String {
	l := &d.layouts[depth]
	if !l.made {
		l.names, l.made = gojainternal.SharedNames(d.shapes[depth]), true
	}
	return l.names
}

// readPropName is readKey giving goja's form of the name.
func (d *decoder) readPropName() (unistring.String, bool, error) {
	k, done, err := d.readKey()
	if err != nil || done {
		return "", done, err
	}
	return unistring.NewFromString(k), false, nil
}

// readProps reads (key value)* up to tagObjectEnd and defines them on o.
// check, if not nil, vets each key.
func (d *decoder) readProps(o *goja.Object, depth int, check func(string) error) error {
	for {
		k, done, err := d.readKey()
		if err != nil {
			return err
		}
		if done {
			return nil
		}
		if check != nil {
			if err := check(k); err != nil {
				return err
			}
		}
		v, err := d.readValue(depth + 1)
		if err != nil {
			return err
		}
		if err := o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
}

func (d *decoder) readDense(depth int) (goja.Value, error) {
	if err := d.enter(depth); err != nil {
		return nil, err
	}
	n, err := d.readLen(1) // every element takes at least one byte
	if err != nil {
		return nil, err
	}
	id := len(d.objs)
	d.objs = append(d.objs, nil) // made on demand: see readRef
	base := len(d.items)
	holes := false
	for i := 0; i < n; i++ {
		if d.pos < len(d.data) && d.data[d.pos] == tagHole {
			d.pos++
			d.items = append(d.items, nil)
			holes = true
			continue
		}
		v, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		d.items = append(d.items, v)
	}
	items := d.items[base:]
	defer func() {
		clear(items)
		d.items = d.items[:base]
	}()
	arr, _ := d.objs[id].(*goja.Object)
	if arr == nil && !holes {
		arr = d.rt.NewArray(items...)
		d.objs[id] = arr
		return arr, nil
	}
	if arr == nil {
		arr = d.rt.NewArray()
		d.objs[id] = arr
	}
	for i, it := range items {
		if it != nil {
			if err := arr.DefineDataProperty(indexKey(uint32(i)), it.(goja.Value), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				return nil, err
			}
		}
	}
	if err := arr.Set("length", n); err != nil {
		return nil, err
	}
	return arr, nil
}

func (d *decoder) readSparse(depth int) (goja.Value, error) {
	if err := d.enter(depth); err != nil {
		return nil, err
	}
	n, err := d.readUvarint()
	if err != nil {
		return nil, err
	}
	arr := d.rt.NewArray()
	d.objs = append(d.objs, arr)
	next := uint32(0) // smallest acceptable index+1
	for {
		k, err := d.readUvarint()
		if err != nil {
			return nil, err
		}
		if k == 0 {
			break
		}
		if k <= next || k > n {
			return nil, d.malformed("sparse array index %d out of order or not below length %d", k-1, n)
		}
		next = k
		v, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := arr.DefineDataProperty(strconv.FormatUint(uint64(k-1), 10), v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			return nil, err
		}
	}
	if err := arr.Set("length", n); err != nil {
		return nil, err
	}
	return arr, nil
}

func (d *decoder) readDate() (goja.Value, error) {
	ms, err := d.readFloat()
	if err != nil {
		return nil, err
	}
	if !math.IsNaN(ms) && (ms != math.Trunc(ms) || math.Abs(ms) > maxTimeValue) {
		d.pos -= 8
		return nil, d.malformed("invalid Date time value %v", ms)
	}
	r, err := d.needRealm(groupDate)
	if err != nil {
		return nil, err
	}
	o, err := d.construct(r.dateCtor, kindDate, d.rt.ToValue(ms))
	if err != nil {
		return nil, err
	}
	return d.add(o), nil
}

// construct calls new ctor(args...) and checks that it made an object of
// kind k.
func (d *decoder) construct(ctor *goja.Object, k kind, args ...goja.Value) (*goja.Object, error) {
	o, err := d.rt.New(ctor, args...)
	if err != nil {
		return nil, err
	}
	if kindOf(o) != k {
		return nil, fmt.Errorf("jsworker: structured clone: the realm's %s constructor made a %s", ctor.Get("name"), o.ClassName())
	}
	return o, nil
}

func (d *decoder) readRef() (goja.Value, error) {
	id, err := d.readUvarint()
	if err != nil {
		return nil, err
	}
	if uint64(id) >= uint64(len(d.objs)) {
		return nil, d.malformed("back-reference to object %d of %d", id, len(d.objs))
	}
	v := d.objs[id]
	if v == nil {
		// A dense array still being read refers to itself: make it now and
		// fill it at its end.
		v = d.rt.NewArray()
		d.objs[id] = v
	}
	if v == unbuilt {
		return nil, d.malformed("back-reference to object %d, which cannot refer to itself", id)
	}
	return v, nil
}
