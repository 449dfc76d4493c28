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
	for k := 0.0; k < n; k++ {
		if k = w.skipUp(k, n); k >= n {
			break
		}
		v, ok := w.at(k)
		if !ok {
			continue
		}
		res := call(fn, thisArg, v, index(r.RT, k), o)
		w.ran()
		switch {
		case which == Every && !res.ToBoolean():
			return r.RT.ToValue(false)
		case which == Some && res.ToBoolean():
			return r.RT.ToValue(true)
		}
	}
	switch which {
	case Every:
		return r.RT.ToValue(true)
	case Some:
		return r.RT.ToValue(false)
	}
	return goja.Undefined()
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
