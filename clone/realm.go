package clone

import (
	"errors"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
	"github.com/jsworker/jsworker/internal/realmdata"
)

// Per-realm intrinsics.
//
// Some kinds can only be read or built through the realm's builtins: a Map's
// entries (Map.prototype.forEach walks [[MapData]] directly, unlike the
// user-patchable @@iterator), a typed array's buffer and offsets (the
// %TypedArray%.prototype getters read internal slots and cannot be shadowed
// by own properties), and the constructors Deserialize builds Maps, Sets,
// RegExps, Errors, Dates and views with. They are captured from the realm's
// globals the first time a Serialize or Deserialize call needs them, one
// group at a time, and kept for the realm's life.
//
// Capturing everything up front would cost every realm ~0.25 ms and ~115 KiB
// (it instantiates every builtin goja creates lazily), which is more than a
// whole idle worker. The price of capturing late is that a script that
// replaces, say, Map.prototype.forEach before the realm's first Map clone is
// seen through; captured values are therefore checked to be goja's native
// functions (a script cannot make one of those, only move builtins around),
// and a realm whose builtins are missing or replaced by script functions
// fails closed with an error instead of running them. Once captured, later
// tampering has no effect.
//
// The captured set is kept in internal/realmdata's side table, keyed by the
// runtime, where no script can see or reach it. It references the realm,
// so it keeps the runtime alive until the realm's owner releases it: core
// does (realmdata.Drop) for its workers and host realms; a program that
// clones values of its own goja.New() runtime calls ReleaseRealm when done
// with it.

type group uint8

const (
	groupMap group = iota
	groupSet
	groupRegExp
	groupError
	groupDate
	groupViews
	groupWrappers
	numGroups
)

var groupNames = [numGroups]string{"Map", "Set", "RegExp", "Error", "Date", "typed array and DataView", "String and Number"}

// errorNames are the error constructors, in the order of realm.errorCtors.
// Index 0 is Error itself.
var errorNames = [...]string{"Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"}

// errorProtoTags are the wire fields naming each prototype but Error's.
var errorProtoTags = [...]byte{0, errEvalProto, errRangeProto, errReferenceProto, errSyntaxProto, errTypeProto, errURIProto}

type realm struct {
	rt     *goja.Runtime
	loaded [numGroups]bool
	err    [numGroups]error

	mapCtor    *goja.Object
	mapForEach goja.Callable
	mapSet     goja.Callable
	setCtor    *goja.Object
	setAdd     goja.Callable

	regexpCtor *goja.Object
	reSource   goja.Callable
	reFlags    [6]goja.Callable // global, ignoreCase, multiline, sticky, unicode, dotAll: the flag bits 0..5

	errorCtors [len(errorNames)]*goja.Object
	ownDesc    goja.Callable // Object.getOwnPropertyDescriptor

	dateCtor *goja.Object

	engineViews bool // CaptureTypedArrays: take the view constructors from the engine, not the globals

	viewCtors    [len(viewKinds)]*goja.Object
	taBuffer     goja.Callable
	taByteOffset goja.Callable
	taByteLength goja.Callable
	taTag        goja.Callable
	dvBuffer     goja.Callable
	dvByteOffset goja.Callable
	dvByteLength goja.Callable

	stringValueOf goja.Callable
	numberValueOf goja.Callable

	// collect is a Go function given to Map.prototype.forEach; it appends
	// key and value to entries.
	collect goja.Value
	entries []goja.Value
}

// realmKey finds a runtime's realm record.
var realmKey = realmdata.NewKey[*realm]("clone.realm")

// realmOf returns the realm record of rt, making it if needed.
func realmOf(rt *goja.Runtime) *realm {
	if r, ok := realmKey.Get(rt); ok {
		return r
	}
	r := &realm{rt: rt}
	realmKey.Set(rt, r)
	return r
}

// ReleaseRealm forgets the builtins structured clone captured from rt (see
// CaptureBuiltins), so that the runtime can be garbage-collected once the
// caller lets go of it. Call it when the realm ends, on the goroutine that
// owns rt, unless the realm belongs to core (core releases its realms
// itself). A later clone in rt captures again, from what its globals hold
// then. Releasing a runtime with nothing captured does nothing.
func ReleaseRealm(rt *goja.Runtime) { realmKey.Delete(rt) }

// need captures group g if that has not been done, and returns the error
// that prevents using it, if any.
func (r *realm) need(g group) error {
	if !r.loaded[g] {
		r.loaded[g] = true
		var err error
		if ex := r.rt.Try(func() { err = r.capture(g) }); ex != nil {
			err = ex
		}
		if err != nil {
			r.err[g] = errors.New("jsworker: structured clone cannot use the realm's " + groupNames[g] +
				" builtins (missing, or replaced by script before the first clone): " + err.Error())
		}
	}
	return r.err[g]
}

// capture reads group g's intrinsics from the realm's globals.
func (r *realm) capture(g group) error {
	c := capturer{rt: r.rt}
	switch g {
	case groupMap:
		r.mapCtor = c.global("Map")
		proto := c.object(r.mapCtor, "prototype")
		r.mapForEach = c.method(proto, "forEach")
		r.mapSet = c.method(proto, "set")
		r.collect = r.rt.ToValue(func(call goja.FunctionCall) goja.Value {
			r.entries = append(r.entries, call.Argument(1), call.Argument(0))
			return goja.Undefined()
		})
	case groupSet:
		r.setCtor = c.global("Set")
		r.setAdd = c.method(c.object(r.setCtor, "prototype"), "add")
	case groupRegExp:
		r.regexpCtor = c.global("RegExp")
		proto := c.object(r.regexpCtor, "prototype")
		r.reSource = c.getter(proto, "source")
		for i, name := range [...]string{"global", "ignoreCase", "multiline", "sticky", "unicode", "dotAll"} {
			r.reFlags[i] = c.getter(proto, name)
		}
	case groupError:
		for i, name := range errorNames {
			r.errorCtors[i] = c.global(name)
		}
		r.ownDesc = c.ownDesc()
	case groupDate:
		r.dateCtor = c.global("Date")
	case groupViews:
		for i, k := range viewKinds {
			if r.engineViews {
				r.viewCtors[i] = c.engine(k.name)
			} else {
				r.viewCtors[i] = c.global(k.name)
			}
		}
		ta := c.object(r.viewCtors[0], "prototype")
		if ta != nil {
			ta = ta.Prototype() // %TypedArray%.prototype
		}
		r.taBuffer = c.getter(ta, "buffer")
		r.taByteOffset = c.getter(ta, "byteOffset")
		r.taByteLength = c.getter(ta, "byteLength")
		r.taTag = c.getterValue(ta, goja.SymToStringTag)
		dv := c.object(r.viewCtors[len(viewKinds)-1], "prototype")
		r.dvBuffer = c.getter(dv, "buffer")
		r.dvByteOffset = c.getter(dv, "byteOffset")
		r.dvByteLength = c.getter(dv, "byteLength")
	case groupWrappers:
		r.stringValueOf = c.method(c.object(c.global("String"), "prototype"), "valueOf")
		r.numberValueOf = c.method(c.object(c.global("Number"), "prototype"), "valueOf")
	}
	return c.err
}

// A capturer reads builtins, remembering the first failure.
type capturer struct {
	rt   *goja.Runtime
	desc goja.Callable
	err  error
}

func (c *capturer) fail(what string) {
	if c.err == nil {
		c.err = errors.New(what + " is not one of the engine's builtins")
	}
}

// native checks that v is one of goja's own function objects and returns it.
func (c *capturer) native(v goja.Value, what string) *goja.Object {
	o, ok := v.(*goja.Object)
	if !ok || o == nil || !gojainternal.IsNativeFunction(o) {
		c.fail(what)
		return nil
	}
	return o
}

func (c *capturer) global(name string) *goja.Object {
	return c.native(c.rt.GlobalObject().Get(name), name)
}

// engine reads the engine's own constructor name, whatever the global holds now (see CaptureTypedArrays).
func (c *capturer) engine(name string) *goja.Object {
	v, ok := gojainternal.TemplateValue(c.rt, c.rt.GlobalObject(), name)
	if !ok {
		return c.global(name)
	}
	return c.native(v, name)
}

func (c *capturer) object(o *goja.Object, name string) *goja.Object {
	if o == nil {
		return nil
	}
	p, _ := o.Get(name).(*goja.Object)
	if p == nil {
		c.fail(name)
	}
	return p
}

func (c *capturer) callable(o *goja.Object) goja.Callable {
	if o == nil {
		return nil
	}
	f, _ := goja.AssertFunction(o)
	return f
}

func (c *capturer) method(proto *goja.Object, name string) goja.Callable {
	if proto == nil {
		return nil
	}
	return c.callable(c.native(proto.Get(name), name))
}

func (c *capturer) ownDesc() goja.Callable {
	if c.desc == nil {
		c.desc = c.callable(c.native(c.global("Object").Get("getOwnPropertyDescriptor"), "Object.getOwnPropertyDescriptor"))
	}
	return c.desc
}

func (c *capturer) getter(proto *goja.Object, name string) goja.Callable {
	return c.getterValue(proto, c.rt.ToValue(name))
}

func (c *capturer) getterValue(proto *goja.Object, key goja.Value) goja.Callable {
	desc := c.ownDesc()
	if proto == nil || desc == nil {
		c.fail("a getter")
		return nil
	}
	d, err := desc(goja.Undefined(), proto, key)
	if err != nil {
		panic(err)
	}
	o, _ := d.(*goja.Object)
	if o == nil {
		c.fail("the getter " + key.String())
		return nil
	}
	return c.callable(c.native(o.Get("get"), "the getter "+key.String()))
}

// CaptureBuiltins captures now every builtin structured clone may need from
// rt (see the package documentation), so that no script run afterwards can
// change how rt's values are cloned. Without it each group is captured the
// first time a clone needs it. It costs about 0.25 ms and 115 KiB per realm,
// because it instantiates builtins goja otherwise creates lazily.
//
// It returns the first group that could not be captured (missing, or
// replaced by script functions), and must be called on the goroutine that
// owns rt.
func CaptureBuiltins(rt *goja.Runtime) (err error) {
	if err := gojainternal.Kinds(); err != nil {
		return err
	}
	if ex := rt.Try(func() {
		r := realmOf(rt)
		for g := range numGroups {
			if err = r.need(g); err != nil {
				return
			}
		}
	}); ex != nil {
		return ex
	}
	return err
}

// CaptureTypedArrays makes structured clone take the typed-array and DataView constructors from the engine itself
// (goja's own constructors, whatever rt's globals hold then) when it first needs them, for a host that guards or
// replaces those globals (core's allocation guard): clone keeps using the engine's originals, and a realm that
// never clones a view pays nothing. Where goja's templates cannot be read (gojainternal.LazyGuard), it captures the
// constructors now, from the globals. It must be called on the goroutine that owns rt, before any script runs.
func CaptureTypedArrays(rt *goja.Runtime) (err error) {
	if err := gojainternal.Kinds(); err != nil {
		return err
	}
	if gojainternal.LazyGuard() == nil {
		realmOf(rt).engineViews = true
		return nil
	}
	if ex := rt.Try(func() { err = realmOf(rt).need(groupViews) }); ex != nil {
		return ex
	}
	return err
}
