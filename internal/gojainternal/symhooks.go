package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
)

// Symbol hooks. A template's symbol-keyed properties (Array.prototype[Symbol.iterator], its Symbol.unscopables) have
// factories of their own, in the template's symProps, and goja makes all of an object's symbol properties at its
// first symbol lookup. WithSymbolHooks derives a template whose factories for given symbols call a hook on what they
// made, as DeriveTemplate's do for names; SymbolsMade tells whether an object has made its symbol properties
// already (so that a caller guards now what no hook will see). Located by name and type with reflect once, and
// verified on a private runtime against goja's own behaviour: the same keys in the same order, the same value and
// descriptor, the hook once.

var symHooks struct {
	once          sync.Once
	err           error
	symPropsOff   uintptr         // objectTemplate.symProps
	symPropsType  reflect.Type    // map[*goja.Symbol]templatePropFactory
	symValuesOff  uintptr         // baseObject.symValues, in a templated array (Array.prototype) and object (String.prototype)
	symValuesType reflect.Type    // *goja.orderedMap
	templated     [2]reflect.Type // the impl types SymbolsMade reads: Array.prototype's, String.prototype's
}

// SymbolHooks returns the error of the probe, nil when WithSymbolHooks and SymbolsMade work.
func SymbolHooks() error {
	if err := LazyGuard(); err != nil {
		return err
	}
	symHooks.once.Do(func() {
		if err := locateSymHooks(); err != nil {
			symHooks.err = probeError("symbol templates", err)
			return
		}
		if err := verifySymHooks(); err != nil {
			symHooks.err = probeError("symbol templates (verification)", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return symHooks.err
}

func locateSymHooks() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while probing: %v", x)
		}
	}()
	f, ok := lazy.tmplType.FieldByName("symProps")
	if !ok || len(f.Index) != 1 || f.Type.Kind() != reflect.Map || f.Type.Key() != reflect.TypeFor[*goja.Symbol]() ||
		f.Type.Elem() != lazy.factoryType {
		return errors.New("objectTemplate.symProps is not a map of factories keyed by *goja.Symbol")
	}
	symHooks.symPropsOff, symHooks.symPropsType = f.Offset, f.Type
	proto := goja.New().NewArray().Prototype()
	it := implType(proto)
	if it == nil || it.Kind() != reflect.Pointer || it.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("Array.prototype is a %v", it)
	}
	isMap := func(ft reflect.Type) bool {
		if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct && ft.Elem().Name() == "orderedMap" {
			symHooks.symValuesType = ft
			return true
		}
		return false
	}
	if symHooks.symValuesOff, err = fieldOffset(it.Elem(), "symValues", isMap); err != nil {
		return err
	}
	// A plain templated object (String.prototype, %TypedArray%.prototype) holds symValues at the same offset.
	srt := goja.New()
	sp := implType(srt.ToValue("").ToObject(srt).Prototype())
	if sp == nil || sp.Kind() != reflect.Pointer || sp.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("String.prototype is a %v", sp)
	}
	off, err := fieldOffset(sp.Elem(), "symValues", isMap)
	if err != nil {
		return err
	}
	if off != symHooks.symValuesOff {
		return fmt.Errorf("symValues at %d in %v, %d in %v", off, sp, symHooks.symValuesOff, it)
	}
	symHooks.templated = [2]reflect.Type{it, sp}
	return nil
}

// WithSymbolHooks returns a template like t (installed the same way, Install) whose factory of each symbol in hooks,
// once it has made the property's value, calls the hook with the runtime and that value (nil for an accessor). The
// hook must not throw: it runs while goja makes the object's symbol properties.
func (t *Template) WithSymbolHooks(hooks map[*goja.Symbol]func(rt *goja.Runtime, v goja.Value)) (*Template, error) {
	if err := SymbolHooks(); err != nil {
		return nil, err
	}
	return t.withSymbolHooks(hooks)
}

func (t *Template) withSymbolHooks(hooks map[*goja.Symbol]func(rt *goja.Runtime, v goja.Value)) (*Template, error) {
	d := reflect.New(lazy.tmplType)
	d.Elem().Set(reflect.NewAt(lazy.tmplType, t.derived).Elem())
	src := reflect.NewAt(symHooks.symPropsType, unsafe.Add(t.derived, symHooks.symPropsOff)).Elem()
	m := reflect.MakeMapWithSize(symHooks.symPropsType, src.Len())
	for it := src.MapRange(); it.Next(); {
		m.SetMapIndex(it.Key(), it.Value())
	}
	for sym, hook := range hooks {
		fv := m.MapIndex(reflect.ValueOf(sym))
		if !fv.IsValid() || fv.IsNil() {
			return nil, fmt.Errorf("jsworker: goja's template has no property %s", sym)
		}
		orig := fv.Convert(reflect.TypeFor[func(*goja.Runtime) goja.Value]()).Interface().(func(*goja.Runtime) goja.Value)
		f := func(rt *goja.Runtime) goja.Value {
			v := orig(rt)
			hook(rt, unwrapProp(v))
			return v
		}
		m.SetMapIndex(reflect.ValueOf(sym), reflect.ValueOf(f).Convert(lazy.factoryType))
	}
	reflect.NewAt(symHooks.symPropsType, unsafe.Add(d.UnsafePointer(), symHooks.symPropsOff)).Elem().Set(m)
	return &Template{base: t.base, derived: d.UnsafePointer(), hooked: t.hooked}, nil
}

// SymbolsMade reports whether o, a templated prototype such as Array.prototype, String.prototype or
// %TypedArray%.prototype, has made its symbol properties; ok is false when that cannot be read (another kind of
// object, or the probe failed). Only on o's runtime's goroutine.
func SymbolsMade(o *goja.Object) (made, ok bool) {
	if SymbolHooks() != nil || o == nil {
		return false, false
	}
	if it := implType(o); it != symHooks.templated[0] && it != symHooks.templated[1] {
		return false, false
	}
	return symbolsMade(o), true
}

func symbolsMade(o *goja.Object) bool {
	return *(*unsafe.Pointer)(unsafe.Add(selfOf(o).data, symHooks.symValuesOff)) != nil
}

// verifySymHooks derives Array.prototype's template with a hook on Symbol.iterator in a fresh runtime and checks,
// against a plain one, that nothing a script sees changes and that the hook runs once, on the first symbol lookup,
// with Array.prototype.values.
func verifySymHooks() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while verifying: %v", x)
		}
	}()
	const check = `[Reflect.ownKeys(Array.prototype).map(String).join(), [...[1, 2]].join(), [][Symbol.iterator] === Array.prototype.values,
		JSON.stringify(Object.getOwnPropertyDescriptor(Array.prototype, Symbol.iterator), ["writable", "enumerable", "configurable"]),
		Object.keys(Array.prototype[Symbol.unscopables]).join()].join("|")`
	plain := goja.New()
	want, err := plain.RunString(check)
	if err != nil {
		return err
	}
	rt := goja.New()
	proto := rt.NewArray().Prototype()
	if symbolsMade(proto) {
		return errors.New("a fresh Array.prototype has made its symbol properties")
	}
	t, err := deriveTemplate(proto, nil)
	if err != nil {
		return err
	}
	var seen []goja.Value
	t, err = t.withSymbolHooks(map[*goja.Symbol]func(*goja.Runtime, goja.Value){
		goja.SymIterator: func(r *goja.Runtime, v goja.Value) {
			if r == rt {
				seen = append(seen, v)
			}
		},
	})
	if err != nil {
		return err
	}
	if _, ok := t.install(proto); !ok {
		return errors.New("the derived template does not install")
	}
	if len(seen) != 0 || symbolsMade(proto) {
		return errors.New("installing the template made the symbol properties")
	}
	got, err := rt.RunString(check)
	if err != nil {
		return err
	}
	if got.String() != want.String() {
		return fmt.Errorf("with the hook: %q, plain: %q", got, want)
	}
	if len(seen) != 1 || seen[0] != proto.Get("values") || seen[0] != proto.GetSymbol(goja.SymIterator) {
		return fmt.Errorf("the hook ran %d times, or on another value", len(seen))
	}
	if !symbolsMade(proto) {
		return errors.New("after a symbol lookup Array.prototype has not made its symbol properties")
	}
	sp := rt.ToValue("").ToObject(rt).Prototype()
	if symbolsMade(sp) {
		return errors.New("a fresh String.prototype has made its symbol properties")
	}
	if v, err := rt.RunString(`[..."ab"].join()`); err != nil || v.String() != "a,b" {
		return fmt.Errorf("a string's spread: %v, %v", v, err)
	}
	if !symbolsMade(sp) {
		return errors.New("after a string's spread String.prototype has not made its symbol properties")
	}
	return nil
}
