package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// Lazy properties: named properties of an object that cost nothing until a script (or Go) first touches them.
//
// goja builds its own globals and builtin prototypes from objectTemplates (see lazyguard.go): a templated object
// asks its template for a property's value the first time the name is looked up, changed, deleted or enumerated
// with its value, and lists the template's names without making anything. [DefineLazy] uses the same machinery for
// properties of ours: it derives from the object's current template (an empty one for an ordinary object, which it
// first turns into a templated object holding the same state) a template that also has the new names, each made by
// a [LazyFactory], and installs it on the object; the names are appended to the object's own name list, so
// Object.getOwnPropertyNames keeps the order eager definitions would have given. Derived templates are process-wide
// and cached by (template, factory, names): every realm that defines the same lazy properties in the same order
// shares them, and a realm pays only its own name list.
//
// A factory runs where goja materializes the property: inside a property lookup, an assignment, a delete, a
// defineProperty, a for-in or Object.keys over the object (which make every property), in the middle of a goja
// instruction. goja's objects already run JavaScript at all of those points (a Proxy's traps do), so a factory may
// call JavaScript; what it makes is stored by goja only if it returns. A factory reached again for the same
// property while it runs (re-entrantly) throws a TypeError instead of recursing.
//
// Everything is located by reflect once and verified on a private runtime against the public API ([LazyProps]);
// [DefineLazy] answers false, changing nothing, when the probe failed or the object is not one it can extend: the
// caller then defines the property eagerly.

// A Prop is a property a [LazyFactory] makes: a data property (Value and its attributes) or, if Accessor, an
// accessor (Getter and Setter, either nil).
type Prop struct {
	Value                              goja.Value
	Getter, Setter                     goja.Value
	Accessor                           bool
	Writable, Enumerable, Configurable bool
}

// A LazyFactory makes the lazy properties of every realm that uses it. Make them once, at package level.
type LazyFactory struct {
	make  func(rt *goja.Runtime, name string) Prop
	after func(rt *goja.Runtime, name string, v goja.Value) // an AfterMake hook's: nil for a factory of properties
}

// NewLazyFactory returns a factory whose properties are made by make(rt, name). make runs on rt's goroutine; it may
// throw (panic with a goja value, as native functions do): the access that asked for the property throws, nothing
// is stored, and the next access asks again.
func NewLazyFactory(make func(rt *goja.Runtime, name string) Prop) *LazyFactory {
	return &LazyFactory{make: make}
}

var lp struct {
	once sync.Once
	err  error

	plain     reflect.Type // *goja.baseObject: what {} and a class's prototype are
	templated reflect.Type // *goja.templatedObject
	// The type words (itabs) of goja.Object.self holding a plain and a templated object: defineLazy tells the two
	// kinds apart and makes a plain object templated by these words, without reflect (every realm defines lazy
	// properties a few dozen times; reflect's Set of an interface checks the method set each time: r21).
	plainTab, templatedTab unsafe.Pointer
	baseOff                uintptr // offset of the baseObject inside a templatedObject
	namesOff               uintptr // templatedObject's propNames
	tmplOff                uintptr // templatedObject's tmpl
	valOff                 uintptr // templatedObject's values
	tmplNames              uintptr // objectTemplate.propNames
	emptyTmpl              unsafe.Pointer
	mu                     sync.Mutex
	derived                map[deriveKey]unsafe.Pointer // guarded by mu
	parents                map[unsafe.Pointer]deriveKey // guarded by mu: what each derived template was derived from
	makingMu               sync.Mutex
	making                 map[makingKey]struct{} // guarded by makingMu: properties being made now
}

type deriveKey struct {
	base  unsafe.Pointer
	f     *LazyFactory
	names string
}

type makingKey struct {
	rt   *goja.Runtime
	f    *LazyFactory
	name string
}

// LazyProps locates, once per process, what [DefineLazy] needs, verifies it on a private runtime, and returns nil if
// DefineLazy works, or the error that makes it answer false.
func LazyProps() error {
	if err := simulatedErr(); err != nil {
		return err
	}
	lp.once.Do(func() {
		if err := LazyGuard(); err != nil {
			lp.err = err
			return
		}
		if err := loadProps(); err != nil {
			lp.err = err
			return
		}
		if err := locateLazyProps(); err != nil {
			lp.err = probeError("lazy properties", err)
			return
		}
		if err := verifyLazyProps(); err != nil {
			lp.plain = nil
			lp.err = probeError("lazy properties (verification)", err)
		}
	})
	return lp.err
}

func locateLazyProps() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	rt := goja.New()
	plain, err := sample(rt, `(class {}).prototype`)
	if err != nil {
		return err
	}
	if pt := implType(rt.NewObject()); implType(plain) != pt || pt.Kind() != reflect.Pointer || pt.Elem().Kind() != reflect.Struct {
		return errors.New("a class's prototype is not an ordinary object")
	}
	pt := implType(plain)
	tt := implType(rt.GlobalObject())
	if tt == nil || tt.Kind() != reflect.Pointer || tt.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("the global object is a %v", tt)
	}
	l, err := layoutOf(tt)
	if err != nil {
		return err
	}
	lp.tmplOff, lp.valOff = l.tmplOff, l.valOff
	bf, ok := tt.Elem().FieldByName("baseObject")
	if !ok || len(bf.Index) != 1 || !bf.Anonymous || bf.Type != pt.Elem() {
		return fmt.Errorf("%v does not embed %v", tt, pt)
	}
	lp.baseOff = bf.Offset
	if lp.namesOff, err = fieldOffset(tt.Elem(), "propNames", func(t reflect.Type) bool {
		return t == reflect.TypeFor[[]unistring.String]()
	}); err != nil {
		return err
	}
	if lp.namesOff-lp.baseOff != props.names {
		return errors.New("propNames is not where the plain object's reader has it")
	}
	if lp.tmplNames, err = fieldOffset(lazy.tmplType, "propNames", func(t reflect.Type) bool {
		return t == reflect.TypeFor[[]unistring.String]()
	}); err != nil {
		return err
	}
	empty := reflect.New(lazy.tmplType)
	reflect.NewAt(lazy.propsType, unsafe.Add(empty.UnsafePointer(), lazy.propsOff)).Elem().Set(reflect.MakeMap(lazy.propsType))
	lp.emptyTmpl = empty.UnsafePointer()
	lp.plainTab, lp.templatedTab = selfOf(plain).tab, selfOf(rt.GlobalObject()).tab
	if lp.plainTab == nil || lp.templatedTab == nil || lp.plainTab == lp.templatedTab {
		return errors.New("the type words of a plain and a templated object are not two")
	}
	lp.plain, lp.templated = pt, tt
	return nil
}

// DefineLazy adds to o the own properties names, each made by f(rt, name) when first touched, after o's existing
// properties in Object.getOwnPropertyNames. o must be an ordinary object (what {} and a class's prototype are) or
// an object goja builds from a template (the global object), and have none of the names yet. It answers false,
// changing nothing, otherwise or when the probe failed. o keeps its identity, prototype, extensibility and its other
// properties. Only on the goroutine that owns o's runtime.
func DefineLazy(o *goja.Object, f *LazyFactory, names ...string) bool {
	return LazyProps() == nil && defineLazy(o, f, names)
}

func defineLazy(o *goja.Object, f *LazyFactory, names []string) bool {
	if o == nil || f == nil || len(names) == 0 {
		return false
	}
	s := selfOf(o)
	templated := s.tab == lp.templatedTab
	if !templated && s.tab != lp.plainTab {
		// Another type word: another kind of object, unless the runtime keeps more than one word for a type.
		switch implType(o) {
		case lp.templated:
			templated = true
		case lp.plain:
		default:
			return false
		}
	}
	data := s.data
	cur, values := lp.emptyTmpl, *(*map[unistring.String]goja.Value)(unsafe.Add(data, props.values))
	if templated {
		cur = *(*unsafe.Pointer)(unsafe.Add(data, lp.tmplOff))
		values = *(*map[unistring.String]goja.Value)(unsafe.Add(data, lp.valOff))
	}
	curProps := reflect.NewAt(lazy.propsType, unsafe.Add(cur, lazy.propsOff)).Elem()
	// The checks allocate nothing per name (every realm defines its lazy properties: o20): one reflect key reused,
	// duplicates found by looking back (a few dozen names at most).
	kv := reflect.New(lazy.propsType.Key()).Elem()
	tmplHas := curProps.Len() > 0
	for i, n := range names {
		k := unistring.NewFromString(n)
		if _, ok := values[k]; ok || n == "" || (n[0] >= '0' && n[0] <= '9') || slices.Contains(names[:i], n) {
			return false
		}
		if tmplHas {
			kv.SetString(string(k))
			if curProps.MapIndex(kv).IsValid() {
				return false
			}
		}
	}
	tmpl := derive(cur, f, names)
	if !templated {
		// Turn o into a templated object with the same state: a copy of its baseObject, o's template the derived one.
		nv := reflect.New(lp.templated.Elem())
		np := nv.UnsafePointer()
		base := lp.plain.Elem()
		reflect.NewAt(base, unsafe.Add(np, lp.baseOff)).Elem().Set(reflect.NewAt(base, data).Elem())
		*(*unsafe.Pointer)(unsafe.Add(np, lp.tmplOff)) = tmpl
		// The object's own names: its existing ones (never nil once it has any), then the new ones.
		nm := (*[]unistring.String)(unsafe.Add(np, lp.namesOff))
		if len(*nm) > 0 || f.after != nil {
			*nm = appendNames(append(make([]unistring.String, 0, len(*nm)+len(names)), *nm...), names)
		} else {
			*nm = nil // no own names yet: the derived template's (its names are names), as goja lists them
		}
		s.tab, s.data = lp.templatedTab, np // o.self = nv (its type word is the templated object's)
		return true
	}
	nm := (*[]unistring.String)(unsafe.Add(data, lp.namesOff))
	// Not listed yet (nil): goja lists the template's names, and the derived template's are cur's and then names
	// (derive), so the object keeps no list of its own — it would copy the whole template's (a kilobyte and more
	// for the global object). Listed already: names after the object's own.
	if *nm != nil || f.after != nil {
		if *nm == nil {
			tn := *(*[]unistring.String)(unsafe.Add(cur, lp.tmplNames))
			*nm = append(make([]unistring.String, 0, len(tn)+len(names)), tn...)
		}
		*nm = appendNames(*nm, names)
	}
	*(*unsafe.Pointer)(unsafe.Add(data, lp.tmplOff)) = tmpl
	return true
}

func appendNames(dst []unistring.String, names []string) []unistring.String {
	dst = slices.Grow(dst, len(names))
	for _, n := range names {
		dst = append(dst, unistring.NewFromString(n))
	}
	return dst
}

// derive returns the template that is base with names added, made by f (cached process-wide).
func derive(base unsafe.Pointer, f *LazyFactory, names []string) unsafe.Pointer {
	// The key's names joined in a buffer on the stack for the lookup (every realm looks up its templates: o20), a
	// string of their own only for a new entry.
	var buf [512]byte
	b := buf[:0]
	for i, n := range names {
		if i > 0 {
			b = append(b, 0)
		}
		b = append(b, n...)
	}
	lp.mu.Lock()
	defer lp.mu.Unlock()
	if t, ok := lp.derived[deriveKey{base, f, unsafe.String(unsafe.SliceData(b), len(b))}]; ok {
		return t
	}
	key := deriveKey{base, f, string(b)}
	d := reflect.New(lazy.tmplType)
	d.Elem().Set(reflect.NewAt(lazy.tmplType, base).Elem())
	src := reflect.NewAt(lazy.propsType, unsafe.Add(base, lazy.propsOff)).Elem()
	m := reflect.MakeMapWithSize(lazy.propsType, src.Len()+len(names))
	for it := src.MapRange(); it.Next(); {
		m.SetMapIndex(it.Key(), it.Value())
	}
	for _, n := range names {
		n := n
		k := reflect.ValueOf(unistring.NewFromString(n))
		fn := func(rt *goja.Runtime) goja.Value { return f.materialize(rt, n) }
		if f.after != nil { // an AfterMake hook: the base's own factory, then the hook
			orig := src.MapIndex(k).Convert(reflect.TypeFor[func(*goja.Runtime) goja.Value]()).Interface().(func(*goja.Runtime) goja.Value)
			fn = func(rt *goja.Runtime) goja.Value {
				v := orig(rt)
				f.after(rt, n, unwrapProp(v))
				return v
			}
		}
		m.SetMapIndex(k, reflect.ValueOf(fn).Convert(lazy.factoryType))
	}
	reflect.NewAt(lazy.propsType, unsafe.Add(d.UnsafePointer(), lazy.propsOff)).Elem().Set(m)
	if f.after == nil {
		pn := (*[]unistring.String)(unsafe.Add(d.UnsafePointer(), lp.tmplNames))
		*pn = appendNames(append([]unistring.String(nil), *pn...), names)
	}
	if lp.derived == nil {
		lp.derived = make(map[deriveKey]unsafe.Pointer)
	}
	lp.derived[key] = d.UnsafePointer()
	if lp.parents == nil {
		lp.parents = make(map[unsafe.Pointer]deriveKey)
	}
	lp.parents[d.UnsafePointer()] = key
	return d.UnsafePointer()
}

// rebaseLazy returns the template that adds to to the lazy properties cur adds to from (cur: from, or derived from
// it by derive, any number of times); false if cur is neither. For a lazyguard Template installed after lazy
// properties were defined.
func rebaseLazy(cur, from, to unsafe.Pointer) (unsafe.Pointer, bool) {
	if cur == from || cur == to {
		return to, true
	}
	lp.mu.Lock()
	key, ok := lp.parents[cur]
	lp.mu.Unlock()
	if !ok {
		return nil, false
	}
	base, ok := rebaseLazy(key.base, from, to)
	if !ok {
		return nil, false
	}
	return derive(base, key.f, strings.Split(key.names, "\x00")), true
}

// materialize makes the property name of rt with f, in the form goja keeps in an object's values: the value itself
// for a writable, enumerable, configurable data property, else goja's property record. It is the template factory
// of every lazy property.
func (f *LazyFactory) materialize(rt *goja.Runtime, name string) goja.Value {
	key := makingKey{rt, f, name}
	lp.makingMu.Lock()
	_, busy := lp.making[key]
	if !busy {
		if lp.making == nil {
			lp.making = make(map[makingKey]struct{})
		}
		lp.making[key] = struct{}{}
	}
	lp.makingMu.Unlock()
	if busy {
		panic(rt.NewTypeError("jsworker: the property %q is used while it is being made", name))
	}
	defer func() {
		lp.makingMu.Lock()
		delete(lp.making, key)
		lp.makingMu.Unlock()
	}()
	return internalProp(rt, name, f.make(rt, name))
}

// internalProp returns p as goja keeps it: defined on a scratch ordinary object, read back from its values.
func internalProp(rt *goja.Runtime, name string, p Prop) goja.Value {
	o := rt.NewObject()
	if err := p.Define(o, name); err != nil {
		panic(err)
	}
	return valuesOf(o)[unistring.NewFromString(name)]
}

// Define defines p as o's own property name now, through goja's public API: what callers do when [DefineLazy]
// answers false.
func (p Prop) Define(o *goja.Object, name string) error {
	flag := func(b bool) goja.Flag {
		if b {
			return goja.FLAG_TRUE
		}
		return goja.FLAG_FALSE
	}
	if p.Accessor {
		return o.DefineAccessorProperty(name, p.Getter, p.Setter, flag(p.Configurable), flag(p.Enumerable))
	}
	v := p.Value
	if v == nil {
		v = goja.Undefined()
	}
	return o.DefineDataProperty(name, v, flag(p.Writable), flag(p.Configurable), flag(p.Enumerable))
}

// Settle makes, now, each of names that o's template still has to make (as a lookup would, without calling a
// getter), so that it no longer depends on state its factory needs; other names are left alone. It answers false
// if the probe failed or o is not templated. o belongs to rt; only on the goroutine that owns rt.
func Settle(rt *goja.Runtime, o *goja.Object, names ...string) bool {
	if LazyProps() != nil || o == nil || implType(o) != lp.templated {
		return false
	}
	data := selfOf(o).data
	tmpl := *(*unsafe.Pointer)(unsafe.Add(data, lp.tmplOff))
	values := *(*map[unistring.String]goja.Value)(unsafe.Add(data, lp.valOff))
	for _, n := range names {
		k := unistring.NewFromString(n)
		if _, ok := values[k]; ok {
			continue
		}
		if f, ok := lazyFactory(tmpl, n); ok {
			values[k] = f(rt)
		}
	}
	return true
}

// Pending reports whether name is a lazy property of o that its template has not made yet: no script has touched
// it, so what makes it may still change. o is any object goja builds from a template (the global object,
// String.prototype, Array.prototype, Function.prototype), with its properties of goja's and of ours (DefineLazy).
// False if the probe failed or o is not templated. Only on the goroutine that owns o's runtime.
func Pending(o *goja.Object, name string) bool {
	if LazyProps() != nil {
		return false
	}
	_, ok := pending(o, name)
	return ok
}

// pending is Pending, returning where o keeps its template pointer.
func pending(o *goja.Object, name string) (*unsafe.Pointer, bool) {
	tmpl, l, ok := templateOf(o) // any templated object: the global object, Array.prototype, Function.prototype
	if !ok {
		return nil, false
	}
	data := selfOf(o).data
	if _, made := (*(*map[unistring.String]goja.Value)(unsafe.Add(data, l.valOff)))[unistring.NewFromString(name)]; made {
		return nil, false
	}
	if _, ok := lazyFactory(tmpl, name); !ok {
		return nil, false
	}
	return (*unsafe.Pointer)(unsafe.Add(data, l.tmplOff)), true
}

// NewAfterMake returns a hook for AfterMake: after(rt, name, v) runs each time a property it hooks is made, with
// the value made (nil for an accessor). Make them once, at package level.
func NewAfterMake(after func(rt *goja.Runtime, name string, v goja.Value)) *LazyFactory {
	return &LazyFactory{after: after}
}

// AfterMake arranges for h (NewAfterMake) to run right after o's template makes name, a property it has not made yet
// (Pending): what a script then first sees has been through h, and a realm that never touches name never runs it.
// False, changing nothing, when name is not pending or the probe failed; the caller then does h's work now. Only on
// the goroutine that owns o's runtime.
func AfterMake(o *goja.Object, h *LazyFactory, name string) bool {
	return LazyProps() == nil && afterMake(o, h, name)
}

func afterMake(o *goja.Object, h *LazyFactory, name string) bool {
	if h == nil || h.after == nil {
		return false
	}
	cur, ok := pending(o, name)
	if !ok {
		return false
	}
	*cur = derive(*cur, h, []string{name})
	return true
}
