package gojainternal

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/dop251/goja"
)

func TestLazyPropsProbe(t *testing.T) {
	if err := LazyProps(); err != nil {
		t.Fatal(err)
	}
}

// jsFactory makes each property by running JavaScript in the realm (as core's method maker does), counting makes.
func jsFactory(made map[string]int) *LazyFactory {
	return NewLazyFactory(func(rt *goja.Runtime, name string) Prop {
		made[name]++
		v, err := rt.RunString(`(function () { return { ` + name + `() { return "` + name + `" } }.` + name + ` })()`)
		if err != nil {
			panic(err)
		}
		return Prop{Value: v, Writable: true, Configurable: true}
	})
}

// TestDefineLazy_Touches: every way a script first touches a lazy property makes it once, in the middle of the goja
// instruction that touched it, with the value and attributes an eager definition has; listing names and asking
// hasOwnProperty or `in` make nothing.
func TestDefineLazy_Touches(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		makes           int
	}{
		{"names", `Object.getOwnPropertyNames(o).join() + " " + ("a" in o) + o.hasOwnProperty("b")`, "constructor,a,b,c truetrue", 0},
		{"get", `o.a() + o.a()`, "aa", 1},
		{"call through an instance", `new C().b()`, "b", 1},
		{"descriptor", `JSON.stringify(Object.getOwnPropertyDescriptor(o, "c"), ["writable", "enumerable", "configurable"])`, `{"writable":true,"enumerable":false,"configurable":true}`, 1},
		{"for-in", `var k = []; for (var x in o) k.push(x); k.join() + Object.keys(o).length`, "0", 3},
		{"delete", `delete o.b; Object.getOwnPropertyNames(o).join() + ("b" in o)`, "constructor,a,cfalse", 1},
		{"defineProperty", `Object.defineProperty(o, "a", { value: 1 }); o.a + Object.getOwnPropertyNames(o).join()`, "1constructor,a,b,c", 1},
		{"assignment", `o.c = 2; o.c + Object.getOwnPropertyNames(o).join()`, "2constructor,a,b,c", 1},
		{"global lookup", `typeof g + g() + globalThis.g.name`, "functiongg", 1},
		{"global listing", `var n = Object.getOwnPropertyNames(globalThis); n.slice(n.indexOf("before"), n.indexOf("before") + 3).join()`, "before,g,after", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt := goja.New()
			o, err := sample(rt, `class C { constructor() {} }; globalThis.before = 1; C.prototype`)
			if err != nil {
				t.Fatal(err)
			}
			made := map[string]int{}
			f := jsFactory(made)
			if !DefineLazy(o, f, "a", "b", "c") || !DefineLazy(rt.GlobalObject(), f, "g") {
				t.Fatal("DefineLazy refused")
			}
			if _, err := rt.RunString(`globalThis.after = 2; globalThis.o = C.prototype`); err != nil {
				t.Fatal(err)
			}
			if got := run(rt, c.src); got != c.want {
				t.Errorf("%s = %q, want %q", c.src, got, c.want)
			}
			n := 0
			for name, k := range made {
				if k != 1 {
					t.Errorf("%s made %d times", name, k)
				}
				n += k
			}
			if n != c.makes {
				t.Errorf("made %v, want %d properties made", made, c.makes)
			}
		})
	}
}

// TestDefineLazy_Reentrant: a factory that reaches its own property (a lookup, a definition, a for-in over the
// object, all from JavaScript it runs) gets a TypeError there instead of recursing, and what it then returns is
// the property, listed once; a factory that throws makes the touching access throw and stores nothing, and the next
// access asks again.
func TestDefineLazy_Reentrant(t *testing.T) {
	rt := goja.New()
	fail := true
	var seen []string
	f := NewLazyFactory(func(rt *goja.Runtime, name string) Prop {
		switch name {
		case "self":
			seen = append(seen, run(rt, `(function () { try { return typeof self } catch (e) { return e.name } })()`))
			seen = append(seen, run(rt, `(function () { try { globalThis.self = 1; return "set" } catch (e) { return e.name } })()`))
			seen = append(seen, run(rt, `(function () { try { for (var k in globalThis); return "listed" } catch (e) { return e.name } })()`))
			seen = append(seen, run(rt, `typeof other`)) // another lazy property: made inside
		case "flaky":
			if fail {
				fail = false
				panic(rt.NewTypeError("not yet"))
			}
		}
		return Prop{Value: rt.ToValue(name + "!"), Writable: true, Configurable: true}
	})
	if !DefineLazy(rt.GlobalObject(), f, "self", "other") {
		t.Fatal("DefineLazy refused")
	}
	if got := run(rt, `self`); got != "self!" {
		t.Fatalf("self = %q", got)
	}
	if want := "TypeError,TypeError,TypeError,string"; strings.Join(seen, ",") != want {
		t.Errorf("inside the factory: %v, want %s", seen, want)
	}
	if got := run(rt, `Object.getOwnPropertyNames(globalThis).filter((n) => n === "self" || n === "other").join()`); got != "self,other" {
		t.Errorf("names %q", got)
	}
	o := rt.NewObject()
	if !DefineLazy(o, f, "flaky") || rt.Set("o", o) != nil {
		t.Fatal("DefineLazy refused")
	}
	if got := run(rt, `(function () { try { return o.flaky } catch (e) { return e.message } })() + " " + o.flaky + " " + o.flaky`); got != "not yet flaky! flaky!" {
		t.Errorf("a throwing factory: %q", got)
	}
}

// TestDefineLazy_Refuses: names the object has, array-index names, objects that are neither ordinary nor goja's
// templated global, and a failed probe are refused without changing anything.
func TestDefineLazy_Refuses(t *testing.T) {
	rt := goja.New()
	f := jsFactory(map[string]int{})
	o := rt.NewObject()
	_ = o.Set("x", 1)
	for _, c := range []struct {
		name  string
		o     *goja.Object
		names []string
	}{
		{"present", o, []string{"y", "x"}},
		{"twice", o, []string{"y", "y"}},
		{"index", o, []string{"0"}},
		{"array", rt.NewArray(), []string{"y"}},
		{"function", rt.ToValue(func() {}).(*goja.Object), []string{"y"}},
		{"goja's own global", rt.GlobalObject(), []string{"Object"}},
		{"none", o, nil},
	} {
		if DefineLazy(c.o, f, c.names...) {
			t.Errorf("%s: accepted", c.name)
		}
	}
	if got := run(rt, `1`); got != "1" {
		t.Fatal(got)
	}
	restore := SimulateChange(errors.New("simulated"))
	ok := DefineLazy(rt.NewObject(), f, "y")
	restore()
	if ok {
		t.Error("accepted while the probe fails")
	}
}

// TestDefineLazy_UnderLazyGuard: a lazy-guard Template installed after lazy properties were added keeps them, and
// its hooks still run; Settle makes what is left.
func TestDefineLazy_UnderLazyGuard(t *testing.T) {
	rt := goja.New()
	g := rt.GlobalObject()
	made := map[string]int{}
	if !DefineLazy(g, jsFactory(made), "lazyOne") {
		t.Fatal("DefineLazy refused")
	}
	hooked := 0
	tmpl, err := DeriveTemplate(goja.New().GlobalObject(), map[string]func(*goja.Runtime, goja.Value){
		"Uint8Array": func(*goja.Runtime, goja.Value) { hooked++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := tmpl.Install(g); !ok || len(m) != 0 {
		t.Fatalf("Install over lazy properties: %v, %v", m, ok)
	}
	if got := run(rt, `typeof Uint8Array + lazyOne() + Object.getOwnPropertyNames(globalThis).includes("lazyOne")`); got != "functionlazyOnetrue" {
		t.Errorf("got %q", got)
	}
	if hooked != 1 || made["lazyOne"] != 1 {
		t.Errorf("hooked %d, made %v", hooked, made)
	}
	if !DefineLazy(g, jsFactory(made), "lazyTwo") || !Settle(rt, g, "lazyTwo", "noSuchName") || made["lazyTwo"] != 1 {
		t.Errorf("Settle: made %v", made)
	}
}

// TestDefineLazy_Hammer: realms on many goroutines derive and share the same templates.
func TestDefineLazy_Hammer(t *testing.T) {
	n := 8
	if testing.Short() {
		n = 4
	}
	f := NewLazyFactory(func(rt *goja.Runtime, name string) Prop {
		return Prop{Value: rt.ToValue(name), Writable: true, Configurable: true}
	})
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				rt := goja.New()
				o := rt.NewObject()
				if !DefineLazy(rt.GlobalObject(), f, "h1", "h2") || !DefineLazy(o, f, "p") || !DefineLazy(o, f, "q") {
					errs <- errors.New("refused")
					return
				}
				_ = rt.Set("o", o)
				if got := run(rt, `h1 + h2 + o.p + o.q + Object.keys(o).length`); got != "h1h2pq0" {
					errs <- errors.New(got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
