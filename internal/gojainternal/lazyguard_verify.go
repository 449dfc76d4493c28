package gojainternal

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// verifyLazy confirms, on a private runtime and through the public API only, that what locateLazy found behaves as
// lazyguard.go relies on: a derived template's hooks run once goja makes the property and before a script sees it;
// the object keeps its keys, order and descriptors; a guarded constructor or method refuses what its check refuses
// and otherwise answers as before, with its identity intact; TemplateValue finds goja's own constructor.
func verifyLazy() (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = fmt.Errorf("panic while verifying: %v", x)
		}
	}()
	rt, plain := goja.New(), goja.New()
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
	keys := `Reflect.ownKeys(globalThis).map(String).join()`
	if a, b := run(rt, keys), run(plain, keys); a != b {
		return fmt.Errorf("the global object's keys changed: %s, want %s", a, b)
	}
	if len(hooked) != 0 {
		return errors.New("listing the global object's keys ran a hook")
	}
	const ctorCheck = `[typeof Uint8Array, Uint8Array.name, Uint8Array.length, Uint8Array.prototype.constructor === Uint8Array,
		new Uint8Array(3).length, (function () { try { new Uint8Array(7); return "made" } catch (e) { return e } })(),
		(function () { try { Reflect.construct(Uint8Array, [7]); return "made" } catch (e) { return e } })(),
		(function () { class X extends Uint8Array {} var x = new X(2); return x instanceof X && x.length === 2 })(),
		(function () { class X extends Uint8Array {} try { new X(7); return "made" } catch (e) { return e } })(),
		(function () { try { Uint8Array(1); return "called" } catch (e) { return e instanceof TypeError } })(),
		JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "Uint8Array"), ["writable", "enumerable", "configurable"])].join()`
	want := `function,Uint8Array,3,true,3,made,made,true,made,true,` + run(plain, `JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "Uint8Array"), ["writable", "enumerable", "configurable"])`)
	if got := run(plain, ctorCheck); got != want {
		return fmt.Errorf("plain runtime: %s, want %s", got, want)
	}
	want = `function,Uint8Array,3,true,3,refused,refused,true,refused,true,` + want[len(`function,Uint8Array,3,true,3,made,made,true,made,true,`):]
	if got := run(rt, ctorCheck); got != want {
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

	if err := verifyReplace(); err != nil {
		return err
	}

	// Methods of the prototypes: String.prototype is a templated object, Array.prototype a templated array. A fresh
	// runtime for each, where it was not made yet (the checks call Array.prototype.join).
	for _, c := range []struct {
		proto             func(*goja.Runtime) *goja.Object
		name, protoName   string
		probeOK, probeBad string
	}{
		{func(rt *goja.Runtime) *goja.Object { return rt.ToValue("").ToObject(rt).Prototype() }, "repeat", "String.prototype", `"ab".repeat(2)`, `"ab".repeat(7)`},
		{func(rt *goja.Runtime) *goja.Object { return rt.NewArray().Prototype() }, "join", "Array.prototype", `[1, 2].join(2)`, `[1, 2].join(7)`},
	} {
		rt := goja.New()
		refused := rt.ToValue("refused")
		proto, calls := c.proto(rt), 0
		t, err := deriveTemplate(proto, map[string]func(*goja.Runtime, goja.Value){
			c.name: func(_ *goja.Runtime, v goja.Value) {
				o, _ := v.(*goja.Object)
				if !guardCall(o, func(orig CallFunc, call goja.FunctionCall) goja.Value {
					calls++
					if seven(call.Argument(0)) {
						panic(refused)
					}
					return orig(call)
				}) {
					panic(errors.New("cannot guard " + c.name))
				}
			},
		})
		if err != nil {
			return err
		}
		if m, ok := t.install(proto); !ok || len(m) != 0 {
			return fmt.Errorf("installing on %s: %v, %v", c.protoName, m, ok)
		}
		m := c.protoName + "." + c.name
		check := `[` + c.probeOK + `, (function () { try { return ` + c.probeBad + ` } catch (e) { return e } })(), ` +
			m + `.name, ` + m + `.length, ` + m + ` === ` + m + `, JSON.stringify(Object.getOwnPropertyDescriptor(` +
			c.protoName + `, "` + c.name + `"), ["writable", "enumerable", "configurable"]), Object.getOwnPropertyNames(` +
			c.protoName + `).join()].join("|")`
		got, want := strings.Split(run(rt, check), "|"), strings.Split(run(plain, check), "|")
		if len(want) != 7 || len(got) != 7 || calls < 2 { // join also joins the answer
			return fmt.Errorf("guarded %s: %q (%d calls), plain %q", m, got, calls, want)
		}
		want[1] = "refused"
		if strings.Join(got, "|") != strings.Join(want, "|") {
			return fmt.Errorf("guarded %s: %q, want %q", m, got, want)
		}
	}
	return nil
}

// verifyReplace confirms that a replaced construct behaviour sees each construction with its arguments and
// new.target, that what it returns is the result, that goja's own behaviour still works through orig, and that
// calls without new and the constructor's identity are untouched.
func verifyReplace() error {
	rt := goja.New()
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
	const check = `class F extends Function {}; function X() {}; X.prototype = Object.create(Function.prototype);
		[new Function("return 1")(), new Function("marker") === marker, Function("return 2")(), Function("marker") !== marker,
		Reflect.construct(Function, ["return 3"], X)() === 3, Object.getPrototypeOf(Reflect.construct(Function, [], X)) === X.prototype,
		new F("return 4")() === 4, new F("") instanceof F, (function(){}).constructor === Function,
		Function.prototype.constructor === Function, String(Function)].join()`
	want := `1,true,2,true,true,true,true,true,true,true,` + run(goja.New(), `String(Function)`)
	if got := run(rt, check); got != want {
		return fmt.Errorf("replaced construct behaviour: %s, want %s", got, want)
	}
	if len(targets) != 6 || targets[0] != nil || targets[1] != nil || targets[2] == fn || targets[2] == nil || targets[4] == fn || targets[4] == nil {
		return fmt.Errorf("the replacement saw new.target %v", targets)
	}
	return nil
}

// run evaluates src in rt and returns its string value (or the error's text).
func run(rt *goja.Runtime, src string) string {
	v, err := rt.RunString(src)
	if err != nil {
		return "error: " + err.Error()
	}
	return v.String()
}
