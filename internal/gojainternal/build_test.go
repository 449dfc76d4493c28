package gojainternal

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

func TestNewPlainObject(t *testing.T) {
	if err := loadBuild(); err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	proto := rt.NewObject().Prototype()
	names := []unistring.String{"b", "2", unistring.NewFromString("é"), "a", "b"}
	values := []goja.Value{rt.ToValue(1), rt.ToValue("two"), rt.ToValue(3.5), rt.NewObject(), rt.ToValue(5)}
	o := rt.CreateObject(proto)
	if !CanFillPlain() || !FillPlainObject(o, names, values) {
		t.Fatal("not filled")
	}
	if FillPlainObject(o, names, values) {
		t.Fatal("filled twice")
	}
	if err := rt.Set("o", o); err != nil {
		t.Fatal(err)
	}
	// The repeated "b" keeps its place and takes its last value; "2" moves
	// to the front when enumerated, as for any object.
	got := mustRun(t, rt, `[Object.getPrototypeOf(o) === Object.prototype, JSON.stringify(o), Object.keys(o).join(),
		JSON.stringify(Object.getOwnPropertyDescriptor(o, "a")), o.b === 5, (o.c = 1, delete o.a, Object.keys(o).join())]`)
	want := `true,{"2":"two","b":5,"é":3.5,"a":{}},2,b,é,a,{"value":{},"writable":true,"enumerable":true,"configurable":true},true,2,b,é,c`
	if s := got.String(); s != want {
		t.Fatalf("got  %s\nwant %s", s, want)
	}
	// PlainKeys reads it once goja has sorted its names.
	if keys, ok := PlainKeys(o, nil); !ok || len(keys) != 4 {
		t.Fatalf("PlainKeys: %v %v", keys, ok)
	}

	// Many properties: a map sized up front.
	var many []unistring.String
	var vals []goja.Value
	for i := range 40 {
		many = append(many, unistring.String("k"+string(rune('A'+i))))
		vals = append(vals, rt.ToValue(i))
	}
	big := rt.CreateObject(nil)
	if !FillPlainObject(big, many, vals) || len(big.Keys()) != 40 || big.Get("kZ").ToInteger() != 25 || big.Prototype() != nil {
		t.Fatalf("40 properties: %v", big.Keys())
	}

	// Mismatched arguments and a failed probe answer false.
	if FillPlainObject(rt.CreateObject(nil), many, vals[:1]) {
		t.Error("mismatched lengths filled")
	}
	if FillPlainObject(nil, nil, nil) {
		t.Error("nil filled")
	}
	for _, src := range []string{`({a: 1})`, `[]`, `new Map()`, `(function () {})`} {
		if FillPlainObject(mustRun(t, rt, src), many[:1], vals[:1]) {
			t.Errorf("%s filled", src)
		}
	}
	restore := SimulateChange(errors.New("simulated"))
	ok := CanFillPlain() || FillPlainObject(rt.CreateObject(nil), nil, nil)
	restore()
	if ok {
		t.Error("filled while the probe fails")
	}
}

// TestBuildProbe_Compares: the probe's checks answer something that tells
// objects apart (each returns a value, not undefined): the same names in
// another order, or another value, give another answer.
func TestBuildProbe_Compares(t *testing.T) {
	checks, err := buildChecks()
	if err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	fns, err := rt.RunProgram(checks)
	if err != nil {
		t.Fatal(err)
	}
	for i := range buildSamples {
		check, ok := goja.AssertFunction(fns.(*goja.Object).Get(fmt.Sprint(i)))
		if !ok {
			t.Fatalf("check %d is not a function", i)
		}
		a := mustRun(t, rt, `({a: 1, b: 2, c: 3, k0: 1, x: 1, __proto__: Object.prototype})`)
		b := mustRun(t, rt, `({c: 3, b: 2, a: 1, k0: 1, x: 1})`)
		got, err := check(goja.Undefined(), a)
		if err != nil || goja.IsUndefined(got) {
			t.Fatalf("check %d (%s): %v, %v", i, buildSamples[i].script, got, err)
		}
		if i == 1 {
			other, _ := check(goja.Undefined(), b)
			if other.String() == got.String() {
				t.Errorf("check %d does not tell {a, b, c} from {c, b, a}: %s", i, got)
			}
		}
	}
}

// TestBuildProbe_DetectsChange: a fill that does not do what goja's own Set
// does (names in another order, a value lost) fails the probe.
func TestBuildProbe_DetectsChange(t *testing.T) {
	if err := loadBuild(); err != nil {
		t.Fatal(err)
	}
	checks, err := buildChecks()
	if err != nil {
		t.Fatal(err)
	}
	reversed := func(o *goja.Object, names []unistring.String, values []goja.Value) {
		n, v := slices.Clone(names), slices.Clone(values)
		slices.Reverse(n)
		slices.Reverse(v)
		fillPlain(o, n, v)
	}
	dropLast := func(o *goja.Object, names []unistring.String, values []goja.Value) {
		if len(names) > 0 {
			names, values = names[:len(names)-1], values[:len(values)-1]
		}
		fillPlain(o, names, values)
	}
	for name, fill := range map[string]func(*goja.Object, []unistring.String, []goja.Value){"reversed": reversed, "dropLast": dropLast} {
		if err := probeBuildOn(goja.New(), checks, fill); err == nil {
			t.Errorf("the probe accepts a %s fill", name)
		}
	}
	if err := probeBuildOn(goja.New(), checks, fillPlain); err != nil {
		t.Errorf("fillPlain: %v", err)
	}
}
