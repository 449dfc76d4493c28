package clone

import (
	"errors"

	"github.com/dop251/goja"
)

// InstallStructuredClone defines the global function structuredClone(value,
// options) in rt, as in HTML: it serializes value, with options.transfer as
// the transfer list, and deserializes the frame again in the same realm.
// The function has name "structuredClone" and length 1, and is a writable,
// configurable, non-enumerable property of the global object, like the
// other web globals.
//
// It throws a TypeError when called without arguments or with options that
// are neither undefined, null nor an object, or whose transfer is not an
// iterable of objects; a DataCloneError (an Error whose name is
// "DataCloneError", see JSError) for what cannot be cloned or transferred;
// and the script's own exception when a getter throws. Listed ArrayBuffers
// are detached once the clone succeeded. No frame cap applies.
//
// InstallStructuredClone is cheap (it captures no builtins; see realm.go)
// and must be called on the goroutine that owns rt. It fails only if the
// global object refuses the property.
func InstallStructuredClone(rt *goja.Runtime) error {
	f := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) == 0 {
			panic(rt.NewTypeError("structuredClone: 1 argument required, but only 0 present."))
		}
		transfer := transferOption(rt, call.Argument(1))
		frame, err := Serialize(rt, call.Argument(0), Options{Transfer: transfer})
		if err != nil {
			panic(throwable(rt, err))
		}
		v, err := Deserialize(rt, frame)
		if err != nil {
			panic(throwable(rt, err))
		}
		return v
	}).(*goja.Object)
	if err := f.DefineDataProperty("name", rt.ToValue("structuredClone"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	if err := f.DefineDataProperty("length", rt.ToValue(1), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}
	return rt.GlobalObject().DefineDataProperty("structuredClone", f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// throwable returns what a host function should panic with for err: the
// thrown value of a script exception (a primitive included), the
// uncatchable error itself, or JSError's object.
func throwable(rt *goja.Runtime, err error) any {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return ex.Value()
	}
	return JSError(rt, err)
}

// transferOption reads the transfer list from structuredClone's options
// argument, converting it as WebIDL converts a sequence<object>: iterated
// with its own @@iterator (that is part of the API), every item an object.
func transferOption(rt *goja.Runtime, opts goja.Value) []goja.Value {
	if opts == nil || goja.IsUndefined(opts) || goja.IsNull(opts) {
		return nil
	}
	o, ok := opts.(*goja.Object)
	if !ok {
		panic(rt.NewTypeError("structuredClone: the options argument is not an object."))
	}
	t := o.Get("transfer")
	if t == nil || goja.IsUndefined(t) {
		return nil
	}
	to, ok := t.(*goja.Object)
	if !ok {
		panic(rt.NewTypeError("structuredClone: options.transfer is not an iterable of objects."))
	}
	if it := to.GetSymbol(goja.SymIterator); it == nil || goja.IsUndefined(it) || goja.IsNull(it) {
		panic(rt.NewTypeError("structuredClone: options.transfer is not an iterable of objects."))
	}
	var list []goja.Value
	rt.ForOf(to, func(v goja.Value) bool {
		if _, ok := v.(*goja.Object); !ok {
			panic(rt.NewTypeError("structuredClone: options.transfer contains a value that is not an object."))
		}
		list = append(list, v)
		return true
	})
	return list
}
