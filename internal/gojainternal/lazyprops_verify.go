package gojainternal

import (
	"errors"
	"fmt"

	"github.com/dop251/goja"
)

// verifyLazyProps confirms, on a private runtime and through the public API only, that lazy properties defined by
// defineLazy on a class's prototype and on the global object look exactly like the same properties defined eagerly
// (names and their order, descriptors, values, inheritance, for-in, delete, redefinition), that listing names makes
// nothing, that each property is made once, and that a factory reaching its own property throws.
func verifyLazyProps() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while verifying: %v", x)
		}
	}()
	made := map[string]int{}
	var f *LazyFactory
	f = NewLazyFactory(func(rt *goja.Runtime, name string) Prop {
		made[name]++
		return sampleProp(rt, name)
	})
	lazyRT, eagerRT := goja.New(), goja.New()
	const setup = `class C { m() { return 1 } }; globalThis.eagerBefore = 1; C.prototype`
	protoL, err := sample(lazyRT, setup)
	if err != nil {
		return err
	}
	protoE, err := sample(eagerRT, setup)
	if err != nil {
		return err
	}
	names := []string{"a", "b", "c"}
	if !defineLazy(protoL, f, names) || !defineLazy(lazyRT.GlobalObject(), f, []string{"g"}) {
		return errors.New("defineLazy refused a class's prototype or the global object")
	}
	if defineLazy(protoL, f, []string{"m"}) || defineLazy(lazyRT.GlobalObject(), f, []string{"Object"}) {
		return errors.New("defineLazy accepted a name the object has")
	}
	for _, n := range names {
		if err := defineEager(eagerRT, protoE, n); err != nil {
			return err
		}
	}
	if err := defineEager(eagerRT, eagerRT.GlobalObject(), "g"); err != nil {
		return err
	}
	const after = `globalThis.eagerAfter = 2;`
	for _, rt := range []*goja.Runtime{lazyRT, eagerRT} {
		if _, err := rt.RunString(after); err != nil {
			return err
		}
	}
	const list = `[Object.getOwnPropertyNames(C.prototype).join(), Object.getOwnPropertyNames(globalThis).slice(-3).join(),
		"a" in C.prototype, C.prototype.hasOwnProperty("b"), Object.prototype.hasOwnProperty.call(globalThis, "g")].join("|")`
	if a, b := run(lazyRT, list), run(eagerRT, list); a != b {
		return fmt.Errorf("names: %s, want %s", a, b)
	}
	if len(made) != 0 {
		return fmt.Errorf("listing names made %v", made)
	}
	const check = `var d = (o, n) => JSON.stringify(Object.getOwnPropertyDescriptor(o, n), (k, v) => typeof v === "function" ? "fn:" + v.name : v);
		var out = [d(C.prototype, "a"), d(C.prototype, "b"), d(C.prototype, "c"), d(globalThis, "g"), typeof g, g === g,
			new C().a, new C().b, C.prototype.a === C.prototype.a, Object.keys(C.prototype).join()];
		for (var k in new C()) out.push(k);
		delete C.prototype.a; out.push(Object.getOwnPropertyNames(C.prototype).join(), "a" in C.prototype);
		Object.defineProperty(C.prototype, "c", { value: 9, enumerable: false });
		out.push(d(C.prototype, "c"), Object.getOwnPropertyNames(C.prototype).join());
		C.prototype.a = 5; out.push(Object.getOwnPropertyNames(C.prototype).join(), C.prototype.a);
		out.join("|")`
	if a, b := run(lazyRT, check), run(eagerRT, check); a != b {
		return fmt.Errorf("properties: %s, want %s", a, b)
	}
	for _, n := range append(names, "g") {
		if made[n] != 1 {
			return fmt.Errorf("made %v, want each property once", made)
		}
	}
	// A factory that reaches its own property throws (a TypeError), and the next access makes it.
	reent := NewLazyFactory(func(rt *goja.Runtime, name string) Prop {
		if _, err := rt.RunString(`typeof ` + name); err == nil {
			panic(errors.New("no error from the re-entrant access"))
		}
		return Prop{Value: rt.ToValue(3), Writable: true, Configurable: true}
	})
	if !defineLazy(lazyRT.GlobalObject(), reent, []string{"r"}) {
		return errors.New("defineLazy refused a second factory")
	}
	if got := run(lazyRT, `[r, r, Object.getOwnPropertyNames(globalThis).slice(-1).join()].join()`); got != "3,3,r" {
		return fmt.Errorf("re-entrant factory: %s", got)
	}
	return nil
}

// sampleProp is the property verifyLazyProps makes, lazily or eagerly: a is a non-enumerable method, b an
// enumerable accessor, c and g ordinary data properties.
func sampleProp(rt *goja.Runtime, name string) Prop {
	switch name {
	case "a":
		v, _ := rt.RunString(`({ a(x, y) { return x + y } }).a`)
		return Prop{Value: v, Writable: true, Configurable: true}
	case "b":
		get, _ := rt.RunString(`(function get() { return 2 })`)
		return Prop{Accessor: true, Getter: get, Enumerable: true, Configurable: true}
	default:
		return Prop{Value: rt.ToValue(name + "!"), Writable: true, Enumerable: name == "c", Configurable: true}
	}
}

// defineEager defines on o what sampleProp makes for name.
func defineEager(rt *goja.Runtime, o *goja.Object, name string) error {
	return sampleProp(rt, name).Define(o, name)
}

// run runs src in rt and returns its string value (or the error's text): verifyLazyProps compares the lazy runtime's
// answer with the eager one's.
func run(rt *goja.Runtime, src string) string {
	v, err := rt.RunString(src)
	if err != nil {
		return "error: " + err.Error()
	}
	return v.String()
}
