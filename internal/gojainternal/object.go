package gojainternal

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/dop251/goja"
)

// Locating goja.Object's implementation.
//
// A goja.Object holds its behaviour in the unexported interface field
// "self"; the dynamic type stored there (*goja.baseObject, *goja.mapObject,
// ...) is the one fact about an object that no script can forge. The field
// is found once with reflect; afterwards it is read as a raw interface
// value through its offset, whose type word (itab) identifies the Go type
// without going through reflect.

// iface is the memory layout of a non-empty Go interface value.
type iface struct{ tab, data unsafe.Pointer }

var self struct {
	once  sync.Once
	err   error
	index int     // field index of goja.Object.self
	off   uintptr // its offset
}

func locateSelf() error {
	self.once.Do(func() {
		f, ok := reflect.TypeFor[goja.Object]().FieldByName("self")
		switch {
		case !ok || f.Type.Kind() != reflect.Interface || len(f.Index) != 1:
			self.err = errors.New("goja.Object has no interface field \"self\"")
		case f.Type.NumMethod() == 0 || f.Type.Size() != unsafe.Sizeof(iface{}):
			self.err = fmt.Errorf("goja.Object.self is %s, not a non-empty interface", f.Type)
		default:
			self.index, self.off = f.Index[0], f.Offset
		}
	})
	return self.err
}

// simulated, when set, is the error every probe reports (SimulateChange).
var simulated atomic.Pointer[error]

// SimulateChange makes every probe of this package report err, as if goja's
// internals had changed, until restore is called: for tests of the
// fail-closed paths of the packages that depend on this one. Not for
// production use; not safe to call from parallel tests.
func SimulateChange(err error) (restore func()) {
	simulated.Store(&err)
	return func() { simulated.Store(nil) }
}

// simulatedErr returns the simulated change, if any.
func simulatedErr() error {
	if p := simulated.Load(); p != nil {
		return probeError("internals (simulated)", *p)
	}
	return nil
}

// selfOf returns o's self field as a raw interface. Only after locateSelf
// returned nil.
func selfOf(o *goja.Object) *iface { return (*iface)(unsafe.Add(unsafe.Pointer(o), self.off)) }

// implType returns the Go type behind o through reflect, or nil for a zero
// goja.Object. Only after locateSelf returned nil.
func implType(o *goja.Object) reflect.Type {
	v := reflect.ValueOf(o).Elem().Field(self.index)
	if v.IsNil() {
		return nil
	}
	return v.Elem().Type()
}

// implValue returns the value behind o through reflect (the pointer to
// goja's implementation struct), or an invalid Value.
func implValue(o *goja.Object) reflect.Value {
	v := reflect.ValueOf(o).Elem().Field(self.index)
	if v.IsNil() {
		return reflect.Value{}
	}
	return v.Elem()
}

// probeError wraps what a probe found different.
func probeError(what string, err error) error {
	return fmt.Errorf("jsworker: cannot read goja's %s (goja's internals changed; see internal/gojainternal): %w", what, err)
}

// sample runs src in rt and returns the object it evaluates to.
func sample(rt *goja.Runtime, src string) (*goja.Object, error) {
	v, err := rt.RunString(src)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*goja.Object)
	if !ok || o == nil {
		return nil, fmt.Errorf("sample %s is not an object", src)
	}
	return o, nil
}
