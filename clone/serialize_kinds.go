package clone

import (
	"math/big"
	"reflect"

	"github.com/dop251/goja"
)

// Writers for the kinds added by wire format version 2.

func (e *encoder) writeRegExp(o *goja.Object) {
	r := e.needRealm(groupRegExp)
	if r == nil {
		return
	}
	src, err := r.reSource(o)
	if err != nil {
		e.fail(err)
		return
	}
	var flags uint32
	for i, get := range r.reFlags {
		v, err := get(o)
		if err != nil {
			e.fail(err)
			return
		}
		if v.ToBoolean() {
			flags |= 1 << i
		}
	}
	e.register(o)
	e.putTag(tagRegExp)
	e.writeStringValue(src)
	e.putUvarint(flags)
}

func (e *encoder) writeMap(o *goja.Object, depth int) {
	if !e.enter(depth) {
		return
	}
	r := e.needRealm(groupMap)
	if r == nil {
		return
	}
	// Copy the entries first, as the HTML algorithm does: getters run while
	// the values are written may change the Map, not what is written.
	base := len(r.entries)
	defer func() {
		clear(r.entries[base:])
		r.entries = r.entries[:base]
	}()
	if _, err := r.mapForEach(o, r.collect); err != nil {
		e.fail(err)
		return
	}
	n := (len(r.entries) - base) / 2
	if uint64(n) > maxVarint {
		e.reject("the Map is too large to be cloned.")
		return
	}
	e.register(o)
	e.putTagUvarint(tagMap, uint32(n))
	for i := 0; i < n && e.err == nil; i++ {
		e.writeValue(r.entries[base+2*i], depth+1)
		e.writeValue(r.entries[base+2*i+1], depth+1)
	}
}

func (e *encoder) writeSet(o *goja.Object, depth int) {
	if !e.enter(depth) {
		return
	}
	// A Set exports into a []goja.Value by walking its own storage in
	// insertion order; no JavaScript (and no @@iterator) is involved.
	var items []goja.Value
	if err := e.rt.ExportTo(o, &items); err != nil {
		e.fail(err)
		return
	}
	if uint64(len(items)) > maxVarint {
		e.reject("the Set is too large to be cloned.")
		return
	}
	e.register(o)
	e.putTagUvarint(tagSet, uint32(len(items)))
	for _, v := range items {
		if e.err != nil {
			return
		}
		e.writeValue(v, depth+1)
	}
}

func (e *encoder) writeError(o *goja.Object, depth int) {
	if !e.enter(depth) {
		return
	}
	r := e.needRealm(groupError)
	if r == nil {
		return
	}
	// The name is read with [[Get]] (a getter may run), as the HTML
	// algorithm says; the other fields only from own data properties.
	proto := byte(0)
	if name, ok := o.Get("name").(goja.String); ok {
		for i, n := range errorNames {
			if i > 0 && name.String() == n {
				proto = errorProtoTags[i]
			}
		}
	}
	msg, hasMsg := e.ownData(r, o, "message")
	if e.err != nil {
		return
	}
	if hasMsg {
		msg = msg.ToString() // may call a toString method
	}
	stack, hasStack := e.ownData(r, o, "stack")
	if _, isStr := stack.(goja.String); !isStr {
		hasStack = false
	}
	cause, hasCause := e.ownData(r, o, "cause")
	if e.err != nil {
		return
	}
	e.register(o)
	e.putTag(tagError)
	if proto != 0 {
		e.putTag(proto)
	}
	if hasMsg {
		e.putTag(errMessage)
		e.writeStringValue(msg)
	}
	if hasStack {
		e.putTag(errStack)
		e.writeStringValue(stack)
	}
	if hasCause {
		e.putTag(errCause)
		e.writeValue(cause, depth+1)
	}
	e.putTag(errEnd)
}

// ownData returns the value of o's own data property name, if it has one.
func (e *encoder) ownData(r *realm, o *goja.Object, name string) (goja.Value, bool) {
	d, err := r.ownDesc(goja.Undefined(), o, e.rt.ToValue(name))
	if err != nil {
		e.fail(err)
		return nil, false
	}
	desc, ok := d.(*goja.Object)
	if !ok {
		return nil, false
	}
	v := desc.Get("value")
	return v, v != nil
}

// writeWrapper writes a Boolean, Number or BigInt wrapper object; a Symbol
// wrapper is rejected.
func (e *encoder) writeWrapper(o *goja.Object) {
	switch x := o.Export().(type) {
	case bool:
		e.register(o)
		if x {
			e.putTag(tagTrueObject)
		} else {
			e.putTag(tagFalseObject)
		}
	case int64:
		e.register(o)
		e.putTagFloat(tagNumberObj, float64(x))
	case float64:
		e.register(o)
		e.putTagFloat(tagNumberObj, x)
	case *big.Int:
		e.register(o)
		e.writeBigInt(tagBigIntObj, x)
	default:
		e.fail(rejectObject(e.rt, o))
	}
}

// writeStringObject writes a String wrapper, reading its [[StringData]]
// with the intrinsic String.prototype.valueOf.
func (e *encoder) writeStringObject(o *goja.Object, valueOf goja.Callable) {
	v, err := valueOf(o)
	if err != nil {
		e.fail(err)
		return
	}
	e.register(o)
	e.putTag(tagStringObj)
	e.writeStringValue(v)
}

// writeBuffer writes an ArrayBuffer: by reference when it is shared or
// transferred, else its bytes.
func (e *encoder) writeBuffer(o *goja.Object) {
	if e.shared != nil && e.shared.IsShared(e.rt, o) {
		e.writeShared(o)
		return
	}
	if e.tl != nil {
		if i, ok := e.tl.index[o]; ok {
			e.register(o)
			e.putTagUvarint(tagTransferred, i)
			return
		}
	}
	ab, _ := o.Export().(goja.ArrayBuffer)
	if ab.Detached() {
		e.reject("a detached ArrayBuffer could not be cloned.")
		return
	}
	b := ab.Bytes()
	if uint64(len(b)) > maxVarint {
		e.reject("the ArrayBuffer is too large to be cloned.")
		return
	}
	n := uint32(len(b))
	head := 1 + uvarintLen(n)
	pad := padLen(len(e.buf) + head)
	if !e.room(head + pad + len(b)) {
		return
	}
	e.register(o)
	e.buf = appendUvarint(append(e.buf, tagArrayBuffer), n)
	for range pad {
		e.buf = append(e.buf, 0)
	}
	// One append: when it grows the buffer, it copies b straight into the
	// new memory instead of zeroing it first.
	e.buf = append(e.buf, b...)
}

func (e *encoder) writeShared(o *goja.Object) {
	tok, n, ref, err := e.shared.Share(e.rt, o)
	if err != nil {
		e.fail(err)
		return
	}
	e.refs = append(e.refs, ref)
	if n < 0 || uint64(n) > maxVarint {
		e.reject("the SharedArrayBuffer is too large to be cloned.")
		return
	}
	idx := len(e.sab)
	if e.tl != nil {
		idx += len(e.tl.buffers) + len(e.tl.portToks)
	}
	// The entry joins the manifest in front of the value when the walk
	// ends; count it now so that the cap holds while writing.
	e.sab = append(e.sab, sharedEntry{tok: tok, length: n})
	e.hdrLen = len(e.appendHeader(nil, e.sab))
	if !e.room(0) {
		return
	}
	e.register(o)
	e.putTagUvarint(tagShared, uint32(idx))
}

// writeView writes a typed array or a DataView: its kind, its buffer (which
// keeps its identity: views sharing a buffer share it after the clone), its
// byte offset and its byte length.
func (e *encoder) writeView(o *goja.Object, dataView bool, depth int) {
	r := e.needRealm(groupViews)
	if r == nil {
		return
	}
	getBuffer, getOffset, getLength := r.taBuffer, r.taByteOffset, r.taByteLength
	if dataView {
		getBuffer, getOffset, getLength = r.dvBuffer, r.dvByteOffset, r.dvByteLength
	}
	bv, err := getBuffer(o)
	if err != nil {
		e.fail(err)
		return
	}
	buf, _ := bv.(*goja.Object)
	if buf == nil || !isArrayBuffer(buf) {
		e.reject("a view whose buffer is not an ArrayBuffer could not be cloned.")
		return
	}
	// Check detachment before anything reads the view: goja's Export of a
	// view over a detached buffer hands out a slice over freed memory.
	ab, _ := buf.Export().(goja.ArrayBuffer)
	if ab.Detached() {
		e.reject("a view of a detached ArrayBuffer could not be cloned.")
		return
	}
	kind := byte(viewDataView)
	if !dataView {
		kind = typedKind(o)
		if kind == viewUint8 {
			if tag, err := r.taTag(o); err == nil && tag.String() == "Uint8ClampedArray" {
				kind = viewUint8Clamped
			}
		}
		if kind == 0 {
			e.fail(rejectObject(e.rt, o))
			return
		}
	}
	ov, err := getOffset(o)
	if err != nil {
		e.fail(err)
		return
	}
	lv, err := getLength(o)
	if err != nil {
		e.fail(err)
		return
	}
	off, length := ov.ToInteger(), lv.ToInteger()
	size := int64(viewKinds[viewIndex(kind)].size)
	if off < 0 || length < 0 || off > int64(len(ab.Bytes()))-length || off%size != 0 || length%size != 0 ||
		off > maxVarint || length > maxVarint {
		e.reject("a view out of its buffer's bounds could not be cloned.")
		return
	}
	e.register(o)
	e.putTag(tagView)
	e.putTag(kind)
	e.writeObject(buf, depth)
	e.putUvarint(uint32(off))
	e.putUvarint(uint32(length))
}

// typedKind returns the view kind of a typed array from the Go type of its
// elements (Uint8 and Uint8Clamped both give viewUint8), or 0.
func typedKind(o *goja.Object) byte {
	switch o.ExportType() {
	case reflect.TypeFor[[]int8]():
		return viewInt8
	case reflect.TypeFor[[]uint8]():
		return viewUint8
	case reflect.TypeFor[[]int16]():
		return viewInt16
	case reflect.TypeFor[[]uint16]():
		return viewUint16
	case reflect.TypeFor[[]int32]():
		return viewInt32
	case reflect.TypeFor[[]uint32]():
		return viewUint32
	case reflect.TypeFor[[]float32]():
		return viewFloat32
	case reflect.TypeFor[[]float64]():
		return viewFloat64
	case reflect.TypeFor[[]int64]():
		return viewBigInt64
	case reflect.TypeFor[[]uint64]():
		return viewBigUint64
	}
	return 0
}
