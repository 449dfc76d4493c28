package arraybuiltin

import (
	"math"

	"github.com/dop251/goja"
)

func arg(args []goja.Value, i int) goja.Value {
	if i < len(args) && args[i] != nil {
		return args[i]
	}
	return goja.Undefined()
}

func index(rt *goja.Runtime, k float64) goja.Value { return rt.ToValue(int64(k)) }

// startIndex is the relative fromIndex of indexOf and includes: ToIntegerOrInfinity, negative from the end,
// clamped at 0; ok=false when it is at or past the end.
func startIndex(v goja.Value, n float64) (float64, bool) {
	k := toInteger(v)
	if k >= n {
		return 0, false
	}
	if k < 0 {
		k = math.Max(n+k, 0)
	}
	return k, true
}

// IndexOf is Array.prototype.indexOf(searchElement, fromIndex) on o, whose length n was read.
func IndexOf(r *Realm, o *goja.Object, n float64, args []goja.Value) goja.Value {
	if n == 0 {
		return r.RT.ToValue(-1)
	}
	k, ok := startIndex(arg(args, 1), n)
	if !ok {
		return r.RT.ToValue(-1)
	}
	search := arg(args, 0)
	w := newWalker(r, o)
	for ; k < n; k++ {
		if k = w.skipUp(k, n); k >= n {
			break
		}
		if v, ok := w.at(k); ok && search.StrictEquals(v) {
			return index(r.RT, k)
		}
	}
	return r.RT.ToValue(-1)
}

// Includes is Array.prototype.includes(searchElement, fromIndex) on o, whose length n was read.
func Includes(r *Realm, o *goja.Object, n float64, args []goja.Value) goja.Value {
	if n == 0 {
		return r.RT.ToValue(false)
	}
	k, ok := startIndex(arg(args, 1), n)
	if !ok {
		return r.RT.ToValue(false)
	}
	search := arg(args, 0)
	w := newWalker(r, o)
	for ; k < n; k++ {
		if j := w.skipUp(k, n); j > k { // holes from k to j: each reads undefined
			if goja.IsUndefined(search) {
				return r.RT.ToValue(true)
			}
			if k = j; k >= n {
				break
			}
		}
		if v := w.value(k); search.StrictEquals(v) || (goja.IsNaN(search) && goja.IsNaN(v)) {
			return r.RT.ToValue(true)
		}
	}
	return r.RT.ToValue(false)
}

// LastIndexOf is Array.prototype.lastIndexOf(searchElement, fromIndex) on o, whose length n was read.
func LastIndexOf(r *Realm, o *goja.Object, n float64, args []goja.Value) goja.Value {
	if n == 0 {
		return r.RT.ToValue(-1)
	}
	k := n - 1
	if len(args) > 1 {
		if f := toInteger(args[1]); f >= 0 {
			k = math.Min(f, n-1)
		} else {
			k = n + f
		}
	}
	search := arg(args, 0)
	w := newWalker(r, o)
	for ; k >= 0; k-- {
		if k = w.skipDown(k); k < 0 {
			break
		}
		if v, ok := w.at(k); ok && search.StrictEquals(v) {
			return index(r.RT, k)
		}
	}
	return r.RT.ToValue(-1)
}
