package node

import (
	"testing"

	"github.com/dop251/goja"
)

// TestEnvSnapshot_Same: the snapshot of process.env (envframe.go) answers "unchanged" only for the object it was
// taken of, in the state it was taken in; every change that could change the serialized bytes makes it answer no,
// and a state it cannot compare cheaply (an accessor, an object value) takes no snapshot.
func TestEnvSnapshot_Same(t *testing.T) {
	rt := goja.New()
	fresh := func() *goja.Object {
		v, err := rt.RunString(`({ A: 'a', B: 'b', N: 1 })`)
		if err != nil {
			t.Fatal(err)
		}
		return v.(*goja.Object)
	}
	o := fresh()
	var s envSnapshot
	s.bytes = []byte{1} // as sharedEnv leaves it
	s.take(o)
	if s.obj != o || !s.same(o) {
		t.Fatalf("no snapshot of a plain object of primitives (obj %v)", s.obj)
	}
	if s.same(fresh()) {
		t.Fatal("another object with the same properties counts as the same")
	}
	changes := []string{
		`o.A = 'x'`, `o.A = 'aa'`, `delete o.A`, `o.C = 'c'`, `delete o.A; o.A = 'a'`, `o.N = 1.5`, `o.N = '1'`,
		`o.N = -0`, `o.N = 2`, `o.B = { v: 1 }`, `Object.defineProperty(o, 'B', { enumerable: false })`,
		`Object.defineProperty(o, 'A', { get() { return 'a'; }, enumerable: true })`,
	}
	for _, change := range changes {
		o = fresh()
		s.take(o)
		if !s.same(o) {
			t.Fatalf("%s: not the same before the change", change)
		}
		_ = rt.Set("o", o)
		if _, err := rt.RunString(change); err != nil {
			t.Fatal(change, err)
		}
		if s.same(o) {
			t.Errorf("%s: still the same", change)
		}
	}
	// Changes that keep the state: a value set again, a non-enumerable or symbol-keyed property added.
	for _, keep := range []string{`o.A = 'a'`, `Object.defineProperty(o, 'H', { value: 1, enumerable: false })`, `o[Symbol()] = 1`} {
		o = fresh()
		s.take(o)
		_ = rt.Set("o", o)
		if _, err := rt.RunString(keep); err != nil {
			t.Fatal(keep, err)
		}
		if !s.same(o) {
			t.Errorf("%s: no longer the same", keep)
		}
	}
	// No snapshot of what cannot be compared by its names and primitive values.
	for _, src := range []string{`({ A: 'a', O: {} })`, `({ get A() { return 'a'; } })`, `new Proxy({ A: 'a' }, {})`, `[1, 2]`} {
		v, err := rt.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		s.take(v.(*goja.Object))
		if s.obj != nil || s.same(v.(*goja.Object)) {
			t.Errorf("%s: a snapshot was taken", src)
		}
	}
	s.take(nil)
	if s.obj != nil {
		t.Error("a snapshot of nil")
	}
}
