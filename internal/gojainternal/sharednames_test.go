package gojainternal

import (
	"errors"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// Objects sharing one names slice each change on their own; the slice and
// the others stay as they were.
func TestFillPlainObjectShared(t *testing.T) {
	if err := loadShare(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	proto := rt.NewObject().Prototype()
	names := []unistring.String{"id", "name", unistring.NewFromString("é"), "1"}
	shared := SharedNames(names)
	if shared == nil {
		t.Fatal("no shared names")
	}
	objs := make([]*goja.Object, 6)
	for i := range objs {
		objs[i] = rt.CreateObject(proto)
		vals := []goja.Value{rt.ToValue(i), rt.ToValue("n"), rt.ToValue(1.5), rt.ToValue(true)}
		if !FillPlainObjectShared(objs[i], shared, vals) {
			t.Fatal("not filled")
		}
	}
	rt.Set("objs", objs)
	got := mustRunValue(t, rt, `
		var o = objs;
		o[0].extra = 1;                       // add
		delete o[1].name;                     // delete
		for (var k in o[2]) { delete o[2].id; o[2].z = 1; }  // iterate while changing
		Object.keys(o[3]); o[3][0] = 0;        // an index name after enumeration
		Object.freeze(o[4]); o[4].q = 1;
		o.map(function (x) { return Object.keys(x).join(","); }).join(" | ")`)
	want := `1,id,name,é,extra | 1,id,é | 1,name,é,z | 0,1,id,name,é | 1,id,name,é | 1,id,name,é`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if s := shared[:len(shared)+1]; s[4] != copyMarker || s[0] != "id" || s[3] != "1" {
		t.Errorf("the shared slice changed: %q", s)
	}
	if FillPlainObjectShared(objs[5], shared, make([]goja.Value, 4)) {
		t.Error("an object with properties filled again")
	}
	if SharedNames([]unistring.String{"a", "b", "a"}) != nil || SharedNames(nil) != nil {
		t.Error("repeated or no names shared")
	}
	if FillPlainObjectShared(rt.CreateObject(nil), names, make([]goja.Value, 4)) {
		t.Error("a slice not made by SharedNames accepted")
	}
	restore := SimulateChange(errors.New("simulated"))
	defer restore()
	if SharedNames(names) != nil || FillPlainObjectShared(rt.CreateObject(nil), shared, make([]goja.Value, 4)) {
		t.Error("shared while the probe fails")
	}
}

func mustRunValue(t *testing.T, rt *goja.Runtime, src string) string {
	t.Helper()
	v, err := rt.RunString(src)
	if err != nil {
		t.Fatal(err)
	}
	return v.String()
}
