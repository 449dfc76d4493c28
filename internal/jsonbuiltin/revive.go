package jsonbuiltin

import (
	"strconv"

	"github.com/dop251/goja"
)

// revive is InternalizeJSONProperty over the parsed value v, with the reviver fn: from a new root object holding v
// under "", every value, deepest first, is replaced by what fn returns for it (deleted when undefined). The walk
// recurses on the Go stack at most MaxParseDepth deep (a reviver can make what it walks deeper than the text was).
func revive(r *Realm, st *stepper, v goja.Value, fn goja.Callable) goja.Value {
	root := r.RT.NewObject()
	_ = root.DefineDataProperty("", v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	w := reviver{r: r, st: st, fn: fn}
	return w.walk(root, "", 0)
}

type reviver struct {
	r  *Realm
	st *stepper
	fn goja.Callable
}

func (w *reviver) walk(holder *goja.Object, name string, depth int) goja.Value {
	w.st.step(1)
	val := holder.Get(name)
	if val == nil {
		val = goja.Undefined()
	}
	if o, ok := val.(*goja.Object); ok {
		if depth >= MaxParseDepth || w.r.deep() {
			w.r.overflow()
		}
		if isArray(w.r.RT, o) {
			n := lengthOf(o)
			for i := int64(0); i < n; i++ {
				w.element(o, strconv.FormatInt(i, 10), depth)
			}
		} else {
			for _, k := range o.Keys() {
				w.element(o, k, depth)
			}
		}
	}
	return call(w.fn, holder, w.r.RT.ToValue(name), val)
}

// element revives o[k]: deletes it when the reviver returns undefined, otherwise CreateDataProperty. Both ignore
// failure, as the specification does (a TypeError from goja means the property could not be changed); any other
// exception passes on.
func (w *reviver) element(o *goja.Object, k string, depth int) {
	nv := w.walk(o, k, depth+1)
	var err error
	if goja.IsUndefined(nv) {
		err = o.Delete(k)
	} else {
		err = o.DefineDataProperty(k, nv, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	if err != nil && !isTypeError(w.r.RT, err) {
		panic(err)
	}
}

// isTypeError reports whether err is a JavaScript TypeError goja threw.
func isTypeError(rt *goja.Runtime, err error) bool {
	ex, ok := err.(*goja.Exception)
	if !ok {
		return false
	}
	o, ok := ex.Value().(*goja.Object)
	if !ok {
		return false
	}
	name := o.Get("name")
	return name != nil && name.String() == "TypeError"
}
