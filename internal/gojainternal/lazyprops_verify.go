package gojainternal

import (
	"errors"
	"fmt"
	"sync"

	"github.com/dop251/goja"
)

// verifyLazyProps confirms, on private runtimes and through the public API only, that lazy properties defined by
// defineLazy on a class's prototype and on the global object look exactly like the same properties defined eagerly
// (names and their order, descriptors, values, inheritance, for-in, delete, redefinition), that listing names makes
// nothing, that each property is made once, and that a factory reaching its own property throws; and that an
// AfterMake hook on a property goja's template makes (the global object's JSON, a templated object's, and
// Array.prototype's join, a templated array's) runs once, when the property is made and with the value made, and
// leaves names, values, identity and descriptors as a plain runtime has them.
//
// As in a realm (the depth guard's AfterMake hooks first, then the lazy globals and methods defined over them), both
// are installed together on one runtime, compared with one eager reference; each check is compiled once and run on
// both.
func verifyLazyProps() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while verifying: %v", x)
		}
	}()
	c, err := lazyPropsChecks()
	if err != nil {
		return err
	}
	return verifyLazyPropsOn(goja.New(), goja.New(), c)
}

// lazyPropsCheckSet is verifyLazyProps's scripts, compiled once (a *goja.Program runs on any runtime).
type lazyPropsCheckSet struct {
	setup, after, list, check, reentrant *goja.Program
	method, getter, typeofR              *goja.Program // sampleProp's values; the re-entrant factory's access
}

// lazyPropsSetup declares C on both runtimes (a lexical binding, not a property of the global object) and one global
// before the lazy ones.
const lazyPropsSetup = `class C { m() { return 1 } }; globalThis.eagerBefore = 1; C.prototype`

// lazyPropsList lists every name first (the global object's, Array.prototype's, C.prototype's: listing makes nothing,
// neither a lazy property nor a hooked one), then joins them (which makes join, through its hook on the lazy runtime).
const lazyPropsList = `[Object.getOwnPropertyNames(globalThis), Object.getOwnPropertyNames(Array.prototype),
		Object.getOwnPropertyNames(C.prototype)].map(n => n.join()).concat(["a" in C.prototype,
		C.prototype.hasOwnProperty("b"), Object.prototype.hasOwnProperty.call(globalThis, "g")]).join("|")`

// lazyPropsCheck reads the lazy properties every way a script can, and the hooked JSON and join.
const lazyPropsCheck = `var d = (o, n) => JSON.stringify(Object.getOwnPropertyDescriptor(o, n), (k, v) => typeof v === "function" ? "fn:" + v.name : v);
		var out = [d(C.prototype, "a"), d(C.prototype, "b"), d(C.prototype, "c"), d(globalThis, "g"), typeof g, g === g,
			new C().a, new C().b, C.prototype.a === C.prototype.a, Object.keys(C.prototype).join(),
			[1, 2].join(), Array.prototype.join === [].join, Array.prototype.join.name, d(Array.prototype, "join"),
			typeof JSON.parse, JSON === globalThis.JSON, d(globalThis, "JSON"), Object.getOwnPropertyNames(JSON).join()];
		for (var k in new C()) out.push(k);
		delete C.prototype.a; out.push(Object.getOwnPropertyNames(C.prototype).join(), "a" in C.prototype);
		Object.defineProperty(C.prototype, "c", { value: 9, enumerable: false });
		out.push(d(C.prototype, "c"), Object.getOwnPropertyNames(C.prototype).join());
		C.prototype.a = 5; out.push(Object.getOwnPropertyNames(C.prototype).join(), C.prototype.a);
		out.join("|")`

var lazyPropsChecks = sync.OnceValues(func() (*lazyPropsCheckSet, error) {
	var errs []error
	compile := func(src string) *goja.Program {
		p, err := goja.Compile("gojainternal-lazyprops-probe.js", src, false)
		errs = append(errs, err)
		return p
	}
	c := &lazyPropsCheckSet{
		setup:     compile(lazyPropsSetup),
		after:     compile(`globalThis.eagerAfter = 2;`),
		list:      compile(lazyPropsList),
		check:     compile(lazyPropsCheck),
		reentrant: compile(`[r, r, Object.getOwnPropertyNames(globalThis).slice(-1).join()].join()`),
		method:    compile(`({ a(x, y) { return x + y } }).a`),
		getter:    compile(`(function get() { return 2 })`),
		typeofR:   compile(`typeof r`),
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return c, nil
})

// afterMadeProp is what verifyLazyPropsOn's AfterMake hook saw.
type afterMadeProp struct {
	rt   *goja.Runtime
	name string
	v    goja.Value
}

// verifyLazyPropsOn runs verifyLazyProps's checks with lazyRT, a fresh runtime, made lazy (AfterMake hooks on its
// JSON and Array.prototype's join, then lazy properties), and eagerRT, a fresh runtime, the eager reference.
func verifyLazyPropsOn(lazyRT, eagerRT *goja.Runtime, c *lazyPropsCheckSet) error {
	var hooked []afterMadeProp
	h := NewAfterMake(func(rt *goja.Runtime, name string, v goja.Value) { hooked = append(hooked, afterMadeProp{rt, name, v}) })
	g, arrayProto := lazyRT.GlobalObject(), lazyRT.NewArray().Prototype()
	isPending := func(o *goja.Object, name string) bool { _, ok := pending(o, name); return ok }
	if !isPending(g, "JSON") || !isPending(arrayProto, "join") || isPending(arrayProto, "nonesuch") {
		return errors.New("Pending does not find goja's own pending properties")
	}
	if !afterMake(g, h, "JSON") || !afterMake(arrayProto, h, "join") {
		return errors.New("AfterMake refused the global object or Array.prototype")
	}
	if afterMake(arrayProto, h, "nonesuch") {
		return errors.New("AfterMake accepted a name the template does not have")
	}

	made := map[string]int{}
	f := NewLazyFactory(func(rt *goja.Runtime, name string) Prop {
		made[name]++
		return sampleProp(rt, c, name)
	})
	protoL, err := programObject(lazyRT, c.setup)
	if err != nil {
		return err
	}
	protoE, err := programObject(eagerRT, c.setup)
	if err != nil {
		return err
	}
	names := []string{"a", "b", "c"}
	if !defineLazy(protoL, f, names) || !defineLazy(g, f, []string{"g"}) {
		return errors.New("defineLazy refused a class's prototype or the global object")
	}
	if defineLazy(protoL, f, []string{"m"}) || defineLazy(g, f, []string{"Object"}) {
		return errors.New("defineLazy accepted a name the object has")
	}
	for _, n := range names {
		if err := sampleProp(eagerRT, c, n).Define(protoE, n); err != nil {
			return err
		}
	}
	if err := sampleProp(eagerRT, c, "g").Define(eagerRT.GlobalObject(), "g"); err != nil {
		return err
	}
	for _, rt := range []*goja.Runtime{lazyRT, eagerRT} {
		if _, err := rt.RunProgram(c.after); err != nil {
			return err
		}
	}
	if a, b := runProgram(lazyRT, c.list), runProgram(eagerRT, c.list); a != b {
		return fmt.Errorf("names: %s, want %s", a, b)
	}
	if len(made) != 0 || len(hooked) != 1 || hooked[0].name != "join" || !isPending(g, "JSON") {
		return fmt.Errorf("listing names made %v, hooked %d", made, len(hooked))
	}
	if a, b := runProgram(lazyRT, c.check), runProgram(eagerRT, c.check); a != b {
		return fmt.Errorf("properties: %s, want %s", a, b)
	}
	for _, n := range append(names, "g") {
		if made[n] != 1 {
			return fmt.Errorf("made %v, want each property once", made)
		}
	}
	if len(hooked) != 2 || isPending(g, "JSON") || isPending(arrayProto, "join") {
		return fmt.Errorf("the AfterMake hooks ran %d times, want 2", len(hooked))
	}
	for _, s := range hooked {
		o := g
		if s.name == "join" {
			o = arrayProto
		}
		if s.rt != lazyRT || s.v == nil || s.v != o.Get(s.name) {
			return fmt.Errorf("the AfterMake hook of %s saw another value", s.name)
		}
	}

	// A factory that reaches its own property throws (a TypeError), and the next access makes it.
	reent := NewLazyFactory(func(rt *goja.Runtime, name string) Prop {
		if _, err := rt.RunProgram(c.typeofR); err == nil {
			panic(errors.New("no error from the re-entrant access"))
		}
		return Prop{Value: rt.ToValue(3), Writable: true, Configurable: true}
	})
	if !defineLazy(g, reent, []string{"r"}) {
		return errors.New("defineLazy refused a second factory")
	}
	if got := runProgram(lazyRT, c.reentrant); got != "3,3,r" {
		return fmt.Errorf("re-entrant factory: %s", got)
	}
	return nil
}

// programObject runs p in rt and returns the object it answers.
func programObject(rt *goja.Runtime, p *goja.Program) (*goja.Object, error) {
	v, err := rt.RunProgram(p)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*goja.Object)
	if !ok || o == nil {
		return nil, errors.New("the sample is not an object")
	}
	return o, nil
}

// sampleProp is the property verifyLazyProps makes, lazily or eagerly: a is a non-enumerable method, b an
// enumerable accessor, c and g ordinary data properties.
func sampleProp(rt *goja.Runtime, c *lazyPropsCheckSet, name string) Prop {
	switch name {
	case "a":
		v, _ := rt.RunProgram(c.method)
		return Prop{Value: v, Writable: true, Configurable: true}
	case "b":
		get, _ := rt.RunProgram(c.getter)
		return Prop{Accessor: true, Getter: get, Enumerable: true, Configurable: true}
	default:
		return Prop{Value: rt.ToValue(name + "!"), Writable: true, Enumerable: name == "c", Configurable: true}
	}
}

// run runs src in rt and returns its string value (or the error's text): the tests compare a lazy runtime's answer
// with an eager one's.
func run(rt *goja.Runtime, src string) string {
	v, err := rt.RunString(src)
	if err != nil {
		return "error: " + err.Error()
	}
	return v.String()
}
