package gojainternal

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/dop251/goja"
	"github.com/dop251/goja/unistring"
)

// Building a plain object in one step.
//
// Through the public API every property of a new object costs a Set: a
// goja try frame, a ToValue, a name conversion, a prototype-chain lookup for
// a setter, and the growth of the property map and of the names slice one
// entry at a time. goja's own _put, the step every new data property of a
// plain object ends in, does two things: values[name] = v, and name
// appended to propNames (integer-like names are put in order lazily, at the
// first enumeration, from lastSortedPropLen on). FillPlainObject does exactly
// that for all properties at once, into a new plain object made by the
// public CreateObject, with the map and the slice sized once. The probe builds
// objects both ways and compares what scripts can see of them, including
// what goja does to them afterwards (adding, deleting, sorting names,
// freezing); it fails closed, and FillPlainObject then answers false.

var build struct {
	once sync.Once
	err  error
}

func loadBuild() error {
	build.once.Do(func() {
		if err := loadProps(); err != nil {
			build.err = err
			return
		}
		if err := probeBuild(); err != nil {
			build.err = probeError("object construction", err)
		}
	})
	if err := simulatedErr(); err != nil {
		return err
	}
	return build.err
}

// smallMap is the largest property count goja's empty map takes without
// growing past its first group (Go's maps hold 8 entries in one group).
const smallMap = 8

// CanFillPlain reports whether FillPlainObject works: its probe passed.
func CanFillPlain() bool { return loadBuild() == nil }

// FillPlainObject gives o, a new object of goja's usual plain type (made by
// Runtime.CreateObject) that has no own property yet, the own properties
// names[i]: values[i], in that order, each a writable, enumerable,
// configurable data property: what a Set per property gives on an object
// without a prototype, that is CreateDataProperty, whatever o's prototype
// (no setter runs, "__proto__" is an ordinary name). A name given twice
// keeps its first position and its last value. values[i] must be non-nil
// values of o's runtime. It runs no JavaScript. It returns false, and
// changes nothing, if the probe failed or o is not such an object: then
// use Set.
func FillPlainObject(o *goja.Object, names []unistring.String, values []goja.Value) bool {
	if o == nil || len(names) != len(values) || loadBuild() != nil || selfOf(o).tab != kinds.plainTab {
		return false
	}
	p := selfOf(o).data
	if len(valuesOf(o)) != 0 || len(*(*[]unistring.String)(unsafe.Add(p, props.names))) != 0 ||
		*(*int)(unsafe.Add(p, props.sorted)) != 0 {
		return false
	}
	fillPlain(o, names, values)
	return true
}

// fillPlain stores names and values into o, a fresh plain object with no
// property.
func fillPlain(o *goja.Object, names []unistring.String, values []goja.Value) {
	p := selfOf(o).data
	m := *(*map[unistring.String]goja.Value)(unsafe.Add(p, props.values))
	if len(names) > smallMap {
		m = make(map[unistring.String]goja.Value, len(names))
	}
	pn := make([]unistring.String, 0, len(names))
	for i, n := range names {
		if _, dup := m[n]; !dup {
			pn = append(pn, n)
		}
		m[n] = values[i]
	}
	*(*map[unistring.String]goja.Value)(unsafe.Add(p, props.values)) = m
	*(*[]unistring.String)(unsafe.Add(p, props.names)) = pn
}

// buildSamples are the layouts the probe builds both ways: names, then a
// function body run on the object (as o) whose result must be the same for
// both.
var buildSamples = []struct{ names, script string }{
	{"", `return JSON.stringify(o) + (Object.getPrototypeOf(o) === Object.prototype)`},
	{"a b c", `return JSON.stringify(o) + Object.keys(o) + o.hasOwnProperty("b")`},
	{"b 2 a 1", `return JSON.stringify(o) + Object.keys(o) + Object.getOwnPropertyNames(o)`},
	{"x y x", `return JSON.stringify(o) + Object.keys(o)`},
	{"__proto__ a", `return JSON.stringify(Object.getOwnPropertyDescriptor(o, "__proto__")) + Object.keys(o) + (Object.getPrototypeOf(o) === Object.prototype)`},
	{"a b c d", `delete o.b; o.e = 9; o[3] = 1; return JSON.stringify(o) + Object.keys(o)`},
	{"a b", `var s = ""; for (var k in o) { s += k; delete o.b; o.z = 1; } return s + JSON.stringify(o)`},
	{"a b", `Object.freeze(o); o.c = 1; o.a = 5; delete o.b; return JSON.stringify(o) + Object.isFrozen(o)`},
	{"a b", `return JSON.stringify(Object.getOwnPropertyDescriptors(o))`},
	{"k0 k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11", `delete o.k5; o.k12 = 1; return JSON.stringify(o) + Object.keys(o).length`},
	{"é € a", `return JSON.stringify(o) + Object.keys(o) + o["€"]`},
	{"a b", `var p = Object.assign({}, o); var q = {...o}; return JSON.stringify([p, q]) + Object.entries(o)`},
}

// buildChecks is buildSamples' scripts as one program, compiled once per
// process whatever runtime runs it: an array of functions of o.
var buildChecks = sync.OnceValues(func() (*goja.Program, error) {
	var src strings.Builder
	src.WriteString("[")
	for _, s := range buildSamples {
		src.WriteString("function (o) { " + s.script + " },\n")
	}
	src.WriteString("]")
	return goja.Compile("gojainternal-build-probe.js", src.String(), false)
})

func probeBuild() error {
	checks, err := buildChecks()
	if err != nil {
		return err
	}
	return withProbeRuntime(func(rt *goja.Runtime) error { return probeBuildOn(rt, checks, fillPlain) })
}

// probeBuildOn builds every sample both ways in rt, with Set and with fill,
// and compares what the checks see of them. It leaves nothing behind in rt
// but garbage.
func probeBuildOn(rt *goja.Runtime, checks *goja.Program, fill func(*goja.Object, []unistring.String, []goja.Value)) error {
	proto := rt.NewObject().Prototype()
	v, err := rt.RunProgram(checks)
	if err != nil {
		return err
	}
	fns, ok := v.(*goja.Object)
	if !ok {
		return errors.New("the probe's checks are not an array")
	}
	for i, s := range buildSamples {
		check, ok := goja.AssertFunction(fns.Get(strconv.Itoa(i)))
		if !ok {
			return fmt.Errorf("the probe's check %d is not a function", i)
		}
		var names []unistring.String
		var values []goja.Value
		for i, n := range strings.Fields(s.names) {
			names = append(names, unistring.NewFromString(n))
			values = append(values, rt.ToValue(i+1))
		}
		// The reference: Set on an object without a prototype, which is
		// CreateDataProperty, then the prototype.
		ref := rt.CreateObject(nil)
		for i, n := range names {
			if err := ref.Set(n.String(), values[i]); err != nil {
				return err
			}
		}
		if err := ref.SetPrototype(proto); err != nil {
			return err
		}
		o := rt.CreateObject(proto)
		if selfOf(o).tab != kinds.plainTab {
			return errors.New("CreateObject does not make goja's usual plain object")
		}
		if len(valuesOf(o)) != 0 || len(*(*[]unistring.String)(unsafe.Add(selfOf(o).data, props.names))) != 0 {
			return errors.New("a new object already has properties")
		}
		fill(o, names, values)
		want, err := check(goja.Undefined(), ref)
		if err != nil {
			return err
		}
		got, err := check(goja.Undefined(), o)
		if err != nil {
			return err
		}
		if goja.IsUndefined(want) || got.String() != want.String() {
			return fmt.Errorf("names %q: built object gives %s, one made with Set gives %s", s.names, got, want)
		}
	}
	return nil
}
