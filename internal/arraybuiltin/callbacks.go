package arraybuiltin

import (
	"github.com/dop251/goja"
)

// Which of the iterating methods Each is.
const (
	ForEach = iota
	Every
	Some
)

// Each is Array.prototype.forEach, every or some (which) on o, whose length n was read, with the callable fn (the
// caller checked it, with goja's TypeError otherwise) and thisArg.
func Each(r *Realm, o *goja.Object, n float64, which int, fn goja.Callable, thisArg goja.Value) goja.Value {
	w := newWalker(r, o)
	answer := which != Some
	w.eachPresent(0, n, func(k float64, v goja.Value) bool {
		res := call(fn, thisArg, v, index(r.RT, k), o)
		w.ran()
		switch {
		case which == Every && !res.ToBoolean():
			answer = false
		case which == Some && res.ToBoolean():
			answer = true
		default:
			return true
		}
		return false
	})
	if which == ForEach {
		return goja.Undefined()
	}
	return r.RT.ToValue(answer)
}

// Filter is Array.prototype.filter on o, whose length n was read, with the callable fn and thisArg (ECMA-262
// 23.1.3.8): into ArraySpeciesCreate(o, 0), each present element for which fn answers true, in order. goja's
// loop asked every index of `new Array(2**32 - 1).filter(f)` (minutes, unstoppable) though f runs only for the
// present ones; the holes of a quiet array are skipped here.
func Filter(r *Realm, o *goja.Object, n float64, fn goja.Callable, thisArg goja.Value) goja.Value {
	w := newWalker(r, o)
	defer w.release()
	a := w.speciesCreate(o, 0)
	w.ran()
	to := 0.0
	w.eachPresent(0, n, func(k float64, v goja.Value) bool {
		selected := call(fn, thisArg, v, index(r.RT, k), o).ToBoolean()
		w.ran()
		if selected {
			w.define(a, to, v)
			w.ran()
			to++
		}
		return true
	})
	return a
}

// Map is Array.prototype.map on o, whose length n was read, with the callable fn and thisArg (ECMA-262
// 23.1.3.21): into ArraySpeciesCreate(o, n), fn's answer for each present element at its index. Holes are skipped
// as Filter's.
func Map(r *Realm, o *goja.Object, n float64, fn goja.Callable, thisArg goja.Value) goja.Value {
	w := newWalker(r, o)
	defer w.release()
	a := w.speciesCreate(o, n)
	w.ran()
	w.eachPresent(0, n, func(k float64, v goja.Value) bool {
		mapped := call(fn, thisArg, v, index(r.RT, k), o)
		w.ran()
		w.define(a, k, mapped)
		w.ran()
		return true
	})
	return a
}

// Reduce is Array.prototype.reduce (right: reduceRight) on o, whose length n was read, with the callable fn and
// the arguments after it (an initial value if there is one).
func Reduce(r *Realm, o *goja.Object, n float64, right bool, fn goja.Callable, rest []goja.Value) goja.Value {
	w := newWalker(r, o)
	k, end, dir := 0.0, n, 1.0
	if right {
		k, end, dir = n-1, -1, -1
	}
	next := func() bool { // moves k to the next index o may have; false at the end
		if right {
			k = w.skipDown(k)
			return k > end
		}
		k = w.skipUp(k, n)
		return k < end
	}
	var acc goja.Value
	if len(rest) > 0 {
		acc = rest[0]
	} else {
		for ; next(); k += dir {
			if v, ok := w.at(k); ok {
				acc = v
				break
			}
		}
		if acc == nil {
			panic(r.RT.NewTypeError("No initial value"))
		}
		k += dir
	}
	for ; next(); k += dir {
		if v, ok := w.at(k); ok {
			acc = call(fn, goja.Undefined(), acc, v, index(r.RT, k), o)
			w.ran()
		}
	}
	return acc
}
