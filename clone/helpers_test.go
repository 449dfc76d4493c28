package clone_test

import (
	"testing"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/clone"
)

// run evaluates src in rt and fails the test on error.
func run(t testing.TB, rt *goja.Runtime, src string) goja.Value {
	t.Helper()
	v, err := rt.RunString(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v
}

// serialize evaluates src in a fresh runtime and serializes the result.
func serialize(t testing.TB, src string, opts clone.Options) (*clone.Frame, error) {
	t.Helper()
	rt := goja.New()
	defer clone.ReleaseRealm(rt)
	return clone.Serialize(rt, run(t, rt, src), opts)
}

// mustSerialize is serialize that fails the test on error.
func mustSerialize(t testing.TB, src string) *clone.Frame {
	t.Helper()
	f, err := serialize(t, src, clone.Options{})
	if err != nil {
		t.Fatalf("Serialize(%s): %v", src, err)
	}
	return f
}

// deserialize decodes a copy of b in a fresh runtime, which it returns too.
func deserialize(b []byte) (*goja.Runtime, goja.Value, error) {
	rt := goja.New()
	v, err := clone.Deserialize(rt, clone.NewFrame(append([]byte(nil), b...)))
	return rt, v, err
}

// check sets v in rt and evaluates cond, which must be true.
func check(t testing.TB, rt *goja.Runtime, v goja.Value, cond string) {
	t.Helper()
	if err := rt.Set("v", v); err != nil {
		t.Fatal(err)
	}
	got, err := rt.RunString(cond)
	if err != nil {
		t.Fatalf("%s: %v", cond, err)
	}
	if !got.ToBoolean() {
		t.Errorf("not true: %s", cond)
	}
}
