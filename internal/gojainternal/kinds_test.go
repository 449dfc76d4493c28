package gojainternal

import (
	"testing"

	"github.com/dop251/goja"
)

func mustRun(t testing.TB, rt *goja.Runtime, src string) *goja.Object {
	t.Helper()
	o, err := sample(rt, src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return o
}

func TestObjectKind(t *testing.T) {
	rt := goja.New()
	for _, c := range []struct {
		src  string
		want Kind
	}{
		{`({a: 1})`, KindPlain},
		{`Math`, KindOrdinary},
		{`globalThis`, KindOrdinary},
		{`[1, 2]`, KindArray},
		{`class A extends Array {}; new A()`, KindArray},
		{`(function (a) { return arguments; })(1)`, KindArguments},
		{`new Date()`, KindDate},
		{`new RegExp("a", "g")`, KindRegExp},
		{`class M extends Map {}; new M()`, KindMap},
		{`new Set([1])`, KindSet},
		{`new WeakMap()`, KindWeakMap},
		{`new WeakSet()`, KindWeakSet},
		{`new RangeError("x")`, KindError},
		{`new Promise(function () {})`, KindPromise},
		{`new Proxy([], {})`, KindProxy},
		{`Object(1.5)`, KindPrimitive},
		{`new String("abc")`, KindString},
		{`new ArrayBuffer(8)`, KindArrayBuffer},
		{`new BigUint64Array(2)`, KindTypedArray},
		{`new DataView(new ArrayBuffer(8), 2)`, KindDataView},
		{`(function* () { yield 1; })()`, KindGenerator},
		{`[1].keys()`, KindArrayIterator},
		{`new Map().keys()`, KindMapIterator},
		{`new Set().entries()`, KindSetIterator},
		{`"ab"[Symbol.iterator]()`, KindStringIterator},
		{`"ab".matchAll(/a/g)`, KindRegExpStringIterator},
		{`parseInt`, KindNativeFunction},
		{`Array.prototype.map`, KindNativeFunction},
		{`(function () {})`, KindUnknown},
		{`(async () => {})`, KindUnknown},

		// Prototype tampering does not change a kind.
		{`Object.setPrototypeOf(new WeakMap(), Map.prototype)`, KindWeakMap},
		{`Object.setPrototypeOf(new Map(), Object.prototype)`, KindMap},
		{`Object.setPrototypeOf({}, Map.prototype)`, KindPlain},
		{`var o = {}; o[Symbol.toStringTag] = "Map"; o`, KindPlain},
		{`Object.create(Int32Array.prototype)`, KindPlain},
	} {
		o := mustRun(t, rt, c.src)
		if got := ObjectKind(o); got != c.want {
			t.Errorf("%s: kind %s, want %s", c.src, got, c.want)
		}
		// The type-word path and the reflect path agree.
		if got := kinds.byType[implType(o)]; o != nil && selfOf(o).tab != nil && got != c.want {
			t.Errorf("%s: reflect kind %s, want %s", c.src, got, c.want)
		}
	}
	if got := rt.ToValue(func(goja.FunctionCall) goja.Value { return nil }).(*goja.Object); !IsNativeFunction(got) {
		t.Error("a Go function is not a native function")
	}
	for _, v := range []goja.Value{rt.ToValue(struct{ A int }{}), rt.ToValue(map[string]int{}), rt.ToValue([]int{1}), rt.NewDynamicObject(nil)} {
		if k := ObjectKind(v.(*goja.Object)); k != KindUnknown {
			t.Errorf("host object %T: kind %s", v.Export(), k)
		}
	}
	if k := ObjectKind(nil); k != KindInvalid {
		t.Errorf("nil: %s", k)
	}
	if k := ObjectKind(&goja.Object{}); k != KindInvalid {
		t.Errorf("zero goja.Object: %s", k)
	}
}

func TestKindString(t *testing.T) {
	for k := range numKinds {
		if k.String() == "" {
			t.Errorf("kind %d has no name", k)
		}
	}
	if Kind(200).String() != "Kind(200)" || KindMapIterator.String() != "Map Iterator" {
		t.Error("Kind.String")
	}
}

// A failed probe answers KindUnknown for everything, and nothing panics.
func TestKindsFailClosed(t *testing.T) {
	if err := Kinds(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	m := mustRun(t, rt, `new Map()`)
	defer SimulateChange(errSimulated)()
	if k := ObjectKind(m); k != KindUnknown {
		t.Fatalf("kind %s with a failed probe", k)
	}
	if ObjectKind(mustRun(t, rt, `({})`)) != KindUnknown || IsNativeFunction(mustRun(t, rt, `Math.max`)) {
		t.Fatal("an answer with a failed probe")
	}
}

type fakeChange struct{}

func (fakeChange) Error() string { return "simulated layout change" }

var errSimulated error = fakeChange{}

func BenchmarkObjectKind(b *testing.B) {
	rt := goja.New()
	objs := []*goja.Object{mustRun(b, rt, `({})`), mustRun(b, rt, `[]`), mustRun(b, rt, `new Map()`), mustRun(b, rt, `(function () {})`)}
	b.ResetTimer()
	for i := range b.N {
		ObjectKind(objs[i&3])
	}
}
