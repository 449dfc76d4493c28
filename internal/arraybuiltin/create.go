package arraybuiltin

import (
	"math"

	"github.com/dop251/goja"
	"github.com/jsworker/jsworker/internal/gojainternal"
)

// What the methods that make an array count as made, for the realm's memory accounting (Realm.Building): a low
// estimate of one element's slot in goja's array.
const elementBytes = 16

// maxSafeLength is 2**53 − 1, the longest length of an array-like (ToLength's ceiling).
const maxSafeLength = 1<<53 - 1

// maxArrayLength is 2**32 − 1, the longest length of an Array.
const maxArrayLength = math.MaxUint32

// isArray is IsArray(v): an Array, or a Proxy whose target is one; a revoked Proxy is a TypeError.
func (s *stepper) isArray(v goja.Value) bool {
	o, _ := v.(*goja.Object)
	for o != nil {
		switch gojainternal.ObjectKind(o) {
		case gojainternal.KindArray:
			return true
		case gojainternal.KindProxy:
			p, ok := o.Export().(goja.Proxy)
			if !ok {
				return false
			}
			if o = p.Target(); o == nil {
				panic(s.r.RT.NewTypeError("Cannot perform 'IsArray' on a proxy that has been revoked"))
			}
		default:
			return false
		}
	}
	return false
}

// speciesCreate is ArraySpeciesCreate(o, length) (ECMA-262 10.4.2.3): a new Array unless o is an array whose
// constructor's Symbol.species is a constructor, which is then called with length.
func (s *stepper) speciesCreate(o *goja.Object, length float64) *goja.Object {
	rt := s.r.RT
	if s.isArray(o) {
		c := o.Get("constructor")
		if co, ok := c.(*goja.Object); ok {
			if c = co.GetSymbol(goja.SymSpecies); goja.IsNull(c) {
				c = goja.Undefined()
			}
		}
		if c != nil && !goja.IsUndefined(c) {
			co, _ := c.(*goja.Object)
			if co == nil {
				panic(rt.NewTypeError("Species is not a constructor"))
			}
			if _, ok := goja.AssertConstructor(co); !ok {
				panic(rt.NewTypeError("Species is not a constructor"))
			}
			a, err := rt.New(co, rt.ToValue(length))
			if err != nil {
				panic(err)
			}
			return a
		}
	}
	return s.arrayCreate(length)
}

// arrayCreate is ArrayCreate(length): an Array of the realm with that length and no elements.
func (s *stepper) arrayCreate(length float64) *goja.Object {
	if length > maxArrayLength {
		s.rangeError("Invalid array length")
	}
	a := s.r.RT.NewArray()
	if length > 0 {
		if err := a.Set("length", length); err != nil {
			panic(err)
		}
	}
	return a
}

// rangeError throws a RangeError of the realm with message msg.
func (s *stepper) rangeError(msg string) {
	if s.r.RangeError != nil {
		s.r.RangeError(msg)
	}
	ctor, _ := s.r.RT.GlobalObject().Get("RangeError").(*goja.Object)
	if ctor != nil {
		if e, err := s.r.RT.New(ctor, s.r.RT.ToValue(msg)); err == nil {
			panic(e)
		}
	}
	panic(s.r.RT.NewTypeError(msg)) // (a realm without RangeError)
}

// define is CreateDataPropertyOrThrow(a, k, v): a TypeError when a refuses it. Each element made counts
// elementBytes in the realm's Building until the call returns (release).
func (s *stepper) define(a *goja.Object, k float64, v goja.Value) {
	if err := a.DefineDataProperty(keyName(k), v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
		panic(err)
	}
	s.built += elementBytes
	if s.r.Building != nil {
		*s.r.Building += elementBytes
	}
}

// release takes what the call made out of the realm's Building, as it returns or throws (deferred by every method
// that calls define).
func (s *stepper) release() {
	if s.r.Building != nil {
		*s.r.Building -= s.built
	}
	s.built = 0
}

// setLengthOf is Set(a, "length", n, true).
func (s *stepper) setLengthOf(a *goja.Object, n float64) {
	if err := a.Set("length", s.r.RT.ToValue(n)); err != nil {
		panic(err)
	}
}
