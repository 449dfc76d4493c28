package clone

import (
	"fmt"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// Host kinds.
//
// Platform objects that the HTML algorithm calls serializable (Blob, File,
// DOMException) are defined by layers above clone (the Node layer), which
// clone cannot import. Such a layer teaches a realm its kinds with
// SetHostKinds: each kind names the prototype its objects inherit from, a
// Write function that reads an object's state and a Read function that
// builds one from it in the receiving realm. A kind's state is a short list
// of primitive fields (strings, numbers, booleans, BigInts, undefined, null)
// and a byte string; clone writes it under the tag 'H' with the kind's name
// (see doc.go), so a kind unknown to the receiving realm is refused there
// with a DataCloneError naming it.
//
// Host kinds are per realm: a realm of the Node layer has Blob, a C host's
// main context has none, and a Blob posted there fails to deserialize.

// A HostKind is one kind of platform object a realm can clone.
type HostKind struct {
	// Name is the kind's name on the wire ("Blob"): 1 to 64 ASCII bytes.
	Name string

	// Proto is the prototype the kind's objects inherit from. Serialize
	// asks Write about an object that has Proto on its prototype chain and
	// is neither a plain {} nor an array; the nearest such prototype's kind
	// is asked first. A kind whose class the realm has not made yet has a
	// nil Proto (and no Write): the realm reads it (Read may make the
	// class) but has no such objects to write.
	Proto *goja.Object

	// Write returns the state of o. ok false says o is not one of the
	// kind's objects after all (Object.create(Blob.prototype)): Serialize
	// goes on up the chain and, finding no kind, clones o as it would
	// without host kinds. fields must be primitives. Write runs on the
	// goroutine that owns the realm; it may call JavaScript, and an
	// exception it throws (by panic, as goja host functions do) fails
	// Serialize with that exception.
	Write func(o *goja.Object) (fields []goja.Value, data []byte, ok bool)

	// Read builds an object of the kind from its state in the receiving
	// realm. data is only valid during the call: copy what is kept. An
	// error fails Deserialize (a *DataCloneError for state the kind
	// refuses).
	Read func(fields []goja.Value, data []byte) (*goja.Object, error)
}

// hostKinds are a realm's kinds, by prototype and by name; or, until they are first needed, the function that
// gives them (SetReadHostKinds: kinds without prototypes, which only Deserialize needs).
type hostKinds struct {
	byProto map[*goja.Object]*HostKind
	byName  map[string]*HostKind
	pending func() []HostKind
}

var hostKey = realmdata.NewKey[*hostKinds]("clone.hostKinds")

// maxHostName bounds a host kind's name.
const maxHostName = 64

// SetHostKinds gives rt the host kinds (replacing any it had; none removes
// them). The state is dropped with the realm (realmdata.Drop). It panics
// for a kind without a name, prototype, Write or Read, or with a name
// given twice: those are programming errors.
func SetHostKinds(rt *goja.Runtime, kinds ...HostKind) {
	if len(kinds) == 0 {
		hostKey.Delete(rt)
		return
	}
	hostKey.Set(rt, newHostKinds(kinds))
}

// SetReadHostKinds gives rt host kinds it can only read (replacing any it
// had): kinds none of which has a Proto yet, whose classes the realm has not
// made, so that it has no such objects to write. They are asked for the
// first time Deserialize meets a host object, so a realm that never
// receives one never makes them; Serialize clones as a realm without host
// kinds does. kinds runs on the goroutine that owns rt, once (until the
// next SetHostKinds or SetReadHostKinds); it panics as SetHostKinds does
// for an invalid kind, or for one with a Proto.
func SetReadHostKinds(rt *goja.Runtime, kinds func() []HostKind) {
	hostKey.Set(rt, &hostKinds{pending: kinds})
}

// newHostKinds indexes kinds, or panics for an invalid one.
func newHostKinds(kinds []HostKind) *hostKinds {
	h := &hostKinds{byProto: make(map[*goja.Object]*HostKind), byName: make(map[string]*HostKind)}
	for i := range kinds {
		k := kinds[i]
		if k.Name == "" || len(k.Name) > maxHostName || !isASCII(k.Name) || (k.Proto != nil && k.Write == nil) || k.Read == nil {
			panic(fmt.Sprintf("clone: invalid host kind %q", k.Name))
		}
		if _, dup := h.byName[k.Name]; dup {
			panic("clone: host kind " + k.Name + " given twice")
		}
		h.byName[k.Name] = &k
		if k.Proto != nil {
			h.byProto[k.Proto] = &k
		}
	}
	return h
}

// ready makes the kinds of SetReadHostKinds, the first time they are needed.
func (h *hostKinds) ready() *hostKinds {
	if h.pending != nil {
		made := newHostKinds(h.pending())
		if len(made.byProto) > 0 {
			panic("clone: a kind given to SetReadHostKinds has a prototype")
		}
		h.byProto, h.byName, h.pending = made.byProto, made.byName, nil
	}
	return h
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// writeHost writes o as a host object when one of the realm's kinds claims
// it, and reports whether it did (or failed trying).
func (e *encoder) writeHost(o *goja.Object) bool {
	for p := o.Prototype(); p != nil; p = p.Prototype() {
		k := e.hosts.byProto[p]
		if k == nil {
			continue
		}
		fields, data, ok := k.Write(o)
		if !ok {
			continue
		}
		for _, f := range fields {
			if _, isObj := f.(*goja.Object); isObj {
				e.fail(fmt.Errorf("jsworker: structured clone: host kind %s wrote an object field", k.Name))
				return true
			}
		}
		e.register(o)
		e.putTag(tagHost)
		e.writeASCII(k.Name)
		e.putUvarint(uint32(len(fields)))
		for _, f := range fields {
			e.writeValue(f, 0)
		}
		if len(data) > maxVarint {
			e.reject(k.Name + " objects larger than 4 GiB could not be cloned.")
			return true
		}
		e.putUvarint(uint32(len(data)))
		if e.room(len(data)) {
			e.buf = append(e.buf, data...)
		}
		e.host = true
		return true
	}
	return false
}

// readHost reads a host object ('H'): its kind's name, its fields and its
// bytes, then has the receiving realm's kind build it.
func (d *decoder) readHost() (goja.Value, error) {
	if d.version < hostVersion {
		d.pos--
		return nil, d.malformed("tag 'H' (host object) in a version-%d frame", d.version)
	}
	id := len(d.objs)
	d.objs = append(d.objs, unbuilt) // its fields are primitives: nothing refers to it before it is built
	tag, err := d.readByte()
	if err != nil {
		return nil, err
	}
	if tag != tagOneByteStr {
		d.pos--
		return nil, d.malformed("a host object's kind must be a one-byte string")
	}
	nv, err := d.readOneByte()
	if err != nil {
		return nil, err
	}
	name := nv.String()
	if name == "" || len(name) > maxHostName || !isASCII(name) {
		return nil, d.malformed("bad host object kind %q", name)
	}
	n, err := d.readLen(1)
	if err != nil {
		return nil, err
	}
	fields := make([]goja.Value, n)
	for i := range fields {
		switch d.peek() {
		case tagUndefined, tagNull, tagTrue, tagFalse, tagInt32, tagDouble, tagBigInt, tagOneByteStr, tagTwoByteStr:
		default:
			return nil, d.malformed("a host object's field must be a primitive, not tag 0x%02x", d.peek())
		}
		if fields[i], err = d.readValue(0); err != nil {
			return nil, err
		}
	}
	size, err := d.readLen(1)
	if err != nil {
		return nil, err
	}
	data := d.data[d.pos : d.pos+size]
	d.pos += size
	var k *HostKind
	if h, ok := hostKey.Get(d.rt); ok {
		k = h.ready().byName[name]
	}
	if k == nil {
		return nil, &DataCloneError{Message: name + " objects cannot be deserialized in this realm (it has no " + name + " class)."}
	}
	o, err := k.Read(fields, data)
	if err != nil {
		return nil, err
	}
	d.objs[id] = o
	return o, nil
}

var dataCloneErrorKey = realmdata.NewKey[func(msg string) *goja.Object]("clone.dataCloneError")

// SetDataCloneError makes JSError build the DataCloneErrors of rt with mk
// (the Node layer's DOMException) instead of an Error named
// "DataCloneError". mk runs on rt's goroutine and may throw; JSError then
// falls back to the Error. A nil mk removes it.
func SetDataCloneError(rt *goja.Runtime, mk func(msg string) *goja.Object) {
	if mk == nil {
		dataCloneErrorKey.Delete(rt)
		return
	}
	dataCloneErrorKey.Set(rt, mk)
}

// realmDataCloneError returns the realm's own DataCloneError for msg, or nil.
func realmDataCloneError(rt *goja.Runtime, msg string) *goja.Object {
	mk, ok := dataCloneErrorKey.Get(rt)
	if !ok {
		return nil
	}
	var o *goja.Object
	if ex := rt.Try(func() { o = mk(msg) }); ex != nil {
		return nil
	}
	return o
}
