package depthguard

import (
	"errors"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// overflowFor returns fail, which throws the guard's RangeError (Message) in rt, and lazy, whether the guard's other
// parts are made when goja makes what they guard (gojainternal.AfterMake on goja's templates) instead of at Install.
//
// When lazy, fail finds the RangeError constructor when it first throws, from the global object's template
// (gojainternal.TemplateValue): goja's own, as at Install, whatever the global holds by then, and a realm that never
// overflows never makes it (with Error.prototype and its constructor, ~6 KiB). Otherwise (goja's internals cannot be
// read), fail throws with the constructor the global holds at Install, looked up now.
func overflowFor(rt *goja.Runtime) (fail func(), lazy bool, err error) {
	if gojainternal.LazyProps() == nil && gojainternal.TemplateHas(rt.GlobalObject(), "RangeError") {
		return func() { throwOverflow(rt) }, true, nil
	}
	ctor, ok := goja.AssertConstructor(rt.Get("RangeError"))
	if !ok {
		return nil, false, errors.New("depthguard: the realm has no RangeError constructor")
	}
	msg := rt.ToValue(Message)
	return func() { throwWith(ctor, msg) }, false, nil
}

// throwOverflow throws the guard's RangeError in rt, made by goja's own constructor (overflowFor, lazy).
func throwOverflow(rt *goja.Runtime) {
	v, _ := gojainternal.TemplateValue(rt, rt.GlobalObject(), "RangeError")
	ctor, ok := goja.AssertConstructor(v)
	if !ok {
		panic(rt.NewTypeError(Message)) // not reached: overflowFor found the template's RangeError
	}
	throwWith(ctor, rt.ToValue(Message))
}

// throwWith throws new ctor(msg).
func throwWith(ctor goja.Constructor, msg goja.Value) {
	e, err := ctor(nil, msg)
	if err != nil {
		panic(err) // the RangeError constructor itself failed: pass its exception on
	}
	panic(e)
}
