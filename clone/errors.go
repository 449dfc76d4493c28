package clone

import (
	"errors"

	"github.com/dop251/goja"
)

// ErrMalformedFrame is returned, wrapped with detail, when Deserialize is given
// bytes that are not a valid frame: no magic or an unknown version, a bad
// manifest, a truncated or overlong payload, a bad tag, an out-of-range
// reference or length, or nesting deeper than the limit. Test for it with
// errors.Is.
var ErrMalformedFrame = errors.New("jsworker: malformed frame")

// A DataCloneError reports a value that the structured clone algorithm cannot
// copy (a function, a symbol, a WeakMap ...), a bad transfer list, or a frame
// this process cannot read (a SharedArrayBuffer while shared memory is not
// available). JSError turns it into the JS error scripts expect, with name
// "DataCloneError".
type DataCloneError struct {
	// Message says what could not be cloned, in the style of browsers:
	// "function f() {…} could not be cloned." or
	// "#<WeakMap> could not be cloned."
	Message string
}

// Error returns "DataCloneError: " followed by the message.
func (e *DataCloneError) Error() string { return "DataCloneError: " + e.Message }

// dataCloneErrorCode is DOMException.DATA_CLONE_ERR.
const dataCloneErrorCode = 25

// JSError converts an error returned by Serialize or Deserialize into a JS
// value that a host function running in rt can throw with panic(...):
//
//   - *DataCloneError: the realm's DOMException named "DataCloneError"
//     (code 25) where the realm has that class (SetDataCloneError), else an
//     Error made with the realm's intrinsic Error, with own properties
//     name = "DataCloneError", message, and code = 25 (as
//     DOMException.DATA_CLONE_ERR).
//   - ErrFrameTooLarge: a RangeError.
//   - ErrMalformedFrame: an Error.
//   - *goja.Exception (a getter threw during Serialize): the thrown object
//     itself, so the script sees its own exception unchanged. A thrown
//     primitive cannot be returned as an *goja.Object; rethrow such an
//     exception with panic(err) instead of calling JSError.
//   - anything else: rt.NewGoError(err).
//
// Uncatchable goja errors (*goja.InterruptedError, *goja.StackOverflowError)
// must keep unwinding rather than become catchable JS errors, so JSError
// re-panics with them: the usual panic(clone.JSError(rt, err)) still
// propagates them unchanged.
//
// JSError must be called on the goroutine that owns rt.
func JSError(rt *goja.Runtime, err error) *goja.Object {
	var (
		dce  *DataCloneError
		intr *goja.InterruptedError
		so   *goja.StackOverflowError
		ex   *goja.Exception
	)
	switch {
	case errors.As(err, &intr), errors.As(err, &so):
		panic(err)
	case errors.As(err, &dce):
		if o := realmDataCloneError(rt, dce.Message); o != nil {
			return o
		}
		o := newJSError(rt, "Error", dce.Message)
		_ = o.DefineDataProperty("name", rt.ToValue("DataCloneError"), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = o.DefineDataProperty("code", rt.ToValue(dataCloneErrorCode), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return o
	case errors.Is(err, ErrFrameTooLarge):
		return newJSError(rt, "RangeError", err.Error())
	case errors.Is(err, ErrMalformedFrame):
		return newJSError(rt, "Error", err.Error())
	case errors.As(err, &ex):
		if o, ok := ex.Value().(*goja.Object); ok {
			return o
		}
	}
	return rt.NewGoError(err)
}

// newJSError constructs ctorName(msg) with the realm's intrinsic constructor
// of that name (see realm.go), falling back to a GoError when the realm's
// error constructors cannot be used.
func newJSError(rt *goja.Runtime, ctorName, msg string) *goja.Object {
	var o *goja.Object
	if ex := rt.Try(func() {
		r := realmOf(rt)
		if r.need(groupError) != nil {
			return
		}
		for i, name := range errorNames {
			if name == ctorName {
				o, _ = rt.New(r.errorCtors[i], rt.ToValue(msg))
			}
		}
	}); ex != nil || o == nil {
		o = rt.NewGoError(errors.New(msg))
	}
	return o
}
