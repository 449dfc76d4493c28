package clone

import (
	"errors"
	"strings"

	"github.com/dop251/goja"
)

// Readers for the kinds added by wire format version 2.

// readArrayProps reads tagArrayProps: an array, then its named properties.
func (d *decoder) readArrayProps(depth int) (goja.Value, error) {
	var v goja.Value
	var err error
	switch d.peek() {
	case tagDenseArray:
		d.pos++
		v, err = d.readDense(depth)
	case tagSparseArr:
		d.pos++
		v, err = d.readSparse(depth)
	default:
		return nil, d.malformed("named properties of something that is not an array")
	}
	if err != nil {
		return nil, err
	}
	arr := v.(*goja.Object)
	return arr, d.readProps(arr, depth, func(k string) error {
		if _, isIndex := parseIndex(k); isIndex || k == "length" {
			return d.malformed("%q among an array's named properties", k)
		}
		return nil
	})
}

func (d *decoder) readMap(depth int) (goja.Value, error) {
	if err := d.enter(depth); err != nil {
		return nil, err
	}
	n, err := d.readLen(2) // a key and a value, at least a byte each
	if err != nil {
		return nil, err
	}
	r, err := d.needRealm(groupMap)
	if err != nil {
		return nil, err
	}
	m, err := d.construct(r.mapCtor, kindMap)
	if err != nil {
		return nil, err
	}
	d.add(m)
	for i := 0; i < n; i++ {
		k, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		v, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, err := r.mapSet(m, k, v); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (d *decoder) readSet(depth int) (goja.Value, error) {
	if err := d.enter(depth); err != nil {
		return nil, err
	}
	n, err := d.readLen(1)
	if err != nil {
		return nil, err
	}
	r, err := d.needRealm(groupSet)
	if err != nil {
		return nil, err
	}
	s, err := d.construct(r.setCtor, kindSet)
	if err != nil {
		return nil, err
	}
	d.add(s)
	for i := 0; i < n; i++ {
		v, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		if _, err := r.setAdd(s, v); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// regexpFlagLetters are the flag letters by bit.
const regexpFlagLetters = "gimyusdv"

func (d *decoder) readRegExp() (goja.Value, error) {
	src, err := d.readString()
	if err != nil {
		return nil, err
	}
	flags, err := d.readUvarint()
	if err != nil {
		return nil, err
	}
	if flags&^flagsKnown != 0 {
		return nil, d.malformed("unknown RegExp flag bits 0x%x", flags)
	}
	var sb strings.Builder
	for i := range len(regexpFlagLetters) {
		if flags&(1<<i) == 0 {
			continue
		}
		if 1<<i == flagHasIndices || 1<<i == flagUnicodeSets {
			return nil, &DataCloneError{Message: "RegExp flag " + regexpFlagLetters[i:i+1] + " is not supported by this engine."}
		}
		sb.WriteByte(regexpFlagLetters[i])
	}
	r, err := d.needRealm(groupRegExp)
	if err != nil {
		return nil, err
	}
	o, err := d.construct(r.regexpCtor, kindRegExp, src, d.rt.ToValue(sb.String()))
	if err != nil {
		var ex *goja.Exception
		if errors.As(err, &ex) {
			return nil, d.malformed("the RegExp source does not compile: %v", ex.Value())
		}
		return nil, err
	}
	return d.add(o), nil
}

// errorProtoIndex returns the index in errorNames named by a prototype
// field, or 0.
func errorProtoIndex(b byte) int {
	for i, t := range errorProtoTags {
		if i > 0 && t == b {
			return i
		}
	}
	return 0
}

func (d *decoder) readError(depth int) (goja.Value, error) {
	if err := d.enter(depth); err != nil {
		return nil, err
	}
	id := len(d.objs)
	d.objs = append(d.objs, unbuilt) // its cause may refer to it, nothing else before it is built
	proto := errorProtoIndex(d.peek())
	if proto > 0 {
		d.pos++
	}
	var args []goja.Value
	if d.peek() == errMessage {
		d.pos++
		msg, err := d.readString()
		if err != nil {
			return nil, err
		}
		args = append(args, msg)
	}
	var stack goja.Value
	if d.peek() == errStack {
		d.pos++
		s, err := d.readString()
		if err != nil {
			return nil, err
		}
		stack = s
	}
	r, err := d.needRealm(groupError)
	if err != nil {
		return nil, err
	}
	e, err := d.construct(r.errorCtors[proto], kindError, args...)
	if err != nil {
		return nil, err
	}
	d.objs[id] = e
	if stack != nil {
		if err := e.DefineDataProperty("stack", stack, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return nil, err
		}
	}
	if d.peek() == errCause {
		d.pos++
		cause, err := d.readValue(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := e.DefineDataProperty("cause", cause, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return nil, err
		}
	}
	if b, err := d.readByte(); err != nil {
		return nil, err
	} else if b != errEnd {
		d.pos--
		return nil, d.malformed("unexpected byte 0x%02x in an Error", b)
	}
	return e, nil
}

// aliasMin is the smallest ArrayBuffer whose bytes the reader uses in place.
const aliasMin = 4 << 10

func (d *decoder) readBuffer() (goja.Value, error) {
	n, err := d.readUvarint()
	if err != nil {
		return nil, err
	}
	pad := padLen(d.pos)
	if uint64(pad)+uint64(n) > uint64(d.remaining()) {
		return nil, d.malformed("ArrayBuffer of %d bytes exceeds the %d bytes left", n, d.remaining())
	}
	for _, b := range d.data[d.pos : d.pos+pad] {
		if b != 0 {
			return nil, d.malformed("non-zero padding")
		}
	}
	d.pos += pad
	b := d.data[d.pos : d.pos+int(n) : d.pos+int(n)]
	d.pos += int(n)
	// Use the frame's memory in place when the buffer is most of the frame's
	// memory (so that keeping it alive costs at most as much again; a pooled
	// frame's capacity may exceed its length) and the frame guarantees
	// alignment and sole ownership.
	if !d.alias || len(b) < aliasMin || 2*len(b) < cap(d.data) {
		b = append([]byte(nil), b...)
	} else {
		d.aliased = true
	}
	return d.add(d.rt.ToValue(d.rt.NewArrayBuffer(b)).(*goja.Object)), nil
}

// readManifestRef reads tagTransferred or tagShared: a manifest entry of
// the same letter, each referred to once (later mentions are back-references).
func (d *decoder) readManifestRef(tag byte) (goja.Value, error) {
	i, err := d.readUvarint()
	if err != nil {
		return nil, err
	}
	if uint64(i) >= uint64(len(d.manifest)) || d.manifest[i].kind != tag || d.manifest[i].used {
		return nil, d.malformed("reference to manifest entry %d, which is missing, of another kind, or already used", i)
	}
	d.manifest[i].used = true
	return d.add(d.manifest[i].obj), nil
}

func (d *decoder) readView(depth int) (goja.Value, error) {
	k, err := d.readByte()
	if err != nil {
		return nil, err
	}
	vi := viewIndex(k)
	if vi < 0 {
		d.pos--
		return nil, d.malformed("unknown view kind 0x%02x", k)
	}
	id := len(d.objs)
	d.objs = append(d.objs, unbuilt)
	switch d.peek() {
	case tagArrayBuffer, tagTransferred, tagShared, tagObjectRef:
	default:
		return nil, d.malformed("a view's buffer must be an ArrayBuffer")
	}
	bv, err := d.readValue(depth)
	if err != nil {
		return nil, err
	}
	buf, _ := bv.(*goja.Object)
	if buf == nil || !isArrayBuffer(buf) {
		return nil, d.malformed("a view over something that is not an ArrayBuffer")
	}
	off, err := d.readUvarint()
	if err != nil {
		return nil, err
	}
	length, err := d.readUvarint()
	if err != nil {
		return nil, err
	}
	size := uint32(viewKinds[vi].size)
	ab, _ := buf.Export().(goja.ArrayBuffer)
	if ab.Detached() || off%size != 0 || length%size != 0 || uint64(off)+uint64(length) > uint64(len(ab.Bytes())) {
		return nil, d.malformed("%s of %d bytes at offset %d does not fit its buffer of %d bytes",
			viewKinds[vi].name, length, off, len(ab.Bytes()))
	}
	r, err := d.needRealm(groupViews)
	if err != nil {
		return nil, err
	}
	var o *goja.Object
	if k == viewDataView {
		o, err = d.construct(r.viewCtors[vi], kindDataView, buf, d.rt.ToValue(off), d.rt.ToValue(length))
	} else {
		o, err = d.construct(r.viewCtors[vi], kindTyped, buf, d.rt.ToValue(off), d.rt.ToValue(length/size))
	}
	if err != nil {
		return nil, err
	}
	d.objs[id] = o
	return o, nil
}
