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
	return verifyAfterMake()
}

// afterMakeCheck reads what verifyAfterMake hooks, the global object's JSON and Array.prototype's join, and lists
// both objects' names first.
const afterMakeCheck = `var d = (o, n) => JSON.stringify(Object.getOwnPropertyDescriptor(o, n), ["writable", "enumerable", "configurable"]);
	var n = [Object.getOwnPropertyNames(globalThis).join(), Object.getOwnPropertyNames(Array.prototype).join()].join("|");
	[n, [1, 2].join(), Array.prototype.join === [].join, Array.prototype.join.name, d(Array.prototype, "join"),
	typeof JSON.parse, JSON === globalThis.JSON, d(globalThis, "JSON"), Object.getOwnPropertyNames(JSON).join()].join("|")`

// verifyAfterMake confirms that an AfterMake hook on a property goja's template makes (of the global object, a
// templated object, and of Array.prototype, a templated array) runs once, when the property is made and with the
// value made, and that listing names, the values, identity and descriptors are as in a plain runtime.
func verifyAfterMake() error {
	type seen struct {
		rt   *goja.Runtime
		name string
		v    goja.Value
	}
	var hooked []seen
	h := NewAfterMake(func(rt *goja.Runtime, name string, v goja.Value) { hooked = append(hooked, seen{rt, name, v}) })
	rt, plain := goja.New(), goja.New()
	g, proto := rt.GlobalObject(), rt.NewArray().Prototype()
	isPending := func(o *goja.Object, name string) bool { _, ok := pending(o, name); return ok }
	if !isPending(g, "JSON") || !isPending(proto, "join") || isPending(proto, "nonesuch") {
		return errors.New("Pending does not find goja's own pending properties")
	}
	if !afterMake(g, h, "JSON") || !afterMake(proto, h, "join") {
		return errors.New("AfterMake refused the global object or Array.prototype")
	}
	if afterMake(proto, h, "nonesuch") {
		return errors.New("AfterMake accepted a name the template does not have")
	}
	if a, b := run(rt, afterMakeCheck), run(plain, afterMakeCheck); a != b {
		return fmt.Errorf("after AfterMake: %s, want %s", a, b)
	}
	if len(hooked) != 2 || isPending(g, "JSON") || isPending(proto, "join") {
		return fmt.Errorf("the hooks ran %d times, want 2", len(hooked))
	}
	for _, s := range hooked {
		o := g
		if s.name == "join" {
			o = proto
		}
		if s.rt != rt || s.v == nil || s.v != o.Get(s.name) {
			return fmt.Errorf("the hook of %s saw another value", s.name)
		}
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
