package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// Guarding builtins without building them: what core's allocation guard (core/allocguard.go) needs to refuse huge
// allocations in a realm that has not touched the allocating builtins yet, at no cost until it does.
//
// goja builds a realm's global object, String.prototype and Array.prototype from process-wide templates: an
// objectTemplate maps each property name to a factory func(*Runtime) Value that makes the property the first time
// it is looked up, listed, changed or deleted. A [Template] is a derived copy of one of those templates (the same
// names, order and attributes) in which chosen factories are followed by a hook; installed on one object (the
// templatedObject's tmpl pointer), it makes that object run the hook on whatever its factory made, when goja
// materializes the property and before any script can see it. goja's own singletons are never written: other
// runtimes of the process (a Go host's own goja.New()) keep goja's behaviour and there is no data race with them.
//
// The hooks [GuardConstruct], [ReplaceConstruct] and [GuardCall] then change goja's native function objects in place: the
// construct (or call) behaviour of the same object is preceded by a Go check. No wrapper object is made, so the
// constructor keeps its identity, prototype.constructor, name, length, statics and descriptors exactly as in a
// plain goja runtime, and no JavaScript runs while goja is in the middle of an instruction (a global lookup, a
// for-in over globalThis): the hook is plain Go writing one field.
//
// Everything is located by reflect once, verified on a private runtime against the public API ([LazyGuard]), and
// every function answers false (doing nothing) when the probe failed: core then installs its eager JavaScript guard.

// ConstructFunc is goja's construct behaviour of a native constructor: the arguments and new.target.
type ConstructFunc = func(args []goja.Value, newTarget *goja.Object) *goja.Object

// CallFunc is goja's call behaviour of a native function.
type CallFunc = func(goja.FunctionCall) goja.Value

var lazy struct {
	once sync.Once
	err  error

	native        reflect.Type // *goja.nativeFuncObject
	callOff       uintptr      // its field f
	constructOff  uintptr      // its field construct
	tmplType      reflect.Type // goja.objectTemplate
	propsOff      uintptr      // objectTemplate.props
	propsType     reflect.Type // map[unistring.String]templatePropFactory
	factoryType   reflect.Type // templatePropFactory
	valuePropType reflect.Type // *goja.valueProperty
	vpValueOff    uintptr
	vpAccessorOff uintptr

	mu        sync.Mutex
	templated map[reflect.Type]templatedLayout // guarded by mu: per implementation type
}

// templatedLayout is where a templated object (*templatedObject, *templatedArrayObject) keeps its template pointer
// and its materialized values.
type templatedLayout struct {
	ok              bool
	tmplOff, valOff uintptr
}

// LazyGuard locates, once per process, everything this file needs and verifies it on a private runtime, and returns
// nil if [GuardConstruct], [ReplaceConstruct], [GuardCall], [DeriveTemplate] and [TemplateValue] work, or the error that makes them
// answer false.
func LazyGuard() error {
	if err := simulatedErr(); err != nil {
		return err
	}
	lazy.once.Do(func() {
		startPrewarm()
		if err := locateSelf(); err != nil {
			lazy.err = probeError("objects", err)
			return
		}
		if err := locateLazy(); err != nil {
			lazy.err = probeError("object templates", err)
			return
		}
		if err := verifyLazy(); err != nil {
			lazy.native = nil
			lazy.err = probeError("object templates (verification)", err)
		}
	})
	return lazy.err
}

func locateLazy() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	rt := goja.New()
	ab, ok := rt.GlobalObject().Get("ArrayBuffer").(*goja.Object)
	if !ok {
		return errors.New("no ArrayBuffer")
	}
	nt := implType(ab)
	if nt == nil || nt.Kind() != reflect.Pointer || nt.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("ArrayBuffer is a %v", nt)
	}
	callT, ctorT := reflect.TypeFor[CallFunc](), reflect.TypeFor[ConstructFunc]()
	if lazy.callOff, err = directField(nt.Elem(), "f", callT); err != nil {
		return err
	}
	if lazy.constructOff, err = directField(nt.Elem(), "construct", ctorT); err != nil {
		return err
	}
	lay, err := layoutOf(implType(rt.GlobalObject()))
	if err != nil {
		return err
	}
	tf, _ := implType(rt.GlobalObject()).Elem().FieldByName("tmpl")
	tt := tf.Type.Elem()
	pf, ok := tt.FieldByName("props")
	if !ok || len(pf.Index) != 1 || pf.Type.Kind() != reflect.Map || pf.Type.Key() != reflect.TypeFor[unistring.String]() {
		return errors.New("objectTemplate.props is not a map keyed by unistring.String")
	}
	ft := pf.Type.Elem()
	if ft.Kind() != reflect.Func || !ft.ConvertibleTo(reflect.TypeFor[func(*goja.Runtime) goja.Value]()) {
		return fmt.Errorf("template factories are %s", ft)
	}
	lazy.tmplType, lazy.propsOff, lazy.propsType, lazy.factoryType = tt, pf.Offset, pf.Type, ft

	// A constructor's factory makes a non-enumerable data property: a *valueProperty.
	tmpl := *(*unsafe.Pointer)(unsafe.Add(selfOf(rt.GlobalObject()).data, lay.tmplOff))
	f, ok := lazyFactory(tmpl, "ArrayBuffer")
	if !ok {
		return errors.New("the global template has no ArrayBuffer")
	}
	v := f(rt)
	vt := reflect.TypeOf(v)
	if vt == nil || vt.Kind() != reflect.Pointer || vt.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("a constructor's template value is a %v", vt)
	}
	if lazy.vpValueOff, err = directField(vt.Elem(), "value", reflect.TypeFor[goja.Value]()); err != nil {
		return err
	}
	if lazy.vpAccessorOff, err = directField(vt.Elem(), "accessor", reflect.TypeFor[bool]()); err != nil {
		return err
	}
	lazy.valuePropType = vt
	if got := unwrapProp(v); got != goja.Value(ab) {
		return errors.New("the ArrayBuffer factory made a different object")
	}
	lazy.native = nt
	return nil
}

// directField returns the offset of t's own field name, which must have type want.
func directField(t reflect.Type, name string, want reflect.Type) (uintptr, error) {
	f, ok := t.FieldByName(name)
	if !ok || len(f.Index) != 1 || f.Type != want {
		return 0, fmt.Errorf("field %s.%s missing or not a %s", t, name, want)
	}
	return f.Offset, nil
}

// layoutOf finds the template and values fields of a templated implementation type (cached).
func layoutOf(t reflect.Type) (templatedLayout, error) {
	lazy.mu.Lock()
	defer lazy.mu.Unlock()
	if l, ok := lazy.templated[t]; ok {
		if !l.ok {
			return l, fmt.Errorf("%v is not a templated object", t)
		}
		return l, nil
	}
	var l templatedLayout
	err := fmt.Errorf("%v is not a templated object", t)
	if t != nil && t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		st := t.Elem()
		tmplOff, err1 := fieldOffset(st, "tmpl", func(ft reflect.Type) bool {
			return ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct && ft.Elem().Name() == "objectTemplate" &&
				(lazy.tmplType == nil || ft.Elem() == lazy.tmplType)
		})
		valOff, err2 := fieldOffset(st, "values", func(ft reflect.Type) bool {
			return ft == reflect.TypeFor[map[unistring.String]goja.Value]()
		})
		if err = errors.Join(err1, err2); err == nil {
			l = templatedLayout{ok: true, tmplOff: tmplOff, valOff: valOff}
		}
	}
	if lazy.templated == nil {
		lazy.templated = make(map[reflect.Type]templatedLayout)
	}
	lazy.templated[t] = l
	return l, err
}

// lazyFactory returns the factory template tmpl holds for name.
func lazyFactory(tmpl unsafe.Pointer, name string) (func(*goja.Runtime) goja.Value, bool) {
	props := reflect.NewAt(lazy.propsType, unsafe.Add(tmpl, lazy.propsOff)).Elem()
	f := props.MapIndex(reflect.ValueOf(unistring.String(name)))
	if !f.IsValid() || f.IsNil() {
		return nil, false
	}
	return f.Convert(reflect.TypeFor[func(*goja.Runtime) goja.Value]()).Interface().(func(*goja.Runtime) goja.Value), true
}

// unwrapProp returns the value a template factory made: the value of a data property, nil for an accessor.
func unwrapProp(v goja.Value) goja.Value {
	if reflect.TypeOf(v) != lazy.valuePropType {
		return v
	}
	p := (*iface)(unsafe.Pointer(&v)).data
	if *(*bool)(unsafe.Add(p, lazy.vpAccessorOff)) {
		return nil
	}
	return *(*goja.Value)(unsafe.Add(p, lazy.vpValueOff))
}

// templateOf returns o's template pointer and layout, if o is a templated object.
func templateOf(o *goja.Object) (unsafe.Pointer, templatedLayout, bool) {
	if o == nil || lazy.native == nil {
		return nil, templatedLayout{}, false
	}
	l, err := layoutOf(implType(o))
	if err != nil {
		return nil, l, false
	}
	return *(*unsafe.Pointer)(unsafe.Add(selfOf(o).data, l.tmplOff)), l, true
}

// nativeOf returns the implementation pointer of o if o is one of goja's native function objects.
func nativeOf(o *goja.Object) unsafe.Pointer {
	if o == nil || lazy.native == nil || implType(o) != lazy.native {
		return nil
	}
	return selfOf(o).data
}

// guardedConstruct is the construct behaviour GuardConstruct installs; guardedCall the call behaviour of GuardCall.
// Their code pointers tell a function already guarded (not inlined: an inlined copy of the closure would have code
// of its own).
//
//go:noinline
func guardedConstruct(check func([]goja.Value), orig ConstructFunc) ConstructFunc {
	return func(args []goja.Value, newTarget *goja.Object) *goja.Object {
		check(args)
		return orig(args, newTarget)
	}
}

//go:noinline
func guardedCall(guard func(CallFunc, goja.FunctionCall) goja.Value, orig CallFunc) CallFunc {
	return func(call goja.FunctionCall) goja.Value { return guard(orig, call) }
}

//go:noinline
func replacedConstruct(replace func(ConstructFunc, []goja.Value, *goja.Object) *goja.Object, orig ConstructFunc) ConstructFunc {
	return func(args []goja.Value, newTarget *goja.Object) *goja.Object { return replace(orig, args, newTarget) }
}

//go:noinline
func overCall(guard func(CallFunc, goja.FunctionCall) goja.Value, orig CallFunc) CallFunc {
	return func(call goja.FunctionCall) goja.Value { return guard(orig, call) }
}

var (
	guardedConstructCode  = reflect.ValueOf(guardedConstruct(nil, nil)).Pointer()
	guardedCallCode       = reflect.ValueOf(guardedCall(nil, nil)).Pointer()
	replacedConstructCode = reflect.ValueOf(replacedConstruct(nil, nil)).Pointer()
	overCallCode          = reflect.ValueOf(overCall(nil, nil)).Pointer()
)

// GuardConstruct makes the native constructor o run check(args) before each construction (new o(...),
// Reflect.construct, super(...) from a subclass); check throws (panics with a goja value, as native functions do)
// to refuse. Calling o without new is unchanged. It answers false, changing nothing, if o is not a goja native
// function with a construct behaviour or the probe failed; a constructor guarded once is left as it is (true).
// Only on the goroutine that owns o's runtime.
func GuardConstruct(o *goja.Object, check func(args []goja.Value)) bool {
	return LazyGuard() == nil && guardConstruct(o, check)
}

func guardConstruct(o *goja.Object, check func(args []goja.Value)) bool {
	return swapConstruct(o, guardedConstructCode, func(orig ConstructFunc) ConstructFunc { return guardedConstruct(check, orig) })
}

// swapConstruct replaces the construct behaviour of the native constructor o by wrap(goja's), unless it is already
// wrapped by the closure whose code pointer is done; false if o has no construct behaviour to change.
func swapConstruct(o *goja.Object, done uintptr, wrap func(ConstructFunc) ConstructFunc) bool {
	p := nativeOf(o)
	if p == nil {
		return false
	}
	slot := (*ConstructFunc)(unsafe.Add(p, lazy.constructOff))
	if *slot == nil {
		return false
	}
	if reflect.ValueOf(*slot).Pointer() != done {
		*slot = wrap(*slot)
	}
	return true
}

// ReplaceConstruct makes each construction by the native constructor o (new o(...), Reflect.construct, super(...)
// from a subclass) go through replace, which receives goja's own construct behaviour (to call, or not), the
// arguments and new.target (nil for a plain new o(...), as goja passes it; o itself is possible too); what replace returns is the new object. Calling o
// without new is unchanged (see [GuardCall]). It answers as [GuardConstruct]; a constructor whose construct
// behaviour was replaced once is left as it is (true).
func ReplaceConstruct(o *goja.Object, replace func(orig ConstructFunc, args []goja.Value, newTarget *goja.Object) *goja.Object) bool {
	return LazyGuard() == nil && replaceConstruct(o, replace)
}

func replaceConstruct(o *goja.Object, replace func(ConstructFunc, []goja.Value, *goja.Object) *goja.Object) bool {
	return swapConstruct(o, replacedConstructCode, func(orig ConstructFunc) ConstructFunc { return replacedConstruct(replace, orig) })
}

// GuardCall makes each call of the native function o go through guard, which receives goja's own behaviour to call
// (or not). Answers as GuardConstruct.
func GuardCall(o *goja.Object, guard func(orig CallFunc, call goja.FunctionCall) goja.Value) bool {
	return LazyGuard() == nil && guardCall(o, guard)
}

func guardCall(o *goja.Object, guard func(orig CallFunc, call goja.FunctionCall) goja.Value) bool {
	return swapCall(o, guardedCallCode, func(orig CallFunc) CallFunc { return guardedCall(guard, orig) })
}

// GuardCallOver is GuardCall for a second guard of a function another guard may have (the depth guard's, over the
// allocation guard's Array.prototype.join): guard receives the behaviour o has now, GuardCall's guard included, and
// a GuardCall after it guards it again. A function whose outermost behaviour is already GuardCallOver's is left as
// it is (true), so one user of GuardCallOver per function. Answers as GuardCall.
func GuardCallOver(o *goja.Object, guard func(orig CallFunc, call goja.FunctionCall) goja.Value) bool {
	return LazyGuard() == nil && guardCallOver(o, guard)
}

func guardCallOver(o *goja.Object, guard func(orig CallFunc, call goja.FunctionCall) goja.Value) bool {
	return swapCall(o, overCallCode, func(orig CallFunc) CallFunc { return overCall(guard, orig) })
}

// swapCall replaces the call behaviour of the native function o by wrap(goja's), unless it is already wrapped by the
// closure whose code pointer is done; false if o is no native function with a call behaviour.
func swapCall(o *goja.Object, done uintptr, wrap func(CallFunc) CallFunc) bool {
	p := nativeOf(o)
	if p == nil {
		return false
	}
	slot := (*CallFunc)(unsafe.Add(p, lazy.callOff))
	if *slot == nil {
		return false
	}
	if reflect.ValueOf(*slot).Pointer() != done {
		*slot = wrap(*slot)
	}
	return true
}

// A Template is a derived copy of the template goja builds one kind of templated object from (see the top of this
// file). It is immutable and may be installed on any number of objects of any runtime.
type Template struct {
	base, derived unsafe.Pointer // *goja.objectTemplate
	hooked        []string
}

// DeriveTemplate derives a Template from sample's template (sample: the global object, String.prototype or
// Array.prototype of any runtime still holding goja's own template) in which the factory of each name in hooks,
// once it has made the property's value, calls the hook with the runtime and that value (nil for an accessor).
// The hook must not throw: it runs while goja materializes the property.
func DeriveTemplate(sample *goja.Object, hooks map[string]func(rt *goja.Runtime, v goja.Value)) (*Template, error) {
	if err := LazyGuard(); err != nil {
		return nil, err
	}
	return deriveTemplate(sample, hooks)
}

func deriveTemplate(sample *goja.Object, hooks map[string]func(rt *goja.Runtime, v goja.Value)) (*Template, error) {
	base, _, ok := templateOf(sample)
	if !ok {
		return nil, errors.New("jsworker: the sample object is not built from a goja template")
	}
	d := reflect.New(lazy.tmplType)
	d.Elem().Set(reflect.NewAt(lazy.tmplType, base).Elem()) // names, order, symbols, prototype: shared, read only
	src := reflect.NewAt(lazy.propsType, unsafe.Add(base, lazy.propsOff)).Elem()
	props := reflect.MakeMapWithSize(lazy.propsType, src.Len())
	t := &Template{base: base, derived: d.UnsafePointer()}
	for it := src.MapRange(); it.Next(); {
		props.SetMapIndex(it.Key(), it.Value())
	}
	for name, hook := range hooks {
		orig, ok := lazyFactory(base, name)
		if !ok {
			return nil, fmt.Errorf("jsworker: goja's template has no property %q", name)
		}
		f := func(rt *goja.Runtime) goja.Value {
			v := orig(rt)
			hook(rt, unwrapProp(v))
			return v
		}
		props.SetMapIndex(reflect.ValueOf(unistring.String(name)), reflect.ValueOf(f).Convert(lazy.factoryType))
		t.hooked = append(t.hooked, name)
	}
	reflect.NewAt(lazy.propsType, unsafe.Add(t.derived, lazy.propsOff)).Elem().Set(props)
	return t, nil
}

// Install makes o use t from now on. o must still hold the template t was derived from (or t itself: nothing to
// do). It answers false, changing nothing, otherwise. materialized lists the hooked names o had already made before
// (their hooks will not run: the caller guards those values itself). Only on the goroutine that owns o's runtime.
func (t *Template) Install(o *goja.Object) (materialized []string, ok bool) {
	if LazyGuard() != nil {
		return nil, false
	}
	return t.install(o)
}

func (t *Template) install(o *goja.Object) (materialized []string, ok bool) {
	cur, l, ok := templateOf(o)
	if !ok {
		return nil, false
	}
	target := t.derived
	if cur != t.base && cur != t.derived { // lazy properties added to o since (lazyprops.go): the same, over t
		if target, ok = rebaseLazy(cur, t.base, t.derived); !ok {
			return nil, false
		}
	}
	if cur == target {
		return nil, true
	}
	values := *(*map[unistring.String]goja.Value)(unsafe.Add(selfOf(o).data, l.valOff))
	for _, name := range t.hooked {
		if _, ok := values[unistring.String(name)]; ok {
			materialized = append(materialized, name)
		}
	}
	*(*unsafe.Pointer)(unsafe.Add(selfOf(o).data, l.tmplOff)) = target
	return materialized, true
}

// TemplateHas reports whether o is templated and its template makes name, without making anything: then
// [TemplateValue] finds the value, now or later (a realm's template is only ever replaced by derived copies, which
// keep every factory). False if the probe failed. Only on the goroutine that owns o's runtime.
func TemplateHas(o *goja.Object, name string) bool {
	if LazyGuard() != nil {
		return false
	}
	tmpl, _, ok := templateOf(o)
	if !ok {
		return false
	}
	_, ok = lazyFactory(tmpl, name)
	return ok
}

// TemplateValue returns the value o's template makes for name in rt (o must belong to rt): for a constructor of the
// global object, goja's own constructor whatever the global property holds now (goja makes each constructor once
// per runtime, and a derived template's hook runs on it). ok is false if o is not templated, has no such entry, or
// the entry is an accessor. Only on the goroutine that owns rt.
func TemplateValue(rt *goja.Runtime, o *goja.Object, name string) (v goja.Value, ok bool) {
	if LazyGuard() != nil {
		return nil, false
	}
	return templateValue(rt, o, name)
}

func templateValue(rt *goja.Runtime, o *goja.Object, name string) (v goja.Value, ok bool) {
	tmpl, _, ok := templateOf(o)
	if !ok {
		return nil, false
	}
	f, ok := lazyFactory(tmpl, name)
	if !ok {
		return nil, false
	}
	v = unwrapProp(f(rt))
	return v, v != nil
}
