package gojainternal

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// verifyLazy confirms, on a private runtime and through the public API only, that what locateLazy found behaves as
// lazyguard.go relies on: a derived template's hooks run once goja makes the property and before a script sees it;
// the object keeps its keys, order and descriptors; a guarded constructor or method refuses what its check refuses
// and otherwise answers as before, with its identity intact; a replaced construct behaviour sees every construction;
// TemplateValue finds goja's own constructor.
//
// As in a realm, everything is installed together on one runtime (the global object's, String.prototype's and
// Array.prototype's derived templates before any script runs, then Function's replaced construct), and each check
// is compiled once and run on it and on the probes' shared runtime (proberuntime.go), the plain goja reference.
func verifyLazy() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while verifying: %v", x)
		}
	}()
	c, err := lazyChecks()
	if err != nil {
		return err
	}
	return withProbeRuntime(func(plain *goja.Runtime) error { return verifyLazyOn(plain, c) })
}

// lazyMethods are the prototype methods verifyLazy guards (GuardCall through a derived template): String.prototype is
// a templated object, Array.prototype a templated array.
var lazyMethods = []struct {
	proto             func(*goja.Runtime) *goja.Object
	name, protoName   string
	probeOK, probeBad string
}{
	{func(rt *goja.Runtime) *goja.Object { return rt.ToValue("").ToObject(rt).Prototype() }, "repeat", "String.prototype", `"ab".repeat(2)`, `"ab".repeat(7)`},
	{func(rt *goja.Runtime) *goja.Object { return rt.NewArray().Prototype() }, "join", "Array.prototype", `[1, 2].join(2)`, `[1, 2].join(7)`},
}

// lazyCheckSet is verifyLazy's scripts, compiled once (a *goja.Program runs on any runtime).
type lazyCheckSet struct {
	keys, ctor, ctorDesc, replace, fnText *goja.Program
	methods                               []*goja.Program // lazyMethods'
}

const lazyCtorCheck = `[typeof Uint8Array, Uint8Array.name, Uint8Array.length, Uint8Array.prototype.constructor === Uint8Array,
	new Uint8Array(3).length, (function () { try { new Uint8Array(7); return "made" } catch (e) { return e } })(),
	(function () { try { Reflect.construct(Uint8Array, [7]); return "made" } catch (e) { return e } })(),
	(function () { class X extends Uint8Array {} var x = new X(2); return x instanceof X && x.length === 2 })(),
	(function () { class X extends Uint8Array {} try { new X(7); return "made" } catch (e) { return e } })(),
	(function () { try { Uint8Array(1); return "called" } catch (e) { return e instanceof TypeError } })(),
	JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "Uint8Array"), ["writable", "enumerable", "configurable"])].join()`

// lazyReplaceCheck runs last on the guarded runtime: it declares globals.
const lazyReplaceCheck = `class F extends Function {}; function X() {}; X.prototype = Object.create(Function.prototype);
	[new Function("return 1")(), new Function("marker") === marker, Function("return 2")(), Function("marker") !== marker,
	Reflect.construct(Function, ["return 3"], X)() === 3, Object.getPrototypeOf(Reflect.construct(Function, [], X)) === X.prototype,
	new F("return 4")() === 4, new F("") instanceof F, (function(){}).constructor === Function,
	Function.prototype.constructor === Function, String(Function)].join()`

var lazyChecks = sync.OnceValues(func() (*lazyCheckSet, error) {
	var c lazyCheckSet
	var errs []error
	compile := func(src string) *goja.Program {
		p, err := goja.Compile("gojainternal-lazy-probe.js", src, false)
		errs = append(errs, err)
		return p
	}
	c.keys = compile(`Reflect.ownKeys(globalThis).map(String).join()`)
	c.ctor = compile(lazyCtorCheck)
	c.ctorDesc = compile(`JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "Uint8Array"), ["writable", "enumerable", "configurable"])`)
	c.replace = compile(lazyReplaceCheck)
	c.fnText = compile(`String(Function)`)
	for _, m := range lazyMethods {
		name := m.protoName + "." + m.name
		c.methods = append(c.methods, compile(`[`+m.probeOK+`, (function () { try { return `+m.probeBad+` } catch (e) { return e } })(), `+
			name+`.name, `+name+`.length, `+name+` === `+name+`, JSON.stringify(Object.getOwnPropertyDescriptor(`+
			m.protoName+`, "`+m.name+`"), ["writable", "enumerable", "configurable"]), Object.getOwnPropertyNames(`+
			m.protoName+`).join()].join("|")`))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &c, nil
})

// verifyLazyOn runs verifyLazy's checks on a fresh runtime, guarded, and on plain.
func verifyLazyOn(plain *goja.Runtime, c *lazyCheckSet) error {
	rt := goja.New()
	refused := rt.ToValue("refused")
	seven := func(v goja.Value) bool { return v != nil && v.ExportType() != nil && v.StrictEquals(rt.ToValue(7)) }
	var hooked []goja.Value
	g := rt.GlobalObject()
	gt, err := deriveTemplate(g, map[string]func(*goja.Runtime, goja.Value){
		"Uint8Array": func(r *goja.Runtime, v goja.Value) {
			hooked = append(hooked, v)
			o, _ := v.(*goja.Object)
			if r != rt || !guardConstruct(o, func(args []goja.Value) {
				if len(args) > 0 && seven(args[0]) {
					panic(refused)
				}
			}) {
				panic(errors.New("cannot guard Uint8Array"))
			}
		},
	})
	if err != nil {
		return err
	}
	if m, ok := gt.install(g); !ok || len(m) != 0 {
		return fmt.Errorf("installing on a fresh global object: %v, %v", m, ok)
	}
	// The prototypes' templates, installed before any script runs (the checks call Array.prototype.join). Each
	// method gets a second guard over the first (GuardCallOver), which sees every call too.
	calls, over := make([]int, len(lazyMethods)), make([]int, len(lazyMethods))
	for i, lm := range lazyMethods {
		proto := lm.proto(rt)
		t, err := deriveTemplate(proto, map[string]func(*goja.Runtime, goja.Value){
			lm.name: func(_ *goja.Runtime, v goja.Value) {
				o, _ := v.(*goja.Object)
				if !guardCall(o, func(orig CallFunc, call goja.FunctionCall) goja.Value {
					calls[i]++
					if seven(call.Argument(0)) {
						panic(refused)
					}
					return orig(call)
				}) || !guardCallOver(o, func(orig CallFunc, call goja.FunctionCall) goja.Value {
					over[i]++
					return orig(call)
				}) {
					panic(errors.New("cannot guard " + lm.name))
				}
			},
		})
		if err != nil {
			return err
		}
		if m, ok := t.install(proto); !ok || len(m) != 0 {
			return fmt.Errorf("installing on %s: %v, %v", lm.protoName, m, ok)
		}
	}

	if a, b := runProgram(rt, c.keys), runProgram(plain, c.keys); a != b {
		return fmt.Errorf("the global object's keys changed: %s, want %s", a, b)
	}
	if len(hooked) != 0 {
		return errors.New("listing the global object's keys ran a hook")
	}
	want := `function,Uint8Array,3,true,3,made,made,true,made,true,` + runProgram(plain, c.ctorDesc)
	if got := runProgram(plain, c.ctor); got != want {
		return fmt.Errorf("plain runtime: %s, want %s", got, want)
	}
	want = `function,Uint8Array,3,true,3,refused,refused,true,refused,true,` + want[len(`function,Uint8Array,3,true,3,made,made,true,made,true,`):]
	if got := runProgram(rt, c.ctor); got != want {
		return fmt.Errorf("guarded constructor: %s, want %s", got, want)
	}
	u8 := g.Get("Uint8Array")
	if len(hooked) != 1 || hooked[0] != u8 {
		return fmt.Errorf("the hook ran %d times", len(hooked))
	}
	if v, ok := templateValue(rt, g, "Uint8Array"); !ok || v != u8 || len(hooked) != 2 {
		return errors.New("TemplateValue does not find the constructor the global holds")
	}
	if v, ok := templateValue(rt, g, "Map"); !ok || v != g.Get("Map") {
		return errors.New("TemplateValue does not find Map")
	}

	for i, lm := range lazyMethods {
		m := lm.protoName + "." + lm.name
		before := calls[i]
		got, want := strings.Split(runProgram(rt, c.methods[i]), "|"), strings.Split(runProgram(plain, c.methods[i]), "|")
		if len(want) != 7 || len(got) != 7 || calls[i]-before < 2 || over[i] != calls[i] { // join also joins the answer
			return fmt.Errorf("guarded %s: %q (%d calls, %d over), plain %q", m, got, calls[i]-before, over[i], want)
		}
		want[1] = "refused"
		if strings.Join(got, "|") != strings.Join(want, "|") {
			return fmt.Errorf("guarded %s: %q, want %q", m, got, want)
		}
	}

	return verifyReplace(rt, plain, c)
}

// verifyReplace confirms, on rt (whose other builtins verifyLazyOn already guarded), that a replaced construct
// behaviour sees each construction with its arguments and new.target, that what it returns is the result, that
// goja's own behaviour still works through orig, and that calls without new and the constructor's identity are
// untouched.
func verifyReplace(rt, plain *goja.Runtime, c *lazyCheckSet) error {
	fn, _ := rt.GlobalObject().Get("Function").(*goja.Object)
	marker := rt.NewObject()
	var targets []*goja.Object
	if !replaceConstruct(fn, func(orig ConstructFunc, args []goja.Value, newTarget *goja.Object) *goja.Object {
		targets = append(targets, newTarget)
		if len(args) == 1 && args[0].StrictEquals(rt.ToValue("marker")) {
			return marker
		}
		return orig(args, newTarget)
	}) {
		return errors.New("cannot replace Function's construct behaviour")
	}
	if err := rt.Set("marker", marker); err != nil {
		return err
	}
	want := `1,true,2,true,true,true,true,true,true,true,` + runProgram(plain, c.fnText)
	if got := runProgram(rt, c.replace); got != want {
		return fmt.Errorf("replaced construct behaviour: %s, want %s", got, want)
	}
	if len(targets) != 6 || targets[0] != nil || targets[1] != nil || targets[2] == fn || targets[2] == nil || targets[4] == fn || targets[4] == nil {
		return fmt.Errorf("the replacement saw new.target %v", targets)
	}
	return nil
}
