package clone_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// newRealm returns a runtime with structuredClone installed.
func newRealm(t testing.TB) *goja.Runtime {
	t.Helper()
	rt := goja.New()
	if err := clone.InstallStructuredClone(rt); err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestStructuredClone(t *testing.T) {
	tests := []struct{ name, src string }{
		{"shape", `var d = Object.getOwnPropertyDescriptor(globalThis, "structuredClone");
			typeof structuredClone === "function" && structuredClone.name === "structuredClone" && structuredClone.length === 1 &&
			d.writable && d.configurable && !d.enumerable && !Object.keys(globalThis).includes("structuredClone")`},
		{"copy", `var o = {a: [1, {b: 2}], m: new Map([[1, 2]])}; o.self = o; var c = structuredClone(o);
			c !== o && c.a !== o.a && c.self === c && c.a[1].b === 2 && c.m.get(1) === 2`},
		{"primitives", `structuredClone(1) === 1 && Object.is(structuredClone(-0), -0) && structuredClone("\ud800") === "\ud800" &&
			structuredClone(undefined) === undefined && structuredClone(null) === null && structuredClone(5n) === 5n`},
		{"options undefined or null", `structuredClone(1, undefined) === 1 && structuredClone(1, null) === 1 && structuredClone(1, {}) === 1 &&
			structuredClone(1, {transfer: undefined}) === 1`},
		{"transfer", `var b = new ArrayBuffer(4); new Uint8Array(b)[0] = 3; var c = structuredClone({b}, {transfer: [b]});
			b.byteLength === 0 && c.b.byteLength === 4 && new Uint8Array(c.b)[0] === 3`},
		{"transfer from any iterable", `var b = new ArrayBuffer(4); var c = structuredClone(b, {transfer: new Set([b])});
			b.byteLength === 0 && c.byteLength === 4`},
		{"transfer getter runs once", `var n = 0; var b = new ArrayBuffer(1); structuredClone(b, {get transfer() { n++; return [b]; }}); n === 1`},
		{"DataCloneError", `var e; try { structuredClone({f() {}}); } catch (x) { e = x; }
			e instanceof Error && e.name === "DataCloneError" && e.code === 25 && e.message === "function f() {…} could not be cloned." &&
			String(e) === "DataCloneError: function f() {…} could not be cloned."`},
		{"DataCloneError for the transfer list", `var e; try { structuredClone(1, {transfer: [{}]}); } catch (x) { e = x; } e.name === "DataCloneError"`},
		{"DataCloneError for a detached buffer", `var b = new ArrayBuffer(1); structuredClone(b, {transfer: [b]});
			var e; try { structuredClone(b, {transfer: [b]}); } catch (x) { e = x; } e.name === "DataCloneError"`},
		{"nothing detached on failure", `var b = new ArrayBuffer(1); try { structuredClone([b, Symbol()], {transfer: [b]}); } catch (x) {} b.byteLength === 1`},
		{"getter exception passes through", `var boom = new RangeError("boom"); var e; try { structuredClone({get x() { throw boom; }}); } catch (x) { e = x; } e === boom`},
		{"thrown primitive passes through", `var e; try { structuredClone({get x() { throw 7; }}); } catch (x) { e = x; } e === 7`},
		{"no argument", `var e; try { structuredClone(); } catch (x) { e = x; } e instanceof TypeError`},
		{"options not an object", `var e; try { structuredClone(1, 2); } catch (x) { e = x; } e instanceof TypeError`},
		{"transfer not iterable", `var e; try { structuredClone(1, {transfer: {}}); } catch (x) { e = x; } e instanceof TypeError`},
		{"transfer a number", `var e; try { structuredClone(1, {transfer: 5}); } catch (x) { e = x; } e instanceof TypeError`},
		{"transfer of a primitive", `var e; try { structuredClone(1, {transfer: [1]}); } catch (x) { e = x; } e instanceof TypeError`},
		{"works after globals change", `var E = Error; globalThis.Error = null; delete globalThis.Map;
			var e; try { structuredClone(Symbol()); } catch (x) { e = x; } e instanceof E && e.name === "DataCloneError"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := newRealm(t)
			if !run(t, rt, tt.src).ToBoolean() {
				t.Errorf("not true: %s", tt.src)
			}
		})
	}
}

// TestStructuredCloneInterrupt checks that an interrupt raised in a getter
// is not turned into a catchable error.
func TestStructuredCloneInterrupt(t *testing.T) {
	rt := newRealm(t)
	rt.Interrupt("halt")
	_, err := rt.RunString(`try { structuredClone({get x() { for (;;) {} }}); } catch (e) { "caught" }`)
	if _, ok := err.(*goja.InterruptedError); !ok {
		t.Fatalf("got %v (%T), want *goja.InterruptedError", err, err)
	}
}
