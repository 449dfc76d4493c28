package testsupport

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dop251/goja"
)

// LibraryState walks every object a script of rt can reach from globalThis — own property values (string and
// symbol keys, through accessors' getter and setter functions, never calling them) and prototypes — and returns a
// description of each reachable thing that is the library's: a symbol-keyed property of globalThis, or a Go value
// of one of the project's packages wrapped as a JavaScript object. A realm whose state is opaque returns nothing.
// It must run on rt's goroutine.
func LibraryState(rt *goja.Runtime) []string {
	var found []string
	g := rt.GlobalObject()
	for _, s := range g.Symbols() {
		if !wellKnown(s) {
			found = append(found, "globalThis["+s.String()+"]")
		}
	}
	seen := map[*goja.Object]bool{}
	queue := []*goja.Object{g}
	path := map[*goja.Object]string{g: "globalThis"}
	for len(queue) > 0 && len(seen) < 200000 {
		o := queue[0]
		queue = queue[1:]
		if seen[o] {
			continue
		}
		seen[o] = true
		if t := exportType(o); t != nil && isProjectType(t) {
			found = append(found, fmt.Sprintf("%s is a %v", path[o], t))
		}
		push := func(name string, v goja.Value) {
			if c, ok := v.(*goja.Object); ok && c != nil && !seen[c] {
				if _, ok := path[c]; !ok {
					path[c] = path[o] + name
				}
				queue = append(queue, c)
			}
		}
		if p := o.Prototype(); p != nil {
			push(".__proto__", p)
		}
		typed := strings.HasSuffix(o.ClassName(), "Array") && o.ClassName() != "Array"
		for _, k := range o.GetOwnPropertyNames() {
			if typed && k != "" && k[0] >= '0' && k[0] <= '9' {
				continue // a typed array's elements are numbers
			}
			push("."+k, propertyValue(rt, o, rt.ToValue(k)))
		}
		for _, s := range o.Symbols() {
			push("["+s.String()+"]", propertyValue(rt, o, s))
		}
	}
	return found
}

// propertyValue reads o's own property k (a string or a symbol) without running a getter: for an accessor it returns an object holding
// the getter and setter functions, so the walk reaches what they close over only as functions.
func propertyValue(rt *goja.Runtime, o *goja.Object, k goja.Value) goja.Value {
	var v goja.Value
	_ = rt.Try(func() {
		obj := rt.GlobalObject().Get("Object").(*goja.Object)
		fn, _ := goja.AssertFunction(obj.Get("getOwnPropertyDescriptor"))
		d, err := fn(goja.Undefined(), o, k)
		if err != nil {
			return
		}
		if desc, ok := d.(*goja.Object); ok {
			if g := desc.Get("get"); g == nil { // a data property
				v = desc.Get("value")
				return
			}
			v = desc // an accessor: its get / set functions
		}
	})
	return v
}

// isProjectType reports whether t (or what it points to) is declared in one of the project's packages.
func isProjectType(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.HasPrefix(t.PkgPath(), "github.com/jsworker/jsworker")
}

// wellKnown reports whether s is one of the language's well-known symbols (Symbol.toStringTag …).
func wellKnown(s *goja.Symbol) bool {
	for _, w := range []*goja.Symbol{goja.SymHasInstance, goja.SymIsConcatSpreadable, goja.SymIterator,
		goja.SymMatch, goja.SymMatchAll, goja.SymReplace, goja.SymSearch, goja.SymSpecies, goja.SymSplit,
		goja.SymToPrimitive, goja.SymToStringTag, goja.SymUnscopables} {
		if s == w {
			return true
		}
	}
	return false
}

// exportType returns the Go type o exports as, or nil (some host objects panic when exported as a plain object).
func exportType(o *goja.Object) (t reflect.Type) {
	defer func() {
		if recover() != nil {
			t = nil
		}
	}()
	return reflect.TypeOf(o.Export())
}
