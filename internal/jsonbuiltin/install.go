package jsonbuiltin

import (
	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// Install makes parse and stringify of json, the JSON object of r.RT, these builtins, and removes rawJSON and
// isRawJSON (goja has them; Node 20 does not). Where gojainternal can change goja's native functions, parse and
// stringify stay the same function objects, with their names, lengths and attributes, and only their behaviour
// changes; otherwise they are replaced by new functions with the same name, length and attributes. Install runs
// no JavaScript; it is called on the realm's goroutine before any script sees json.
func Install(r *Realm, json *goja.Object) error {
	parse := func(call goja.FunctionCall) goja.Value {
		return Parse(r, toString(r.RT, call.Argument(0)), call.Argument(1))
	}
	stringify := func(call goja.FunctionCall) goja.Value {
		return Stringify(r, call.Argument(0), call.Argument(1), call.Argument(2))
	}
	for _, f := range []struct {
		name   string
		length int
		fn     func(goja.FunctionCall) goja.Value
	}{{"parse", 2, parse}, {"stringify", 3, stringify}} {
		if err := replace(r.RT, json, f.name, f.length, f.fn); err != nil {
			return err
		}
	}
	for _, name := range []string{"rawJSON", "isRawJSON"} {
		if err := json.Delete(name); err != nil {
			return err
		}
	}
	return nil
}

// replace gives json's function name the behaviour fn: in place, or as a new function.
func replace(rt *goja.Runtime, json *goja.Object, name string, length int, fn func(goja.FunctionCall) goja.Value) error {
	if o, ok := json.Get(name).(*goja.Object); ok && gojainternal.GuardCallOver(o, func(_ gojainternal.CallFunc, call goja.FunctionCall) goja.Value {
		return fn(call)
	}) {
		return nil
	}
	f := rt.ToValue(fn).(*goja.Object)
	if err := f.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	if err := f.DefineDataProperty("length", rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	return json.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// toString is ToString(v): a TypeError for a symbol, an object's toString or valueOf for an object.
func toString(rt *goja.Runtime, v goja.Value) goja.String {
	if o, ok := v.(*goja.Object); ok {
		v = o.ToString() // ToPrimitive(v, string): the object's toString or valueOf, which may throw
	}
	switch x := v.(type) {
	case goja.String:
		return x
	case *goja.Symbol:
		panic(rt.NewTypeError("Cannot convert a Symbol value to a string"))
	}
	return rt.ToValue(v.String()).(goja.String)
}
