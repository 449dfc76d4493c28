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

	"github.com/dop251/goja"
)

// Deserialize builds the value held by f in rt and returns it. It always
// consumes f: f.Release is called on success and on error, so the caller must
// not use f afterwards.
//
// Any defect in the bytes (unknown version, truncation, a bad tag, length or
// back-reference, trailing bytes, nesting deeper than 256) fails with an
// error wrapping ErrMalformedFrame; every length and count is checked against
// the bytes left before anything is allocated for it. Objects are made with
// CreateDataProperty semantics, so setters on Object.prototype or
// Array.prototype never run and "__proto__" stays an ordinary key. Dates are
// made with the realm's global Date constructor.
//
// Deserialize runs no script code except the realm's Date constructor, when
// the frame holds a Date; an exception or uncatchable goja error raised there
// is returned as the error. Deserialize must be called on the goroutine that
// owns rt. It never panics.
func Deserialize(rt *goja.Runtime, f *Frame) (v goja.Value, err error) {
	defer f.Release()
	if f == nil || f.Released() {
		return nil, fmt.Errorf("%w: nil or released frame", ErrMalformedFrame)
	}
	d := decoderPool.Get().(*decoder)
	defer d.release()
	d.rt, d.data, d.pos = rt, f.Bytes(), 0

	defer func() {
		if r := recover(); r != nil {
			v, err = nil, recoveredError(r)
		}
	}()
	if len(d.data) == 0 {
		return nil, fmt.Errorf("%w: empty frame", ErrMalformedFrame)
	}
	if ver := d.data[0]; ver != formatVersion {
		return nil, fmt.Errorf("%w: unsupported wire format version %d (this reader knows version %d)",
			ErrMalformedFrame, ver, formatVersion)
	}
	d.pos = 1
	v, err = d.readValue(0)
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
	rt   *goja.Runtime
	data []byte
	pos  int

	objs  []goja.Value      // id -> object; nil while a dense array is being read
	items []any             // element stack for dense arrays; nil = hole
	units []uint16          // scratch for strings
	keys  map[string]string // interned short ASCII property names, kept across calls (bounded)

	dateCtor *goja.Object
}

const (
	maxInternedKeys = 4096
	maxInternedLen  = 64
)

var decoderPool = sync.Pool{New: func() any { return &decoder{keys: make(map[string]string)} }}

func (d *decoder) release() {
	clear(d.objs)
	clear(d.items)
	d.objs, d.items = d.objs[:0], d.items[:0]
	if cap(d.objs) > 4096 {
		d.objs = nil
	}
	if cap(d.items) > 4096 {
		d.items = nil
	}
	if cap(d.units) > 4096 {
		d.units = nil
	}
	if len(d.keys) >= maxInternedKeys {
		clear(d.keys)
	}
	d.rt, d.data, d.dateCtor = nil, nil, nil
	decoderPool.Put(d)
}

func (d *decoder) malformed(format string, args ...any) error {
	return fmt.Errorf("%w: "+format+" (at byte %d)", append([]any{ErrMalformedFrame}, append(args, d.pos)...)...)
}

func (d *decoder) remaining() int { return len(d.data) - d.pos }

func (d *decoder) readByte() (byte, error) {
	if d.pos >= len(d.data) {
		return 0, d.malformed("unexpected end of frame")
	}
	b := d.data[d.pos]
	d.pos++
	return b, nil
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

// readLen reads a length of items of size bytes each and checks that they
// are all present.
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
		return d.rt.ToValue(int64(unzigzag(u))), nil
	case tagDouble:
		f, err := d.readFloat()
		if err != nil {
			return nil, err
		}
		return d.rt.ToValue(f), nil
	case tagBigInt:
		return d.readBigInt()
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
	d.pos--
	return nil, d.malformed("unknown tag 0x%02x", tag)
}

func (d *decoder) readBigInt() (goja.Value, error) {
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
	return d.rt.ToValue(x), nil
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
	return d.rt.ToValue(string(b)), nil
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
// that is exact for every well-formed name, and version 1 frames hold no
// others (the writer rejects lone surrogates in names).
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
	o := d.rt.NewObject()
	d.objs = append(d.objs, o)
	for {
		k, done, err := d.readKey()
		if err != nil {
			return nil, err
		}
		if done {
			return o, nil
		}
		v, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
			return nil, err
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
	if d.dateCtor == nil {
		if ex := d.rt.Try(func() { d.dateCtor, _ = d.rt.Get("Date").(*goja.Object) }); ex != nil {
			return nil, ex
		}
		if d.dateCtor == nil {
			return nil, fmt.Errorf("jsworker: cannot deserialize a Date: the global Date is not a constructor")
		}
	}
	o, err := d.rt.New(d.dateCtor, d.rt.ToValue(ms))
	if err != nil {
		return nil, err
	}
	if o.ClassName() != "Date" {
		return nil, fmt.Errorf("jsworker: cannot deserialize a Date: the global Date made a %s", o.ClassName())
	}
	d.objs = append(d.objs, o)
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
	return v, nil
}
